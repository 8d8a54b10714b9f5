import { CheckOutlined } from '@ant-design/icons';
import { Button, Col, Empty, Row, Spin, TreeSelect, Typography } from 'antd';
import { useMemo, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTaskVideoCategories } from '@/api/category';
import { useTemplates, type TemplateFilter, type TemplateSummary } from '@/api/template';
import { InfiniteMore } from '@/components/InfiniteMore';
import { toNodes } from '@/platform/templates/components/CategoryTreeSelect';
import { TemplateCard } from '@/platform/templates/components/TemplateCard';

/** The templates a start page may offer: those with a picture slot when it places a picture. */
export function offered(list: readonly TemplateSummary[], needsPicture: boolean): TemplateSummary[] {
  return needsPicture ? list.filter((t) => t.replacePicture > 0) : [...list];
}

export interface TemplateChooserProps {
  /** The size category the templates must have; absent: any size. */
  sizeCategoryId?: number;
  /** Offer only templates with a picture slot. */
  needsPicture?: boolean;
  value: TemplateSummary | null;
  onChange: (template: TemplateSummary) => void;
}

/** Approved templates by category (one category of the template tree, or all), a card each; one is chosen. */
export function TemplateChooser({ sizeCategoryId, needsPicture = false, value, onChange }: TemplateChooserProps) {
  const { t } = useTranslation();
  const [categoryId, setCategoryId] = useState<number | undefined>(undefined);
  const categories = useTaskVideoCategories();
  const categoryList = categories.data;
  const nodes = useMemo(() => toNodes(categoryList ?? []), [categoryList]);
  const filter = useMemo<TemplateFilter>(
    () => ({ ...(categoryId !== undefined ? { categoryId } : {}), ...(sizeCategoryId !== undefined ? { sizeCategoryIds: [sizeCategoryId] } : {}) }),
    [categoryId, sizeCategoryId],
  );
  const list = useTemplates(filter);
  const templates = useMemo(() => offered(list.data?.pages.flatMap((p) => p.list) ?? [], needsPicture), [list.data, needsPicture]);
  return (
    <div data-testid="template-chooser">
      <TreeSelect
        allowClear
        treeDefaultExpandAll
        loading={categories.isPending}
        placeholder={t('start.template.allCategories')}
        treeData={nodes}
        value={categoryId}
        onChange={(id?: number) => setCategoryId(id ?? undefined)}
        style={{ width: 280, marginBottom: 12 }}
        data-testid="start-category"
      />
      {list.isError ? <Typography.Text type="danger">{t('templates.loadFailed')}</Typography.Text> : null}
      <Spin spinning={list.isLoading}>
        {!list.isLoading && templates.length === 0 && !list.hasNextPage ? (
          <Empty description={t(needsPicture ? 'start.template.noneWithPicture' : 'start.template.none')} data-testid="start-no-template" />
        ) : (
          <Row gutter={[12, 12]}>
            {templates.map((tpl) => {
              const chosen = value?.id === tpl.id;
              return (
                <Col key={tpl.id} xs={24} sm={12} md={8} lg={6}>
                  <TemplateCard
                    template={tpl}
                    actions={[
                      <Button
                        key="choose"
                        type={chosen ? 'primary' : 'link'}
                        size="small"
                        icon={chosen ? <CheckOutlined /> : undefined}
                        onClick={() => onChange(tpl)}
                        data-testid={`choose-template-${tpl.id}`}
                      >
                        {chosen ? t('start.template.chosen') : t('start.template.choose')}
                      </Button>,
                    ]}
                  />
                </Col>
              );
            })}
          </Row>
        )}
        <InfiniteMore hasMore={!!list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />
      </Spin>
    </div>
  );
}
