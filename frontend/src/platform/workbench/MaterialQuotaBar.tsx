import { Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMaterialQuota } from '@/api/materialQuota';
import { quotaPercent, quotaUsageText } from '@/api/quotaUsage';

/** The caller's storage and material count against their quota: a small bar and "已用 … / … · n / m 个素材". */
export function MaterialQuotaBar() {
  const { t } = useTranslation();
  const quota = useMaterialQuota();
  if (!quota.data) return null;
  const percent = quotaPercent(quota.data);
  const status = percent >= 100 ? 'exception' : 'normal';
  return (
    <Space size="small" data-testid="material-quota" aria-label={t('material.quota.label')}>
      <Progress percent={percent} size="small" status={status} showInfo={false} style={{ width: 120, margin: 0 }} />
      <Typography.Text type={percent >= 90 ? 'warning' : 'secondary'} data-testid="material-quota-text">
        {quotaUsageText(quota.data)}
      </Typography.Text>
    </Space>
  );
}
