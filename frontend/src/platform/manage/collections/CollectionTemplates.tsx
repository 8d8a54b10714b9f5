import { DeleteOutlined, StarFilled, StarOutlined } from '@ant-design/icons';
import { Button, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { ratioOf, type TemplateSummary } from '@/api/template';
import { MoveButtons } from '@/components/MoveButtons';
import { Thumb } from './Thumb';

export interface CollectionTemplatesProps {
  templates: TemplateSummary[];
  /** The id of the template whose cover is the collection's. */
  cover: number;
  onCover: (id: number) => void;
  onMove: (index: number, by: -1 | 1) => void;
  onRemove: (id: number) => void;
}

/** A collection's templates in order, each with its cover, movable, removable and choosable as the collection's cover. */
export function CollectionTemplates({ templates, cover, onCover, onMove, onRemove }: CollectionTemplatesProps) {
  const { t } = useTranslation();
  const columns: TableColumnsType<TemplateSummary> = [
    { title: '#', key: 'position', width: 48, render: (_, _tpl, i) => i + 1 },
    {
      title: t('collection.center.cover'),
      key: 'thumb',
      width: 120,
      render: (_, tpl) => <Thumb src={tpl.coverUrl} alt={tpl.taskName} />,
    },
    {
      title: t('collection.center.name'),
      key: 'name',
      render: (_, tpl) => (
        <Space size={4} wrap>
          <Typography.Text data-testid={`collection-template-name-${tpl.id}`}>{tpl.taskName || t('tasks.untitled')}</Typography.Text>
          {ratioOf(tpl.sizeCategoryId) ? <Tag>{ratioOf(tpl.sizeCategoryId)}</Tag> : null}
          {tpl.auditState === 'approved' ? null : <Tag color="red">{t('collection.detail.notApproved')}</Tag>}
        </Space>
      ),
    },
    {
      title: t('collection.detail.cover'),
      key: 'cover',
      width: 130,
      render: (_, tpl) => {
        const isCover = tpl.id === cover;
        return (
          <Button
            size="small"
            type={isCover ? 'primary' : 'default'}
            icon={isCover ? <StarFilled /> : <StarOutlined />}
            aria-pressed={isCover}
            data-testid={`collection-cover-${tpl.id}`}
            onClick={() => onCover(tpl.id)}
          >
            {isCover ? t('collection.detail.cover') : t('collection.detail.setCover')}
          </Button>
        );
      },
    },
    {
      title: t('collection.center.actions'),
      key: 'actions',
      width: 150,
      render: (_, tpl, i) => (
        <Space size={2}>
          <MoveButtons
            index={i}
            count={templates.length}
            onMove={onMove}
            labels={{ up: t('collection.detail.up'), down: t('collection.detail.down') }}
            testIds={{ up: `collection-template-up-${tpl.id}`, down: `collection-template-down-${tpl.id}` }}
          />
          <Button
            size="small"
            type="text"
            danger
            icon={<DeleteOutlined />}
            aria-label={t('collection.detail.remove')}
            title={t('collection.detail.remove')}
            data-testid={`collection-template-remove-${tpl.id}`}
            onClick={() => onRemove(tpl.id)}
          />
        </Space>
      ),
    },
  ];
  return (
    <Table<TemplateSummary>
      rowKey="id"
      size="small"
      dataSource={templates}
      columns={columns}
      pagination={false}
      locale={{ emptyText: t('collection.detail.noTemplates') }}
      onRow={(tpl) => ({ 'data-testid': `collection-template-${tpl.id}` }) as React.HTMLAttributes<HTMLElement>}
    />
  );
}
