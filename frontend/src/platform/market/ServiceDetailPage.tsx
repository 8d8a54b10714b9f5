import { EditOutlined, SendOutlined } from '@ant-design/icons';
import { Alert, App, Button, Card, Col, Empty, Result, Row, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { usePublishService, useService, useWithdrawRequest, type RequestDto, type SampleDto, type ServiceDto } from '@/api/market';
import { BackLink } from '@/components/BackLink';
import { DetailFallback } from '@/components/DetailFallback';
import { marketErrorText } from './marketErrors';
import { PublishSwitch, RequestStateTag, ServiceFacts, ServiceKindTag } from './MarketTags';
import { deliveredWorkPath, editServicePath, idParam, MARKET_PATH } from './paths';
import { RequestModal } from './RequestModal';
import { SampleCover, SampleVideoModal } from './SampleMedia';

const PAGE = { maxWidth: 1200, margin: '0 auto' } as const;

/** The owner's way to put a saved, unpublished service on the market. */
function PublishNow({ service }: { service: ServiceDto }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const publish = usePublishService();
  const send = () =>
    publish.mutate(
      { id: service.id, published: true },
      { onSuccess: () => void message.success(t('market.publishedDone')), onError: (err) => void message.error(marketErrorText(err)) },
    );
  return (
    <Alert
      type="warning"
      showIcon
      style={{ marginBottom: 16 }}
      title={t('market.detail.unpublished')}
      description={t('market.detail.unpublishedHint')}
      action={
        <Button type="primary" loading={publish.isPending} onClick={send} data-testid="market-publish-now">
          {t('market.publish')}
        </Button>
      }
      data-testid="market-unpublished"
    />
  );
}

/** One of the caller's requests to this service, withdrawable while open. */
function MyRequest({ request }: { request: RequestDto }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const withdraw = useWithdrawRequest();
  const send = () =>
    withdraw.mutate(request.id, {
      onSuccess: () => void message.success(t('market.request.withdrawn')),
      onError: (err) => void message.error(marketErrorText(err)),
    });
  return (
    <div data-testid={`market-my-request-${request.id}`}>
      <Space wrap>
        <RequestStateTag state={request.state} testId={`market-request-state-${request.id}`} />
        <Typography.Text type="secondary">{request.createTime}</Typography.Text>
        {request.state === 'open' ? (
          <Button size="small" danger loading={withdraw.isPending} onClick={send} data-testid={`market-withdraw-${request.id}`}>
            {t('market.request.withdraw')}
          </Button>
        ) : null}
        {request.state === 'delivered' && request.deliveredTaskId > 0 ? (
          <Link to={deliveredWorkPath(request.deliveredTaskId)} data-testid={`market-delivered-${request.id}`}>
            {t('market.request.openDelivered')}
          </Link>
        ) : null}
      </Space>
      <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: '4px 0 0' }}>{request.note}</Typography.Paragraph>
      {request.state === 'declined' && request.reason ? (
        <Typography.Paragraph type="danger" style={{ margin: '4px 0 0' }} data-testid={`market-request-reason-${request.id}`}>
          {t('market.request.declinedBecause', { reason: request.reason })}
        </Typography.Paragraph>
      ) : null}
    </div>
  );
}

/** One service: what it offers, its samples, and a way to ask for it (or, for its provider, to keep it). */
function ServiceView({ id }: { id: number }) {
  const { t } = useTranslation();
  const { data, isPending, isError, error } = useService(id);
  const [requesting, setRequesting] = useState(false);
  const [playing, setPlaying] = useState<SampleDto | null>(null);
  const back = (
    <BackLink to={MARKET_PATH} testId="market-back">
      {t('market.detail.back')}
    </BackLink>
  );
  if (isPending || isError) return <DetailFallback refusal={isError ? marketErrorText(error) : null} back={back} style={PAGE} testId="market-error" />;
  const { service, samples, myRequests } = data;
  const hasOpen = myRequests.some((r) => r.state === 'open');
  return (
    <div style={PAGE} data-testid="market-detail">
      {back}
      {service.mine && !service.published ? <PublishNow service={service} /> : null}
      <Card style={{ marginBottom: 16 }}>
        <Space style={{ width: '100%', justifyContent: 'space-between' }} align="start" wrap>
          <Space align="center" wrap>
            <Typography.Title level={3} style={{ margin: 0 }} data-testid="market-title">
              {service.title}
            </Typography.Title>
            <ServiceKindTag kind={service.kind} testId="market-kind-tag" />
          </Space>
          {service.mine ? (
            <Space wrap>
              <PublishSwitch service={service} testId="market-publish" />
              <Link to={editServicePath(service.id)} data-testid="market-edit">
                <Button icon={<EditOutlined />}>{t('market.detail.edit')}</Button>
              </Link>
            </Space>
          ) : null}
        </Space>
        <div style={{ margin: '8px 0 16px' }}>
          <ServiceFacts service={service} />
        </div>
        {service.description ? (
          <>
            <Typography.Title level={5}>{t('market.detail.description')}</Typography.Title>
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }} data-testid="market-description">
              {service.description}
            </Typography.Paragraph>
          </>
        ) : null}
        {service.mine ? (
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }} data-testid="market-own">
            {t('market.detail.own', { count: service.openRequests })}
          </Typography.Paragraph>
        ) : hasOpen ? (
          <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }} data-testid="market-request-waiting">
            {t('market.detail.waiting')}
          </Typography.Paragraph>
        ) : (
          <Button type="primary" icon={<SendOutlined />} onClick={() => setRequesting(true)} data-testid="market-request">
            {t('market.detail.request')}
          </Button>
        )}
      </Card>
      <Card title={t('market.detail.samples', { count: samples.length })} style={{ marginBottom: 16 }} data-testid="market-samples">
        {samples.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('market.detail.noSamples')} />
        ) : (
          <Row gutter={[16, 16]}>
            {samples.map((s) => (
              <Col key={s.taskId} xs={24} sm={12} md={8} lg={6}>
                <SampleCover sample={s} onPlay={setPlaying} />
                <Typography.Text ellipsis={{ tooltip: s.name }} style={{ display: 'block', marginTop: 6 }}>
                  {s.name}
                </Typography.Text>
              </Col>
            ))}
          </Row>
        )}
      </Card>
      {myRequests.length > 0 ? (
        <Card title={t('market.detail.myRequests')} data-testid="market-my-requests">
          <Space orientation="vertical" size={16} style={{ width: '100%' }}>
            {myRequests.map((r) => (
              <MyRequest key={r.id} request={r} />
            ))}
          </Space>
        </Card>
      ) : null}
      {!service.mine ? <RequestModal service={service} open={requesting} onClose={() => setRequesting(false)} /> : null}
      <SampleVideoModal sample={playing} onClose={() => setPlaying(null)} />
    </div>
  );
}

/** /qs/service/detail/:id: one service of the marketplace. */
export function ServiceDetailPage() {
  const { t } = useTranslation();
  const id = idParam(useParams().id);
  if (id === null)
    return (
      <div style={PAGE}>
        <Result status="warning" title={t('market.error.serviceGone')} data-testid="market-error" />
      </div>
    );
  return <ServiceView key={id} id={id} />;
}
