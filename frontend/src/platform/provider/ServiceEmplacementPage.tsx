import { Alert, App, Button, Card, Form, Input, Result, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/api/errors';
import { APPLICATION_LIMITS, useApply, useMyApplications, type ApplicationForm, type ProviderApplication } from '@/api/provider';
import { ApplicationStateTag } from './ApplicationStateTag';

function History({ items }: { items: ProviderApplication[] }) {
  const { t } = useTranslation();
  return (
    <Card size="small" title={t('provider.history')} style={{ marginTop: 16 }}>
      <Space orientation="vertical" size={12} style={{ width: '100%' }}>
        {items.map((a) => (
          <div key={a.id} data-testid={`my-application-${a.id}`}>
            <Space>
              <Typography.Text strong>{a.name}</Typography.Text>
              <ApplicationStateTag state={a.state} testId={`my-application-state-${a.id}`} />
              <Typography.Text type="secondary">{a.createTime}</Typography.Text>
            </Space>
            {a.reason ? (
              <Typography.Paragraph type="danger" style={{ margin: '4px 0 0' }} data-testid={`my-application-reason-${a.id}`}>
                {t('provider.rejectedBecause', { reason: a.reason })}
              </Typography.Paragraph>
            ) : null}
          </div>
        ))}
      </Space>
    </Card>
  );
}

function ApplyForm() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<ApplicationForm>();
  const apply = useApply();
  const submit = async (values: ApplicationForm) => {
    try {
      await apply.mutateAsync(values);
      void message.success(t('provider.sent'));
      form.resetFields();
    } catch (err) {
      void message.error(errorText(err));
    }
  };
  const required = (field: string) => ({ required: true, whitespace: true, message: t('provider.required', { field: t(`provider.field.${field}`) }) });
  return (
    <Form form={form} layout="vertical" onFinish={(v) => void submit(v)} style={{ maxWidth: 640 }} data-testid="service-apply-form">
      <Form.Item name="name" label={t('provider.field.name')} rules={[required('name'), { max: APPLICATION_LIMITS.name }]}>
        <Input maxLength={APPLICATION_LIMITS.name} showCount placeholder={t('provider.placeholder.name')} data-testid="service-apply-name" />
      </Form.Item>
      <Form.Item name="contact" label={t('provider.field.contact')} rules={[required('contact'), { max: APPLICATION_LIMITS.contact }]}>
        <Input maxLength={APPLICATION_LIMITS.contact} placeholder={t('provider.placeholder.contact')} data-testid="service-apply-contact" />
      </Form.Item>
      <Form.Item name="intro" label={t('provider.field.intro')} rules={[required('intro'), { max: APPLICATION_LIMITS.intro }]}>
        <Input.TextArea maxLength={APPLICATION_LIMITS.intro} showCount autoSize={{ minRows: 4 }} placeholder={t('provider.placeholder.intro')} data-testid="service-apply-intro" />
      </Form.Item>
      <Button type="primary" htmlType="submit" loading={apply.isPending} data-testid="service-apply-submit">
        {t('provider.submit')}
      </Button>
    </Form>
  );
}

/**
 * /qs/service/emplacement: a user applies to become a service provider of the tenant; a template
 * manager decides (/manage/check-service). A pending application waits; a rejected one shows its
 * reason and the form again; an approved one makes the user a provider.
 */
export function ServiceEmplacementPage() {
  const { t } = useTranslation();
  const mine = useMyApplications();
  if (mine.isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (mine.isError) return <Typography.Text type="danger">{errorText(mine.error)}</Typography.Text>;
  const items = mine.data ?? [];
  const approved = items.some((a) => a.state === 'approved');
  const pending = items.find((a) => a.state === 'pending');
  return (
    <div style={{ maxWidth: 960, margin: '0 auto', padding: '24px 16px' }} data-testid="service-emplacement">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.qsServiceEmplacement')}
      </Typography.Title>
      {approved ? (
        <Result status="success" title={t('provider.youAreProvider')} subTitle={t('provider.youAreProviderHint')} data-testid="service-provider-yes" />
      ) : pending ? (
        <Alert type="info" showIcon title={t('provider.waiting')} description={t('provider.waitingHint', { time: pending.createTime })} data-testid="service-apply-waiting" />
      ) : (
        <>
          <Typography.Paragraph type="secondary">{t('provider.intro')}</Typography.Paragraph>
          <ApplyForm />
        </>
      )}
      {items.length > 0 ? <History items={items} /> : null}
    </div>
  );
}
