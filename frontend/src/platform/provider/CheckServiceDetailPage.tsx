import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { App, Button, Descriptions, Result, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { errorText } from '@/api/errors';
import { useApplication, useDecideApplication } from '@/api/provider';
import { RejectModal } from '@/platform/manage/components/RejectModal';
import { ApplicationStateTag } from './ApplicationStateTag';

/** /manage/check-service-detail/:id: one application; a pending one is approved (its applicant becomes a provider) or rejected with a reason. */
export function CheckServiceDetailPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const id = Number(useParams().id);
  const { data: a, isLoading, isError, error } = useApplication(Number.isInteger(id) ? id : 0);
  const decide = useDecideApplication();
  const [rejecting, setRejecting] = useState(false);
  const send = async (approve: boolean, reason?: string) => {
    try {
      await decide.mutateAsync({ id, approve, reason });
      void message.success(t(approve ? 'provider.approvedDone' : 'provider.rejectedDone'));
      setRejecting(false);
    } catch (err) {
      void message.error(errorText(err));
    }
  };
  if (!Number.isInteger(id) || id <= 0) return <Result status="404" title={t('provider.notFound')} />;
  if (isLoading) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  if (isError || !a) return <Result status="warning" title={errorText(error)} extra={<Link to="/manage/check-service">{t('provider.back')}</Link>} />;
  return (
    <div style={{ maxWidth: 880, margin: '0 auto' }} data-testid="check-service-detail">
      <Space style={{ justifyContent: 'space-between', width: '100%', marginBottom: 12 }}>
        <Typography.Title level={3} style={{ margin: 0 }}>
          {t('page.checkServiceDetail')}
        </Typography.Title>
        <Link to={`/manage/check-service?state=${a.state}`}>{t('provider.back')}</Link>
      </Space>
      <Descriptions bordered column={1} size="middle">
        <Descriptions.Item label={t('provider.field.name')}>
          <span data-testid="service-detail-name">{a.name}</span>
        </Descriptions.Item>
        <Descriptions.Item label={t('provider.applicant')}>{a.userId}</Descriptions.Item>
        <Descriptions.Item label={t('provider.field.contact')}>{a.contact}</Descriptions.Item>
        <Descriptions.Item label={t('provider.field.intro')}>
          <Typography.Paragraph style={{ whiteSpace: 'pre-wrap', margin: 0 }}>{a.intro}</Typography.Paragraph>
        </Descriptions.Item>
        <Descriptions.Item label={t('provider.submitted')}>{a.createTime}</Descriptions.Item>
        <Descriptions.Item label={t('provider.stateTitle')}>
          <ApplicationStateTag state={a.state} testId="service-detail-state" />
        </Descriptions.Item>
        {a.state !== 'pending' ? (
          <Descriptions.Item label={t('provider.reviewed')}>{t('provider.reviewedBy', { who: a.reviewedBy, time: a.reviewTime })}</Descriptions.Item>
        ) : null}
        {a.reason ? <Descriptions.Item label={t('provider.reason')}>{a.reason}</Descriptions.Item> : null}
      </Descriptions>
      {a.state === 'pending' ? (
        <Space style={{ marginTop: 16 }}>
          <Button type="primary" icon={<CheckOutlined />} loading={decide.isPending} onClick={() => void send(true)} data-testid="service-approve">
            {t('provider.approve')}
          </Button>
          <Button danger icon={<CloseOutlined />} onClick={() => setRejecting(true)} data-testid="service-reject">
            {t('provider.reject')}
          </Button>
        </Space>
      ) : null}
      <RejectModal open={rejecting} pending={decide.isPending} onCancel={() => setRejecting(false)} onReject={(reason) => void send(false, reason)} />
    </div>
  );
}
