import { Button, Result, Spin } from 'antd';
import { useEffect, useLayoutEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { errorText, toLoginPayload, useHandoff, type HandoffKind } from '@/api/user';
import { useAppDispatch } from '@/app/hooks';
import { saveHandoffBack } from './handoffBack';
import { loggedIn } from './userSlice';

/** Where each embedded entry continues after the hand-off. */
export const HANDOFF_NEXT: Record<HandoffKind, string> = {
  corp: '/diy',
  trading: '/diy',
  ivvr: '/diy',
  platform: '/diy',
};

/** Query parameters that carry the hand-off; they leave the address bar at once. */
const HANDOFF_PARAMS = ['handoff', 'back'] as const;

/** Returns the hash route without the hand-off parameters ('/corp-to-diy?x=1'). */
export function withoutHandoffParams(pathname: string, search: string): string {
  const params = new URLSearchParams(search);
  for (const name of HANDOFF_PARAMS) params.delete(name);
  const rest = params.toString();
  return `${pathname}${rest ? `?${rest}` : ''}`;
}

/** Replaces the address bar's hash route so the hand-off token is not kept in history. */
function scrubAddressBar(route: string): void {
  const { pathname, search } = window.location;
  window.history.replaceState(window.history.state, '', `${pathname}${search}#${route}`);
}

export interface HandoffPageProps {
  kind: HandoffKind;
}

/**
 * An embedded entry (/corp-to-diy …): takes `handoff` and `back` from the hash query, removes
 * them from the address bar, exchanges the host-signed token for a session and continues.
 */
export function HandoffPage({ kind }: HandoffPageProps) {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const dispatch = useAppDispatch();
  const exchange = useHandoff();
  const started = useRef(false);
  const [params] = useState(() => {
    const q = new URLSearchParams(search);
    return { handoff: q.get('handoff') ?? '', back: q.get('back') ?? '' };
  });

  useLayoutEffect(() => {
    if (new URLSearchParams(search).has('handoff') || new URLSearchParams(search).has('back')) {
      scrubAddressBar(withoutHandoffParams(pathname, search));
    }
  }, [pathname, search]);

  useEffect(() => {
    if (started.current || !params.handoff) return;
    started.current = true;
    exchange.mutate(
      { handoff: params.handoff, kind, back: params.back },
      {
        onSuccess: (answer) => {
          saveHandoffBack(answer.backUrl ?? '');
          dispatch(loggedIn(toLoginPayload(answer)));
          navigate(HANDOFF_NEXT[kind], { replace: true });
        },
      },
    );
  }, [dispatch, exchange, kind, navigate, params]);

  if (params.handoff && !exchange.isError) {
    return <Result icon={<Spin size="large" />} title={t('handoff.working')} data-testid="handoff-working" />;
  }
  return (
    <Result
      status="warning"
      data-testid="handoff-error"
      title={t('handoff.invalid')}
      subTitle={params.handoff ? errorText(exchange.error) : t('handoff.missing')}
      extra={
        <Link to="/login">
          <Button type="primary">{t('handoff.toLogin')}</Button>
        </Link>
      }
    />
  );
}
