import { useTranslation } from 'react-i18next';
import { useNavigate, useSearchParams } from 'react-router';
import { useAppSelector } from '@/app/hooks';
import { LoginModal } from './LoginModal';
import { LOGIN_QUERY_FLAG, safeRedirect } from './redirect';
import { isLoggedIn } from './userSlice';

/**
 * Opens the login modal on the root page when a guard or an expired session sent the user
 * there (`?login=1`); after sign-in continues to `redirect`, on close stays on the root.
 */
export function RootLoginModal() {
  const { t } = useTranslation();
  const [params] = useSearchParams();
  const navigate = useNavigate();
  const signedIn = useAppSelector((s) => isLoggedIn(s.user));
  const open = params.get(LOGIN_QUERY_FLAG) === '1' && !signedIn;
  const target = safeRedirect(params.get('redirect'));
  return (
    <LoginModal
      open={open}
      reason={t('auth.loginExpired')}
      onClose={() => navigate('/', { replace: true })}
      onSuccess={() => navigate(target, { replace: true })}
    />
  );
}
