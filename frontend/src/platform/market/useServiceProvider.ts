import { useMe } from '@/api/user';
import { useAppSelector } from '@/app/hooks';

/**
 * Whether the signed-in user is a service provider of the tenant: only GET /user/me says so (the login
 * answer does not), so it is asked each time a marketplace page needs it.
 */
export function useServiceProvider() {
  const userId = useAppSelector((s) => s.user.id);
  const me = useMe(userId);
  return { provider: me.data?.serviceProvider === true, isPending: me.isPending, isError: me.isError, error: me.error };
}
