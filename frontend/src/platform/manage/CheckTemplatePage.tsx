import { Button, Col, Pagination, Row, Segmented, Select, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Navigate, useNavigate, useParams } from 'react-router';
import { CHECK_STATES, TEMPLATE_KINDS, TEMPLATE_PAGE_SIZE, useCheckTemplates, type CheckState, type TemplateKind } from '@/api/template';
import { EmptyState } from '@/components/EmptyState';
import { AuditStateTag } from '@/platform/templates/components/AuditStateTag';
import { TemplateCard } from '@/platform/templates/components/TemplateCard';

function isCheckState(value: string | undefined): value is CheckState {
  return (CHECK_STATES as readonly string[]).includes(value ?? '');
}

function CheckList({ state }: { state: CheckState }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [kind, setKind] = useState<TemplateKind | undefined>(undefined);
  const [pageNum, setPageNum] = useState(1);
  const { data, isFetching, isError } = useCheckTemplates({ state, kind, pageNum, pageSize: TEMPLATE_PAGE_SIZE });
  const total = data?.total ?? 0;
  return (
    <>
      <Space wrap style={{ marginBottom: 16 }}>
        <Segmented
          value={state}
          onChange={(s) => void navigate(`/manage/check-template/${s}`)}
          options={CHECK_STATES.map((s) => ({ value: s, label: <span data-testid={`state-${s}`}>{t(`tpl.audit.${s}`)}</span> }))}
        />
        <Select
          allowClear
          placeholder={t('tpl.kindLabel')}
          value={kind}
          onChange={(k?: TemplateKind) => {
            setKind(k);
            setPageNum(1);
          }}
          options={TEMPLATE_KINDS.map((k) => ({ value: k, label: t(`tpl.kind.${k}`) }))}
          style={{ width: 160 }}
          data-testid="check-kind"
        />
      </Space>
      {isError ? (
        <Typography.Text type="danger">{t('tpl.loadFailed')}</Typography.Text>
      ) : !isFetching && total === 0 ? (
        <EmptyState />
      ) : (
        <Spin spinning={isFetching && !data}>
          <Row gutter={[16, 16]}>
            {(data?.list ?? []).map((tpl) => (
              <Col key={tpl.id} xs={24} sm={12} md={8} lg={6}>
                <TemplateCard
                  template={tpl}
                  extra={<AuditStateTag template={tpl} />}
                  actions={[
                    <Link key="detail" to={`/manage/check-template-detail/${tpl.id}`}>
                      <Button type="link" data-testid={`check-${tpl.id}`}>
                        {t('tpl.check')}
                      </Button>
                    </Link>,
                  ]}
                />
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
      )}
    </>
  );
}

/** /manage/check-template/:type: templates to check by audit state (pending, approved, rejected), with a kind filter. */
export function CheckTemplatePage() {
  const { t } = useTranslation();
  const { type } = useParams();
  if (!isCheckState(type)) return <Navigate to="/manage/check-template/pending" replace />;
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="check-template">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.checkTemplate')}
      </Typography.Title>
      <CheckList key={type} state={type} />
    </div>
  );
}
