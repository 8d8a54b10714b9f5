import { Card, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { LoginForm } from './LoginForm';
import { safeRedirect } from './redirect';

/** The /login page: the sign-in form, then the `redirect` target or home. */
export function LoginPage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [params] = useSearchParams();
  const target = safeRedirect(params.get('redirect'));
  return (
    <div style={{ display: 'flex', justifyContent: 'center', padding: '48px 16px' }} data-testid="login-page">
      <Card style={{ width: '100%', maxWidth: 420 }}>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('login.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary">{t('login.hint')}</Typography.Paragraph>
        <LoginForm onSuccess={() => navigate(target, { replace: true })} />
      </Card>
    </div>
  );
}
