import { App, Space, Switch, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { usePublishService, type RequestState, type ServiceDto, type ServiceKind } from '@/api/market';
import { marketErrorText } from './marketErrors';

const KIND_COLOURS: Record<ServiceKind, string> = { template: 'geekblue', video: 'purple' };
const STATE_COLOURS: Record<RequestState, string> = { open: 'processing', withdrawn: 'default', declined: 'error', delivered: 'success' };

/** A service's kind as a coloured tag. */
export function ServiceKindTag({ kind, testId }: { kind: ServiceKind; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={KIND_COLOURS[kind]} data-testid={testId} data-kind={kind}>
      {t(`market.kind.${kind}`)}
    </Tag>
  );
}

/** A request's state as a coloured tag. */
export function RequestStateTag({ state, testId }: { state: RequestState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={STATE_COLOURS[state]} data-testid={testId} data-state={state}>
      {t(`market.requestState.${state}`)}
    </Tag>
  );
}

/** Price and delivery time of a service. */
export function ServiceFacts({ service, suffix = '' }: { service: ServiceDto; suffix?: string }) {
  const { t } = useTranslation();
  return (
    <Space wrap size={[16, 4]}>
      <Typography.Text strong style={{ color: '#d4380d' }} data-testid={`market-price${suffix}`}>
        {service.price || t('market.priceOpen')}
      </Typography.Text>
      <Typography.Text type="secondary" data-testid={`market-days${suffix}`}>
        {t('market.deliveryDays', { count: service.deliveryDays })}
      </Typography.Text>
    </Space>
  );
}

/** The provider's switch that publishes one of their services or takes it off the market. */
export function PublishSwitch({ service, testId }: { service: ServiceDto; testId: string }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const publish = usePublishService();
  const toggle = (published: boolean) =>
    publish.mutate(
      { id: service.id, published },
      {
        onSuccess: () => void message.success(published ? t('market.publishedDone') : t('market.unpublishedDone')),
        onError: (err) => void message.error(marketErrorText(err)),
      },
    );
  return (
    <Space size={6}>
      <Switch checked={service.published} loading={publish.isPending} onChange={toggle} data-testid={testId} aria-label={t('market.publish')} />
      <Typography.Text type={service.published ? undefined : 'secondary'}>{service.published ? t('market.published') : t('market.unpublished')}</Typography.Text>
    </Space>
  );
}
