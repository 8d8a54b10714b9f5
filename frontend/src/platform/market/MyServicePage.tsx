import { EditOutlined, PlusOutlined } from '@ant-design/icons';
import { App, Badge, Button, Empty, Space, Spin, Table, Tabs, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useMarketMine, useWithdrawRequest, type RequestDto, type ServiceDto } from '@/api/market';
import { DeclineModal, DeliverModal } from './AnswerModals';
import { marketErrorText } from './marketErrors';
import { PublishSwitch, RequestStateTag, ServiceKindTag } from './MarketTags';
import { deliveredWorkPath, editServicePath, EMPLACEMENT_PATH, MARKET_PATH, MY_SERVICE_TABS, NEW_SERVICE_PATH, servicePath, type MyServiceTab } from './paths';
import { useServiceProvider } from './useServiceProvider';

const PAGE = { maxWidth: 1200, margin: '0 auto' } as const;

function isTab(value: string | null): value is MyServiceTab {
  return (MY_SERVICE_TABS as readonly string[]).includes(value ?? '');
}

/** The note a requester wrote, kept to a few lines. */
function Note({ text }: { text: string }) {
  return (
    <Typography.Paragraph ellipsis={{ rows: 3, tooltip: text }} style={{ whiteSpace: 'pre-wrap', margin: 0, maxWidth: 420 }}>
      {text}
    </Typography.Paragraph>
  );
}

/** The provider's own services, any state. */
function ServicesTab({ services }: { services: ServiceDto[] }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<ServiceDto> = [
    {
      title: t('market.mine.service'),
      key: 'title',
      render: (_, s) => (
        <Link to={servicePath(s.id)} data-testid={`market-service-open-${s.id}`}>
          {s.title}
        </Link>
      ),
    },
    { title: t('market.mine.kind'), key: 'kind', width: 110, render: (_, s) => <ServiceKindTag kind={s.kind} /> },
    {
      title: t('market.mine.openRequests'),
      key: 'open',
      width: 110,
      render: (_, s) => <Badge count={s.openRequests} showZero color={s.openRequests > 0 ? 'orange' : '#d9d9d9'} data-testid={`market-open-count-${s.id}`} />,
    },
    { title: t('market.mine.state'), key: 'published', width: 150, render: (_, s) => <PublishSwitch service={s} testId={`market-publish-${s.id}`} /> },
    { title: t('market.mine.updated'), dataIndex: 'updateTime', width: 180 },
    {
      title: t('market.mine.actions'),
      key: 'actions',
      width: 100,
      render: (_, s) => (
        <Link to={editServicePath(s.id)} data-testid={`market-edit-${s.id}`}>
          <Button size="small" icon={<EditOutlined />}>
            {t('market.detail.edit')}
          </Button>
        </Link>
      ),
    },
  ];
  return (
    <>
      <Link to={NEW_SERVICE_PATH} data-testid="market-new">
        <Button type="primary" icon={<PlusOutlined />} style={{ marginBottom: 16 }}>
          {t('market.select.publish')}
        </Button>
      </Link>
      {services.length === 0 ? (
        <Empty description={t('market.mine.noServices')} data-testid="market-no-services" />
      ) : (
        <Table<ServiceDto>
          rowKey="id"
          columns={columns}
          dataSource={services}
          pagination={false}
          onRow={(s) => ({ 'data-testid': `market-service-${s.id}` }) as React.HTMLAttributes<HTMLElement>}
        />
      )}
    </>
  );
}

/** What became of a request: the decline's reason, or the delivered work (for its requester). */
function Outcome({ request, prefix }: { request: RequestDto; prefix: 'received' | 'sent' }) {
  const { t } = useTranslation();
  if (request.state === 'declined' && request.reason)
    return (
      <Typography.Text type="danger" data-testid={`market-${prefix}-reason-${request.id}`}>
        {t('market.request.declinedBecause', { reason: request.reason })}
      </Typography.Text>
    );
  if (request.state === 'delivered' && prefix === 'sent' && request.deliveredTaskId > 0)
    return (
      <Link to={deliveredWorkPath(request.deliveredTaskId)} data-testid={`market-delivered-${request.id}`}>
        {t('market.request.openDelivered')}
      </Link>
    );
  return null;
}

/** Requests to the provider's services: open ones are delivered or declined. */
function ReceivedTab({ received }: { received: RequestDto[] }) {
  const { t } = useTranslation();
  const [delivering, setDelivering] = useState<RequestDto | null>(null);
  const [declining, setDeclining] = useState<RequestDto | null>(null);
  const columns: TableColumnsType<RequestDto> = [
    { title: t('market.mine.service'), key: 'service', render: (_, r) => <Link to={servicePath(r.serviceId)}>{r.serviceTitle}</Link> },
    { title: t('market.mine.note'), key: 'note', render: (_, r) => <Note text={r.note} /> },
    { title: t('market.mine.created'), dataIndex: 'createTime', width: 170 },
    {
      title: t('market.mine.state'),
      key: 'state',
      width: 220,
      render: (_, r) => (
        <Space orientation="vertical" size={2}>
          <RequestStateTag state={r.state} testId={`market-received-state-${r.id}`} />
          <Outcome request={r} prefix="received" />
        </Space>
      ),
    },
    {
      title: t('market.mine.actions'),
      key: 'actions',
      width: 170,
      render: (_, r) =>
        r.state === 'open' ? (
          <Space>
            <Button size="small" type="primary" onClick={() => setDelivering(r)} data-testid={`market-deliver-${r.id}`}>
              {t('market.deliver.button')}
            </Button>
            <Button size="small" danger onClick={() => setDeclining(r)} data-testid={`market-decline-${r.id}`}>
              {t('market.decline.button')}
            </Button>
          </Space>
        ) : null,
    },
  ];
  return (
    <>
      {received.length === 0 ? (
        <Empty description={t('market.mine.noReceived')} data-testid="market-no-received" />
      ) : (
        <Table<RequestDto>
          rowKey="id"
          columns={columns}
          dataSource={received}
          pagination={{ pageSize: 20, hideOnSinglePage: true }}
          onRow={(r) => ({ 'data-testid': `market-received-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
        />
      )}
      <DeliverModal request={delivering} onClose={() => setDelivering(null)} />
      <DeclineModal request={declining} onClose={() => setDeclining(null)} />
    </>
  );
}

function WithdrawButton({ request }: { request: RequestDto }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const withdraw = useWithdrawRequest();
  const send = () =>
    withdraw.mutate(request.id, {
      onSuccess: () => void message.success(t('market.request.withdrawn')),
      onError: (err) => void message.error(marketErrorText(err)),
    });
  return (
    <Button size="small" danger loading={withdraw.isPending} onClick={send} data-testid={`market-withdraw-${request.id}`}>
      {t('market.request.withdraw')}
    </Button>
  );
}

/** The caller's own requests: their state, the delivered work or the decline's reason. */
function SentTab({ sent }: { sent: RequestDto[] }) {
  const { t } = useTranslation();
  const columns: TableColumnsType<RequestDto> = [
    { title: t('market.mine.service'), key: 'service', render: (_, r) => <Link to={servicePath(r.serviceId)}>{r.serviceTitle}</Link> },
    { title: t('market.mine.note'), key: 'note', render: (_, r) => <Note text={r.note} /> },
    { title: t('market.mine.created'), dataIndex: 'createTime', width: 170 },
    {
      title: t('market.mine.state'),
      key: 'state',
      width: 240,
      render: (_, r) => (
        <Space orientation="vertical" size={2}>
          <RequestStateTag state={r.state} testId={`market-sent-state-${r.id}`} />
          <Outcome request={r} prefix="sent" />
        </Space>
      ),
    },
    { title: t('market.mine.actions'), key: 'actions', width: 100, render: (_, r) => (r.state === 'open' ? <WithdrawButton request={r} /> : null) },
  ];
  if (sent.length === 0)
    return (
      <Empty
        description={
          <>
            {t('market.mine.noSent')} <Link to={MARKET_PATH}>{t('market.mine.browse')}</Link>
          </>
        }
        data-testid="market-no-sent"
      />
    );
  return (
    <Table<RequestDto>
      rowKey="id"
      columns={columns}
      dataSource={sent}
      pagination={{ pageSize: 20, hideOnSinglePage: true }}
      onRow={(r) => ({ 'data-testid': `market-sent-${r.id}` }) as React.HTMLAttributes<HTMLElement>}
    />
  );
}

/**
 * /qs/service/my-service: a provider's services and the requests to them (delivered with a rendered
 * work, or declined with a reason), and everyone's own requests. Providers start on the requests they
 * received, others on the ones they sent.
 */
export function MyServicePage() {
  const { t } = useTranslation();
  const [params, setParams] = useSearchParams();
  const who = useServiceProvider();
  const mine = useMarketMine();
  const header = (
    <Typography.Title level={3} style={{ marginTop: 0 }}>
      {t('page.qsMyService')}
    </Typography.Title>
  );
  if (who.isPending || mine.isPending) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (mine.isError || who.isError)
    return (
      <div style={PAGE}>
        {header}
        <Typography.Text type="danger" data-testid="market-error">
          {marketErrorText(mine.error ?? who.error)}
        </Typography.Text>
      </div>
    );
  const { services, received, sent } = mine.data;
  const tabs: MyServiceTab[] = who.provider ? ['services', 'received', 'sent'] : ['sent'];
  const asked = params.get('tab');
  const tab: MyServiceTab = isTab(asked) && tabs.includes(asked) ? asked : who.provider ? 'received' : 'sent';
  const openReceived = received.filter((r) => r.state === 'open').length;
  const label = (key: MyServiceTab) => (
    <span data-testid={`market-tab-${key}`}>
      {t(`market.mine.tab.${key}`)}
      {key === 'received' && openReceived > 0 ? <Badge count={openReceived} size="small" style={{ marginInlineStart: 6 }} /> : null}
    </span>
  );
  const content: Record<MyServiceTab, React.ReactNode> = {
    services: <ServicesTab services={services} />,
    received: <ReceivedTab received={received} />,
    sent: <SentTab sent={sent} />,
  };
  return (
    <div style={PAGE} data-testid="market-my-service">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        {header}
        <Link to={MARKET_PATH} data-testid="market-to-market">
          <Button>{t('page.qsServiceSelect')}</Button>
        </Link>
      </Space>
      {!who.provider ? (
        <Typography.Paragraph type="secondary" data-testid="market-not-provider-hint">
          {t('market.mine.notProvider')} <Link to={EMPLACEMENT_PATH}>{t('market.select.becomeProvider')}</Link>
        </Typography.Paragraph>
      ) : null}
      <Tabs activeKey={tab} onChange={(k) => setParams({ tab: k }, { replace: true })} items={tabs.map((key) => ({ key, label: label(key), children: content[key] }))} />
    </div>
  );
}
