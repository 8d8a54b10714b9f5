/**
 * The picker's curated collections (the collections contract): chips of the published topics, cases
 * and industries, and one collection's templates in its own order.
 */
import { ArrowLeftOutlined } from '@ant-design/icons';
import { Button, Empty, Flex, Result, Skeleton, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { COLLECTION_KINDS, usePublishedCollection, usePublishedCollections } from '@/api/collection';
import { errorText } from '@/api/errors';
import type { TemplateSummary } from '@/api/template';
import { TemplateCards } from './TemplateCards';

export interface CollectionChipsProps {
  /** The collection shown, or null for all templates. */
  value: number | null;
  onChange: (id: number | null) => void;
}

/** A row of chips per kind of the published collections; the chosen one again goes back to all templates. Nothing while there are none. */
export function CollectionChips({ value, onChange }: CollectionChipsProps) {
  const { t } = useTranslation();
  const { data } = usePublishedCollections();
  if (!data || data.length === 0) return null;
  return (
    <Flex vertical gap={8} style={{ marginBottom: 16 }} data-testid="template-collections">
      {COLLECTION_KINDS.map((kind) => {
        const ofKind = data.filter((c) => c.kind === kind);
        if (ofKind.length === 0) return null;
        return (
          <Flex key={kind} wrap gap={6} align="center">
            <Typography.Text type="secondary" style={{ minWidth: 40 }}>
              {t(`collection.kind.${kind}`)}
            </Typography.Text>
            {ofKind.map((c) => (
              <Tag.CheckableTag
                key={c.id}
                checked={c.id === value}
                onChange={(checked) => onChange(checked ? c.id : null)}
                data-testid={`template-collection-chip-${c.id}`}
              >
                {c.name}
              </Tag.CheckableTag>
            ))}
          </Flex>
        );
      })}
    </Flex>
  );
}

export interface CollectionGridProps {
  id: number;
  onUse: (template: TemplateSummary) => void;
  onBack: () => void;
}

/** One published collection: its name and description as a heading, its approved templates in order, and the way back. */
export function CollectionGrid({ id, onUse, onBack }: CollectionGridProps) {
  const { t } = useTranslation();
  const { data, isPending, isError, error } = usePublishedCollection(id);
  const back = (
    <Button icon={<ArrowLeftOutlined />} onClick={onBack} data-testid="template-collection-back">
      {t('collection.browse.back')}
    </Button>
  );
  if (isPending) return <Skeleton active paragraph={{ rows: 4 }} />;
  if (isError) return <Result status="warning" title={t('collection.browse.gone')} subTitle={errorText(error)} extra={back} data-testid="template-collection-gone" />;
  const templates = data.templates ?? [];
  return (
    <>
      <Flex justify="space-between" align="start" gap={16} style={{ marginBottom: 16 }} data-testid="template-collection-heading">
        <div>
          <Typography.Title level={4} style={{ marginTop: 0 }}>
            {data.name}
          </Typography.Title>
          {data.description ? <Typography.Paragraph type="secondary">{data.description}</Typography.Paragraph> : null}
        </div>
        {back}
      </Flex>
      {templates.length === 0 ? (
        <Empty description={t('collection.browse.empty')} />
      ) : (
        <TemplateCards templates={templates} onUse={onUse} testId="template-collection-grid" />
      )}
    </>
  );
}
