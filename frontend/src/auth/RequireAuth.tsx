import { App, Result, Spin } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { LOGIN_EXPIRED_TOAST_KEY, SESSION_EXPIRY_DELAY_MS } from '@/api/client';
import { useAppSelector } from '@/app/hooks';
import type { Role } from './roles';
import { isLoggedIn } from './userSlice';

export interface RequireAuthProps {
  children: ReactNode;
  /** When set, the user's role must equal it. */
  role?: Role;
}

/** Returns true when the user may enter a route with these requirements. */
export function canEnter(loggedIn: boolean, userRole: Role | null, role: Role | undefined): boolean {
  return loggedIn && (role === undefined || userRole === role);
}

/**
 * Guards a route: without login, or with a different role, shows the login-expired message
 * and returns to the root after 3 s (spec platform §2).
 */
export function RequireAuth({ children, role }: RequireAuthProps) {
  const user = useAppSelector((s) => s.user);
  const allowed = canEnter(isLoggedIn(user), user.role, role);
  const { message } = App.useApp();
  const { t } = useTranslation();
  const navigate = useNavigate();

  useEffect(() => {
    if (allowed) return undefined;
    void message.open({ type: 'error', content: t('auth.loginExpired'), key: LOGIN_EXPIRED_TOAST_KEY });
    const timer = setTimeout(() => navigate('/', { replace: true }), SESSION_EXPIRY_DELAY_MS);
    return () => clearTimeout(timer);
  }, [allowed, message, navigate, t]);

  if (allowed) return children;
  return (
    <Result
      status="403"
      title={t('auth.loginExpired')}
      subTitle={t('auth.redirecting')}
      extra={<Spin />}
      data-testid="login-expired"
    />
  );
}
