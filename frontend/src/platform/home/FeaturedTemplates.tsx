import { Button, Col, Row, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useTemplates, type TemplateSummary } from '@/api/template';
import { EmptyState } from '@/components/EmptyState';
import { TemplateCard } from '@/platform/templates/components/TemplateCard';
import { FillTemplateDrawer } from '@/platform/templates/FillTemplateDrawer';
import { HomeSection } from './HomeSection';

/** No filter: every approved template, the template list's own order (last changed, so last approved, first). */
const NEWEST = {};

export interface FeaturedTemplatesProps {
  /** How many templates are shown. */
  limit?: number;
  /** Where 'all templates' leads. */
  moreTo: string;
}

/**
 * 'Start from a template': the newest approved templates of the tenant; 'use' opens the slot filling
 * drawer of the template page. The first page is the template page's own unfiltered query.
 */
export function FeaturedTemplates({ limit = 4, moreTo }: FeaturedTemplatesProps) {
  const { t } = useTranslation();
  const list = useTemplates(NEWEST);
  const [using, setUsing] = useState<TemplateSummary | null>(null);
  const templates = (list.data?.pages[0]?.list ?? []).slice(0, limit);
  let body;
  if (list.isPending) body = <Skeleton active paragraph={{ rows: 3 }} />;
  else if (list.isError) body = <Typography.Text type="danger">{t('tpl.loadFailed')}</Typography.Text>;
  else if (templates.length === 0) body = <EmptyState />;
  else
    body = (
      <Row gutter={[16, 16]}>
        {templates.map((tpl) => (
          <Col key={tpl.id} xs={24} sm={12} lg={6}>
            <TemplateCard
              template={tpl}
              actions={[
                <Button key="use" type="link" onClick={() => setUsing(tpl)} data-testid={`featured-use-${tpl.id}`}>
                  {t('tpl.use')}
                </Button>,
              ]}
            />
          </Col>
        ))}
      </Row>
    );
  return (
    <HomeSection
      title={t('portal.featured.title')}
      testId="featured-templates"
      extra={
        <Link to={moreTo}>
          <Button type="link">{t('portal.featured.more')}</Button>
        </Link>
      }
    >
      {body}
      <FillTemplateDrawer template={using} onClose={() => setUsing(null)} />
    </HomeSection>
  );
}
