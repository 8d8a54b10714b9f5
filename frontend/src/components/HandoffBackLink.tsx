import { RollbackOutlined } from '@ant-design/icons';
import { Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppSelector } from '@/app/hooks';
import { loadHandoffBack } from '@/auth/handoffBack';

/**
 * 'Back to the host' while the session an embedding host handed over lasts; read again
 * whenever the session changes.
 */
export function HandoffBackLink() {
  const { t } = useTranslation();
  const token = useAppSelector((s) => s.user.token);
  const back = token ? loadHandoffBack() : null;
  if (!back) return null;
  return (
    <Button type="link" href={back} icon={<RollbackOutlined />} data-testid="handoff-back">
      {t('handoff.back')}
    </Button>
  );
}
