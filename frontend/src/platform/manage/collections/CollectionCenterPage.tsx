import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Empty, Space, Switch, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import {
  useDeleteCollection,
  useManagedCollections,
  useOrderCollections,
  usePublishCollection,
  type Collection,
  type CollectionKind,
} from '@/api/collection';
import { MoveButtons } from '@/components/MoveButtons';
import { useWarmTip } from '@/components/WarmTip';
import { collectionErrorText } from './collectionErrors';
import { NewCollectionModal } from './NewCollectionModal';
import { centerTitleKey, detailPath, moved } from './paths';
import { Thumb } from './Thumb';

/** The actions of one collection's row: publish, order, open, delete. */
function useRowActions(kind: CollectionKind, list: Collection[]) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const warmTip = useWarmTip();
  const publish = usePublishCollection();
  const order = useOrderCollections();
  const remove = useDeleteCollection();
  const kindWord = t(`collection.kind.${kind}`);
  const fail = (err: unknown) => void message.error(collectionErrorText(err));

  return {
    ordering: order.isPending,
    publishing: publish.isPending ? publish.variables?.id : undefined,
    setPublished: (c: Collection, published: boolean) =>
      publish.mutate(
        { id: c.id, published },
        { onSuccess: () => void message.success(published ? t('collection.center.publishedDone') : t('collection.center.unpublishedDone')), onError: fail },
      ),
    move: (index: number, by: -1 | 1) =>
      order.mutate(
        { kind, ids: moved(list, index, by).map((c) => c.id) },
        { onSuccess: () => void message.success(t('collection.center.ordered')), onError: fail },
      ),
    confirmDelete: (c: Collection) =>
      warmTip({
        content: t('collection.center.deleteConfirm', { kind: kindWord, name: c.name }),
        okButtonProps: { danger: true, 'data-testid': 'confirm-delete' },
        onOk: () => remove.mutate(c.id, { onSuccess: () => void message.success(t('collection.center.deleted')), onError: fail }),
      }),
  };
}

function byPosition(list: Collection[] | undefined): Collection[] {
  return [...(list ?? [])].sort((a, b) => a.position - b.position);
}

/**
 * /manage/{topic,case,industry}-center: the collections of one kind in their order, with cover, size,
 * state and last change; new, publish or withdraw, move up or down, open, delete (asked first).
 */
export function CollectionCenterPage({ kind }: { kind: CollectionKind }) {
  const { t } = useTranslation();
  const { data, isFetching, isError, error } = useManagedCollections(kind);
  const list = byPosition(data);
  const actions = useRowActions(kind, list);
  const [creating, setCreating] = useState(false);
  const kindWord = t(`collection.kind.${kind}`);

  const columns: TableColumnsType<Collection> = [
    { title: t('collection.center.position'), key: 'position', width: 64, render: (_, _c, i) => i + 1 },
    { title: t('collection.center.cover'), key: 'cover', width: 120, render: (_, c) => <Thumb src={c.coverUrl} alt={c.name} /> },
    {
      title: t('collection.center.name'),
      key: 'name',
      render: (_, c) => (
        <Space orientation="vertical" size={0}>
          <Link to={detailPath(kind, c.id)} data-testid={`collection-name-${c.id}`}>
            {c.name}
          </Link>
          {c.description ? (
            <Typography.Text type="secondary" ellipsis={{ tooltip: c.description }} style={{ maxWidth: 320, fontSize: 12 }}>
              {c.description}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    { title: t('collection.center.templateCount'), key: 'count', width: 90, render: (_, c) => <span data-testid={`collection-count-${c.id}`}>{c.templateCount}</span> },
    {
      title: t('collection.center.state'),
      key: 'state',
      width: 170,
      render: (_, c) => (
        <Space size={8}>
          <Switch
            size="small"
            checked={c.published}
            loading={actions.publishing === c.id}
            aria-label={t('collection.center.publish')}
            data-testid={`collection-publish-${c.id}`}
            onChange={(on) => actions.setPublished(c, on)}
          />
          <Tag color={c.published ? 'green' : 'default'} data-testid={`collection-state-${c.id}`}>
            {c.published ? t('collection.center.published') : t('collection.center.draft')}
          </Tag>
        </Space>
      ),
    },
    { title: t('collection.center.updateTime'), dataIndex: 'updateTime', key: 'updateTime', width: 170 },
    {
      title: t('collection.center.actions'),
      key: 'actions',
      width: 260,
      render: (_, c, i) => (
        <Space size={2} wrap>
          <MoveButtons
            index={i}
            count={list.length}
            onMove={actions.move}
            disabled={actions.ordering}
            labels={{ up: t('collection.center.up'), down: t('collection.center.down') }}
            testIds={{ up: `collection-up-${c.id}`, down: `collection-down-${c.id}` }}
          />
          <Link to={detailPath(kind, c.id)} data-testid={`collection-open-${c.id}`}>
            <Button size="small" type="link">
              {t('collection.center.open')}
            </Button>
          </Link>
          <Button size="small" type="link" danger data-testid={`collection-delete-${c.id}`} onClick={() => actions.confirmDelete(c)}>
            {t('collection.center.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid={`collection-center-${kind}`}>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t(centerTitleKey(kind))}
      </Typography.Title>
      <Typography.Paragraph type="secondary">
        {kind === 'topic' ? t('collection.center.introTopic') : t('collection.center.intro', { kind: kindWord })}
      </Typography.Paragraph>
      <Button type="primary" icon={<PlusOutlined />} style={{ marginBottom: 12 }} data-testid="collection-new" onClick={() => setCreating(true)}>
        {t('collection.center.new', { kind: kindWord })}
      </Button>
      {isError ? (
        <Typography.Text type="danger" data-testid="collection-error">
          {collectionErrorText(error)}
        </Typography.Text>
      ) : (
        <Table<Collection>
          rowKey="id"
          loading={isFetching && !data}
          dataSource={list}
          columns={columns}
          pagination={false}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('collection.center.empty', { kind: kindWord })} /> }}
          onRow={(c) => ({ 'data-testid': `collection-row-${c.id}` }) as React.HTMLAttributes<HTMLElement>}
        />
      )}
      <NewCollectionModal kind={kind} open={creating} onClose={() => setCreating(false)} />
    </div>
  );
}
