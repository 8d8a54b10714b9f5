import { Button, Segmented, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { errorText } from '@/api/errors';
import { APPLICATION_STATES, APPLICATIONS_PAGE_SIZE, isApplicationState, useApplicationQueue, type ApplicationState, type ProviderApplication } from '@/api/provider';
import { EmptyState } from '@/components/EmptyState';
import { ApplicationStateTag } from './ApplicationStateTag';

function Queue({ state }: { state: ApplicationState }) {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const { data, isFetching, isError, error } = useApplicationQueue(state, pageNum);
  const columns: TableColumnsType<ProviderApplication> = [
    {
      title: t('provider.field.name'),
      dataIndex: 'name',
      key: 'name',
      render: (name: string, a) => (
        <Link to={`/manage/check-service-detail/${a.id}`} data-testid={`service-open-${a.id}`}>
          {name}
        </Link>
      ),
    },
    { title: t('provider.applicant'), dataIndex: 'userId', key: 'user' },
    { title: t('provider.field.contact'), dataIndex: 'contact', key: 'contact' },
    { title: t('provider.submitted'), dataIndex: 'createTime', key: 'created' },
    ...(state === 'pending' ? [] : [{ title: t('provider.reviewed'), dataIndex: 'reviewTime', key: 'reviewed' }]),
    { title: t('provider.stateTitle'), key: 'state', render: (_: unknown, a: ProviderApplication) => <ApplicationStateTag state={a.state} /> },
    {
      title: t('provider.actions'),
      key: 'actions',
      render: (_, a) => (
        <Link to={`/manage/check-service-detail/${a.id}`}>
          <Button size="small" type={state === 'pending' ? 'primary' : 'default'}>
            {t(state === 'pending' ? 'provider.review' : 'provider.view')}
          </Button>
        </Link>
      ),
    },
  ];
  if (isError) return <Typography.Text type="danger">{errorText(error)}</Typography.Text>;
  const rows = data?.list ?? [];
  if (!isFetching && rows.length === 0) return <EmptyState />;
  return (
    <Table<ProviderApplication>
      rowKey="id"
      loading={isFetching && !data}
      columns={columns}
      dataSource={rows}
      onRow={(a) => ({ 'data-testid': `service-row-${a.id}` }) as React.HTMLAttributes<HTMLElement>}
      pagination={{ current: pageNum, pageSize: APPLICATIONS_PAGE_SIZE, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNum }}
    />
  );
}

/** /manage/check-service: the tenant's service-provider applications by state; each opens its review. */
export function CheckServicePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const asked = params.get('state');
  const state: ApplicationState = isApplicationState(asked) ? asked : 'pending';
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="check-service">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.checkService')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('provider.queueIntro')}</Typography.Paragraph>
      <Segmented
        style={{ marginBottom: 16 }}
        value={state}
        onChange={(s) => setParams({ state: String(s) })}
        options={APPLICATION_STATES.map((s) => ({ value: s, label: <span data-testid={`service-state-${s}`}>{t(`provider.state.${s}`)}</span> }))}
      />
      <Queue key={state} state={state} />
    </div>
  );
}
