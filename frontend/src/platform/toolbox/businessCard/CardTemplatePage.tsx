import { Button, Col, Row, Spin, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useTemplates, type TemplateFilter } from '@/api/template';
import { EmptyState } from '@/components/EmptyState';
import { InfiniteMore } from '@/components/InfiniteMore';
import { TemplateCard } from '@/platform/templates/components/TemplateCard';

const CARD_FILTER: TemplateFilter = { kind: 'businessCard' };

/** /tools/business-card/template: the approved business-card templates; choosing one opens the card maker. */
export function CardTemplatePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const list = useTemplates(CARD_FILTER);
  const items = useMemo(() => list.data?.pages.flatMap((p) => p.list) ?? [], [list.data]);
  let body;
  if (list.isError) body = <Typography.Text type="danger">{t('tpl.loadFailed')}</Typography.Text>;
  else if (!list.isPending && items.length === 0) body = <EmptyState />;
  else
    body = (
      <Spin spinning={list.isPending}>
        <Row gutter={[16, 16]}>
          {items.map((tpl) => (
            <Col key={tpl.id} xs={24} sm={12} lg={8}>
              <TemplateCard
                template={tpl}
                actions={[
                  <Button key="use" type="link" onClick={() => void navigate(`/tools/business-card/edit?templateId=${tpl.id}`)} data-testid={`card-use-${tpl.id}`}>
                    {t('card.useTemplate')}
                  </Button>,
                ]}
              />
            </Col>
          ))}
        </Row>
        <InfiniteMore hasMore={!!list.hasNextPage} loading={list.isFetchingNextPage} onMore={() => void list.fetchNextPage()} />
      </Spin>
    );
  return (
    <div data-testid="card-templates">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('card.chooseTitle')}
      </Typography.Title>
      {body}
    </div>
  );
}
