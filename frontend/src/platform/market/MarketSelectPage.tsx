import { PlusOutlined, ShopOutlined, UnorderedListOutlined, UserAddOutlined } from '@ant-design/icons';
import { Button, Card, Col, Empty, Row, Segmented, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SERVICE_KINDS, useServices, type ServiceDto, type ServiceKind } from '@/api/market';
import { marketErrorText } from './marketErrors';
import { ServiceFacts, ServiceKindTag } from './MarketTags';
import { EMPLACEMENT_PATH, MY_SERVICE_PATH, NEW_SERVICE_PATH, servicePath } from './paths';
import { CoverBox } from './SampleMedia';
import { useServiceProvider } from './useServiceProvider';

const PAGE = { maxWidth: 1200, margin: '0 auto' } as const;

type KindChoice = ServiceKind | 'all';

/** Providers publish and keep their services; everyone else may become one; everyone finds their requests. */
function MarketLinks() {
  const { t } = useTranslation();
  const { provider, isPending } = useServiceProvider();
  if (isPending) return null;
  return provider ? (
    <Space wrap>
      <Link to={NEW_SERVICE_PATH} data-testid="market-new">
        <Button type="primary" icon={<PlusOutlined />}>
          {t('market.select.publish')}
        </Button>
      </Link>
      <Link to={MY_SERVICE_PATH} data-testid="market-mine">
        <Button icon={<UnorderedListOutlined />}>{t('market.select.mine')}</Button>
      </Link>
    </Space>
  ) : (
    <Space wrap>
      <Link to={MY_SERVICE_PATH} data-testid="market-my-requests">
        <Button icon={<UnorderedListOutlined />}>{t('market.select.myRequests')}</Button>
      </Link>
      <Link to={EMPLACEMENT_PATH} data-testid="market-become-provider">
        <Button icon={<UserAddOutlined />}>{t('market.select.becomeProvider')}</Button>
      </Link>
    </Space>
  );
}

function ServiceCard({ service }: { service: ServiceDto }) {
  return (
    <Link to={servicePath(service.id)} data-testid={`market-card-${service.id}`} style={{ display: 'block', height: '100%' }}>
      <Card hoverable style={{ height: '100%' }} cover={<CoverBox coverUrl={service.coverUrl} alt={service.title} testId={`market-card-cover-${service.id}`} />} styles={{ body: { padding: 14 } }}>
        <Space orientation="vertical" size={6} style={{ width: '100%' }}>
          <Space style={{ width: '100%', justifyContent: 'space-between' }} align="center">
            <Typography.Text strong ellipsis={{ tooltip: service.title }} style={{ maxWidth: 200 }} data-testid={`market-card-title-${service.id}`}>
              {service.title}
            </Typography.Text>
            <ServiceKindTag kind={service.kind} testId={`market-card-kind-${service.id}`} />
          </Space>
          <ServiceFacts service={service} suffix={`-${service.id}`} />
        </Space>
      </Card>
    </Link>
  );
}

/**
 * /qs/service/select, the service marketplace: the tenant's published services as cards, filtered by
 * kind; providers find their way to publish and keep services, others to become one.
 */
export function MarketSelectPage() {
  const { t } = useTranslation();
  const [kind, setKind] = useState<KindChoice>('all');
  const { data, isFetching, isError, error } = useServices(kind === 'all' ? null : kind);
  let body;
  if (isError)
    body = (
      <Typography.Text type="danger" data-testid="market-error">
        {marketErrorText(error)}
      </Typography.Text>
    );
  else if (data && data.length === 0)
    body = (
      <Empty
        image={<ShopOutlined style={{ fontSize: 48, color: '#bbb' }} />}
        description={kind === 'all' ? t('market.select.empty') : t('market.select.emptyKind', { kind: t(`market.kind.${kind}`) })}
        data-testid="market-empty"
      />
    );
  else
    body = (
      <Spin spinning={isFetching && !data}>
        <Row gutter={[16, 16]}>
          {(data ?? []).map((s) => (
            <Col key={s.id} xs={24} sm={12} md={8} lg={6}>
              <ServiceCard service={s} />
            </Col>
          ))}
        </Row>
      </Spin>
    );
  return (
    <div style={PAGE} data-testid="market-select">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('page.qsServiceSelect')}
        </Typography.Title>
        <MarketLinks />
      </Space>
      <Typography.Paragraph type="secondary">{t('market.select.intro')}</Typography.Paragraph>
      <Segmented<KindChoice>
        value={kind}
        onChange={setKind}
        options={(['all', ...SERVICE_KINDS] as const).map((k) => ({
          value: k,
          label: <span data-testid={`market-filter-${k}`}>{k === 'all' ? t('market.select.all') : t(`market.kind.${k}`)}</span>,
        }))}
        style={{ marginBottom: 16 }}
        data-testid="market-kind"
      />
      {body}
    </div>
  );
}
