import { Button, Col, Input, Modal, Row, Spin, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { COLLECTION_TEMPLATES_MAX } from '@/api/collection';
import { useTemplates, type TemplateSummary } from '@/api/template';
import { InfiniteMore } from '@/components/InfiniteMore';
import { TemplateCard } from '@/platform/templates/components/TemplateCard';

export interface TemplatePickerModalProps {
  /** Templates already in the collection: shown as added. */
  chosen: ReadonlySet<number>;
  onAdd: (template: TemplateSummary) => void;
  onClose: () => void;
}

/**
 * The tenant's approved templates (the template page's own list), searchable by name; each added to
 * the end of the collection. Shown while mounted: the list is asked only while a manager picks.
 */
export function TemplatePickerModal({ chosen, onAdd, onClose }: TemplatePickerModalProps) {
  const { t } = useTranslation();
  const [name, setName] = useState('');
  const filter = useMemo(() => (name ? { name } : {}), [name]);
  const list = useTemplates(filter);
  const items = useMemo(() => list.data?.pages.flatMap((p) => p.list) ?? [], [list.data]);
  const full = chosen.size >= COLLECTION_TEMPLATES_MAX;
  return (
    <Modal
      open
      title={t('collection.picker.title')}
      width={960}
      onCancel={onClose}
      footer={
        <Button type="primary" onClick={onClose} data-testid="collection-picker-done">
          {t('collection.picker.done')}
        </Button>
      }
    >
      <div data-testid="collection-picker">
        <Typography.Paragraph type={full ? 'warning' : 'secondary'}>
          {full ? t('collection.picker.full', { max: COLLECTION_TEMPLATES_MAX }) : t('collection.picker.hint', { max: COLLECTION_TEMPLATES_MAX })}
        </Typography.Paragraph>
        <Input.Search
          allowClear
          placeholder={t('collection.picker.search')}
          aria-label={t('collection.picker.search')}
          onSearch={(value) => setName(value.trim())}
          style={{ width: 280, marginBottom: 16 }}
          data-testid="collection-picker-search"
        />
        {list.isError ? (
          <Typography.Text type="danger">{t('tpl.loadFailed')}</Typography.Text>
        ) : (
          <Spin spinning={list.isPending}>
            <Row gutter={[12, 12]} style={{ maxHeight: '60vh', overflowY: 'auto' }}>
              {items.map((tpl) => {
                const added = chosen.has(tpl.id);
                return (
                  <Col key={tpl.id} xs={24} sm={12} md={8} lg={6}>
                    <TemplateCard
                      template={tpl}
                      actions={[
                        <Button key="add" type="link" disabled={added || full} onClick={() => onAdd(tpl)} data-testid={`collection-pick-${tpl.id}`}>
                          {added ? t('collection.picker.added') : t('collection.picker.add')}
                        </Button>,
                      ]}
                    />
                  </Col>
                );
              })}
              <Col span={24}>
                <InfiniteMore hasMore={!!list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />
              </Col>
            </Row>
          </Spin>
        )}
      </div>
    </Modal>
  );
}
