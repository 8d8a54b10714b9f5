import { Badge, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { useSystemInfo } from '@/api/system';

/** Shows the server's version from GET /system/info, or 'offline'. */
export function HealthIndicator() {
  const { t } = useTranslation();
  const { data, isPending, isError } = useSystemInfo();
  if (isPending) return <Badge status="processing" text={t('health.checking')} data-testid="health" />;
  if (isError || !data) return <Badge status="error" text={t('health.offline')} data-testid="health" />;
  return (
    <Tooltip title={t('health.mode', { mode: data.mode })}>
      <Badge status="success" text={t('health.online', { name: data.name, version: data.version })} data-testid="health" />
    </Tooltip>
  );
}
