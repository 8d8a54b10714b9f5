import { App, Result, Spin } from 'antd';
import { useEffect, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useLocation, useNavigate } from 'react-router';
import { LOGIN_EXPIRED_TOAST_KEY, SESSION_EXPIRY_DELAY_MS } from '@/api/client';
import { useAppSelector } from '@/app/hooks';
import { rootWithLogin } from './redirect';
import type { Role } from './roles';
import { isLoggedIn, type UserState } from './userSlice';

export interface RequireAuthProps {
  children: ReactNode;
  /** When set, the user's role must equal it. */
  role?: Role;
  /** When set, the user's operator level must equal it (0: administrators only). */
  level?: number;
}

/** What a route requires beyond login. */
export interface Requirement {
  role?: Role;
  level?: number;
}

/** Returns true when the user may enter a route with these requirements. */
export function canEnter(user: UserState, need: Requirement = {}): boolean {
  if (!isLoggedIn(user)) return false;
  if (need.role !== undefined && user.role !== need.role) return false;
  return need.level === undefined || user.roleId === need.level;
}

/**
 * Guards a route: without login, or with a different role or level, shows the login-expired
 * message and returns to the root after 3 s (spec platform §2), where the login modal opens.
 */
export function RequireAuth({ children, role, level }: RequireAuthProps) {
  const user = useAppSelector((s) => s.user);
  const allowed = canEnter(user, { role, level });
  const { pathname, search } = useLocation();
  const back = `${pathname}${search}`;
  const { message } = App.useApp();
  const { t } = useTranslation();
  const navigate = useNavigate();

  useEffect(() => {
    if (allowed) return undefined;
    void message.open({ type: 'error', content: t('auth.loginExpired'), key: LOGIN_EXPIRED_TOAST_KEY });
    const timer = setTimeout(() => navigate(rootWithLogin(back), { replace: true }), SESSION_EXPIRY_DELAY_MS);
    return () => clearTimeout(timer);
  }, [allowed, back, message, navigate, t]);

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
