import { Alert, App, Button, Card, Form, Input, InputNumber, Radio, Result, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useNavigate, useSearchParams } from 'react-router';
import { errorText } from '@/api/errors';
import {
  DELIVERY_DAYS_MAX,
  DELIVERY_DAYS_MIN,
  MARKET_LIMITS,
  SERVICE_KINDS,
  useSaveService,
  useService,
  type ServiceDto,
  type ServiceKind,
  type ServiceSave,
} from '@/api/market';
import { BackLink } from '@/components/BackLink';
import { WorksPicker } from '@/components/task/WorksPicker';
import { marketErrorText } from './marketErrors';
import { EMPLACEMENT_PATH, idParam, MARKET_PATH, servicePath } from './paths';
import { useServiceProvider } from './useServiceProvider';

const PAGE = { maxWidth: 860, margin: '0 auto' } as const;

interface ServiceFormValues {
  title: string;
  kind: ServiceKind;
  description?: string;
  price?: string;
  deliveryDays: number | null;
}

/** The body of POST /market/service/save for the form's values: trimmed texts; no id for a new service. */
export function saveBody(values: ServiceFormValues, sampleTaskIds: number[], id: number | null): ServiceSave {
  return {
    ...(id !== null ? { id } : {}),
    title: values.title.trim(),
    kind: values.kind,
    description: (values.description ?? '').trim(),
    price: (values.price ?? '').trim(),
    deliveryDays: values.deliveryDays ?? 0,
    sampleTaskIds,
  };
}

function ServiceForm({ service }: { service: ServiceDto | null }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<ServiceFormValues>();
  const [samples, setSamples] = useState<number[]>(service?.sampleTaskIds ?? []);
  const save = useSaveService();
  const initial: ServiceFormValues = service
    ? { title: service.title, kind: service.kind, description: service.description, price: service.price, deliveryDays: service.deliveryDays }
    : { title: '', kind: 'video', description: '', price: '', deliveryDays: 7 };
  const submit = (values: ServiceFormValues) =>
    save.mutate(saveBody(values, samples, service?.id ?? null), {
      onSuccess: (saved) => {
        void message.success(service ? t('market.form.saved') : t('market.form.savedNew'));
        void navigate(servicePath(saved.id));
      },
    });
  const required = (field: string) => ({ required: true, whitespace: true, message: t('market.form.required', { field: t(`market.form.${field}`) }) });
  return (
    <Form form={form} layout="vertical" initialValues={initial} onFinish={submit} data-testid="market-form">
      <Form.Item name="title" label={t('market.form.title')} rules={[required('title'), { max: MARKET_LIMITS.title }]}>
        <Input maxLength={MARKET_LIMITS.title} showCount placeholder={t('market.form.titlePlaceholder')} data-testid="market-title-input" />
      </Form.Item>
      <Form.Item name="kind" label={t('market.form.kind')} rules={[{ required: true }]}>
        <Radio.Group>
          {SERVICE_KINDS.map((k) => (
            <Radio key={k} value={k} data-testid={`market-kind-${k}`}>
              {t(`market.kind.${k}`)}
            </Radio>
          ))}
        </Radio.Group>
      </Form.Item>
      <Form.Item name="description" label={t('market.form.description')} rules={[{ max: MARKET_LIMITS.description }]}>
        <Input.TextArea
          maxLength={MARKET_LIMITS.description}
          showCount
          autoSize={{ minRows: 4, maxRows: 12 }}
          placeholder={t('market.form.descriptionPlaceholder')}
          data-testid="market-description-input"
        />
      </Form.Item>
      <Form.Item name="price" label={t('market.form.price')} extra={t('market.form.priceHint')} rules={[{ max: MARKET_LIMITS.price }]}>
        <Input maxLength={MARKET_LIMITS.price} placeholder={t('market.form.pricePlaceholder')} data-testid="market-price-input" />
      </Form.Item>
      <Form.Item
        name="deliveryDays"
        label={t('market.form.deliveryDays')}
        rules={[{ required: true, type: 'integer', min: DELIVERY_DAYS_MIN, max: DELIVERY_DAYS_MAX, message: t('market.form.daysRange', { min: DELIVERY_DAYS_MIN, max: DELIVERY_DAYS_MAX }) }]}
      >
        <InputNumber min={DELIVERY_DAYS_MIN} max={DELIVERY_DAYS_MAX} precision={0} suffix={t('market.form.days')} style={{ width: 160 }} data-testid="market-days-input" />
      </Form.Item>
      <Form.Item label={t('market.form.samples')} extra={t('market.form.samplesHint', { max: MARKET_LIMITS.samples })}>
        <WorksPicker value={samples} onChange={setSamples} max={MARKET_LIMITS.samples} testId={(id) => `market-sample-pick-${id}`} />
      </Form.Item>
      {!service ? <Alert type="info" showIcon style={{ marginBottom: 16 }} title={t('market.form.unpublishedNote')} data-testid="market-new-note" /> : null}
      {save.isError ? <Alert type="error" showIcon style={{ marginBottom: 16 }} title={marketErrorText(save.error)} data-testid="market-save-error" /> : null}
      <Button type="primary" htmlType="submit" loading={save.isPending} data-testid="market-save">
        {t('market.form.save')}
      </Button>
    </Form>
  );
}

/** Editing: the service as saved, the provider's own only. */
function EditService({ id }: { id: number }) {
  const { t } = useTranslation();
  const { data, isPending, isError, error } = useService(id);
  if (isPending) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (isError) return <Result status="warning" title={marketErrorText(error)} data-testid="market-error" />;
  if (!data.service.mine) return <Result status="warning" title={t('market.form.notYours')} data-testid="market-error" />;
  return <ServiceForm key={id} service={data.service} />;
}

/**
 * /qs/service/new: a provider describes a service (title, kind, description, price, delivery time,
 * up to six of their rendered works as samples); `?id=N` edits one. A new service is saved
 * unpublished: the provider publishes it on its page. Others are told how to become a provider.
 */
export function ServiceFormPage() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const id = idParam(params.get('id'));
  const { provider, isPending, isError, error } = useServiceProvider();
  let body;
  if (isPending) body = <Spin style={{ display: 'block', margin: '80px auto' }} />;
  else if (isError) body = <Result status="warning" title={errorText(error)} data-testid="market-error" />;
  else if (!provider)
    body = (
      <Result
        status="info"
        title={t('market.form.notProvider')}
        subTitle={t('market.form.notProviderHint')}
        extra={
          <Link to={EMPLACEMENT_PATH} data-testid="market-to-emplacement">
            <Button type="primary">{t('market.select.becomeProvider')}</Button>
          </Link>
        }
        data-testid="market-not-provider"
      />
    );
  else body = <Card>{id === null ? <ServiceForm service={null} /> : <EditService id={id} />}</Card>;
  return (
    <div style={PAGE} data-testid="market-new-page">
      <BackLink to={id === null ? MARKET_PATH : servicePath(id)} testId="market-back">
        {id === null ? t('market.detail.back') : t('market.form.backToService')}
      </BackLink>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {id === null ? t('page.qsServiceNew') : t('market.form.editTitle')}
      </Typography.Title>
      {body}
    </div>
  );
}
