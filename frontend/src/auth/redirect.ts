/** Where sign-in sends the user back to, and how the root is asked to open the login modal. */

/** Query flag on the root that opens the login modal. */
export const LOGIN_QUERY_FLAG = 'login';

/** Returns `value` when it is an in-app path (not protocol-relative, not the login page), else '/'. */
export function safeRedirect(value: string | null | undefined): string {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.startsWith('/\\')) return '/';
  if (value.startsWith('/?') || value === '/login' || value.startsWith('/login?')) return '/';
  return value;
}

/** Returns the root path that opens the login modal and then continues to `redirect`. */
export function rootWithLogin(redirect?: string | null): string {
  const params = new URLSearchParams({ [LOGIN_QUERY_FLAG]: '1' });
  const target = safeRedirect(redirect);
  if (target !== '/') params.set('redirect', target);
  return `/?${params.toString()}`;
}

/** Returns the in-app path of a hash URL ('#/a?b' → '/a?b'), '/' when empty. */
export function pathOfHash(hash: string): string {
  const path = hash.startsWith('#') ? hash.slice(1) : hash;
  return path.startsWith('/') ? path : '/';
}
