import { Col, Pagination, Row, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TEMPLATE_PAGE_SIZE, useMyTemplates } from '@/api/template';
import { EmptyState } from '@/components/EmptyState';
import { AuditStateTag } from './components/AuditStateTag';
import { TemplateCard } from './components/TemplateCard';

/** /mytemring: the templates the caller submitted, in any audit state, with the rejection reason. */
export function MyTemplatesPage() {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const { data, isFetching, isError } = useMyTemplates(pageNum);
  const total = data?.total ?? 0;
  let body;
  if (isError) body = <Typography.Text type="danger">{t('tpl.loadFailed')}</Typography.Text>;
  else if (!isFetching && total === 0) body = <EmptyState createPath="/my-works" />;
  else
    body = (
      <Spin spinning={isFetching && !data}>
        <Row gutter={[16, 16]}>
          {(data?.list ?? []).map((tpl) => (
            <Col key={tpl.id} xs={24} sm={12} md={8} lg={6}>
              <TemplateCard template={tpl} extra={<AuditStateTag template={tpl} />} />
            </Col>
          ))}
        </Row>
        <Pagination
          style={{ marginTop: 16, justifyContent: 'flex-end' }}
          current={pageNum}
          pageSize={TEMPLATE_PAGE_SIZE}
          total={total}
          showSizeChanger={false}
          showTotal={(n) => t('tpl.total', { total: n })}
          onChange={setPageNum}
        />
      </Spin>
    );
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="my-templates">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.mytemring')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('tpl.mineHint')}</Typography.Paragraph>
      {body}
    </div>
  );
}
