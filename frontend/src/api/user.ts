/** Sign-in calls of CONTRACT.md "Auth": send code, login, logout, hand-off. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { isRole } from '@/auth/roles';
import type { LoginPayload } from '@/auth/userSlice';
import { api } from './client';
import { ApiError } from './errors';
import { queryKeys } from './keys';

/** Answer of POST /user/sendCode. */
export interface SendCodeAnswer {
  resendAfterSeconds: number;
}

/** Answer of POST /user/login (and, plus `backUrl`, of POST /user/handoff). */
export interface LoginAnswer {
  token: string;
  userId: string | number;
  mobile: string | null;
  role: string;
  operatorLevel: number;
  tenant: string;
}

/** Embedding hosts that may hand a user over. */
export type HandoffKind = 'corp' | 'trading' | 'ivvr' | 'platform';

/** Answer of POST /user/handoff. */
export interface HandoffAnswer extends LoginAnswer {
  /** The host's back address when it is one of the variant's hosts, else ''. */
  backUrl: string;
}

/** Interval between two codes when the server does not say (issue 10: one code per 60 s). */
export const DEFAULT_RESEND_SECONDS = 60;

/** A solved proof-of-work challenge, sent with a code request past the address's threshold. */
export interface ChallengeProof {
  challenge: string;
  solution: string;
}

/** Asks for a verification code; failures are shown in place, so the client does not toast. */
export function sendCode(mail: string, proof?: ChallengeProof): Promise<SendCodeAnswer> {
  return api.post<SendCodeAnswer>('/user/sendCode', proof ? { mail, ...proof } : { mail }, { silent: true });
}

/** Signs in with mail and code; failures are shown in place. */
export function login(mail: string, code: string): Promise<LoginAnswer> {
  return api.post<LoginAnswer>('/user/login', { mail, code }, { silent: true });
}

/** Revokes the current token; an already expired one is no news, so no login-expired handling. */
export function logout(): Promise<void> {
  return api.post<void>('/user/logout', undefined, { silent: true, quietExpiry: true });
}

/** Exchanges a host-signed hand-off token for a session. */
export function handoff(body: { handoff: string; kind: HandoffKind; back: string }): Promise<HandoffAnswer> {
  return api.post<HandoffAnswer>('/user/handoff', body, { silent: true });
}

/** Returns what the store keeps of a login answer: operator level as role id, the server's role. */
export function toLoginPayload(answer: LoginAnswer): LoginPayload {
  return {
    id: String(answer.userId),
    token: answer.token,
    roleId: typeof answer.operatorLevel === 'number' ? answer.operatorLevel : null,
    ...(isRole(answer.role) ? { role: answer.role } : {}),
    mobile: answer.mobile || null,
  };
}

/** Answer of GET /user/me: the signed-in user as the auth service knows them now. */
export interface MeAnswer {
  userId: string;
  mobile: string;
  role: string;
  operatorLevel: number;
  tenant: string;
  /** A template manager approved an application of theirs (only /user/me reads it; the login answer says false). */
  serviceProvider: boolean;
}

/** Returns the signed-in user `userId` as the server knows them now; off while signed out. */
export function useMe(userId: string | null) {
  return useQuery({
    queryKey: queryKeys.user.me(userId ?? ''),
    queryFn: () => api.get<MeAnswer>('/user/me'),
    enabled: userId !== null,
  });
}

/** A sign-in refusal the page words itself (docs/auth.md): its stable `data.reason` and what comes with it. */
export type Refusal =
  | { reason: 'rate_limited'; retryAfterSeconds: number }
  | { reason: 'challenge_required' | 'challenge_failed'; challenge: { token: string; bits: number } };

/** Returns the refusal an answer carries in `data`, or null for other failures. */
export function refusalOf(err: unknown): Refusal | null {
  if (!(err instanceof ApiError) || typeof err.data !== 'object' || err.data === null) return null;
  const data = err.data as { reason?: unknown; challenge?: { token?: unknown; bits?: unknown } };
  const wait = retryAfterSeconds(err);
  if (data.reason === 'rate_limited' && wait !== null) return { reason: data.reason, retryAfterSeconds: wait };
  const { token, bits } = data.challenge ?? {};
  if ((data.reason === 'challenge_required' || data.reason === 'challenge_failed') && typeof token === 'string' && typeof bits === 'number') {
    return { reason: data.reason, challenge: { token, bits } };
  }
  return null;
}

/** Returns the wait a rate-limited answer names (`data.retryAfterSeconds`), or null. */
export function retryAfterSeconds(err: unknown): number | null {
  if (!(err instanceof ApiError) || typeof err.data !== 'object' || err.data === null) return null;
  const n = (err.data as { retryAfterSeconds?: unknown }).retryAfterSeconds;
  return typeof n === 'number' && n > 0 ? Math.ceil(n) : null;
}

/** Returns the text to show for a failed sign-in call: the server's message, else the client's. */
export function errorText(err: unknown): string {
  if (err instanceof ApiError) return err.desc || err.message;
  return err instanceof Error ? err.message : String(err);
}

/** Mutation for POST /user/sendCode, with the solved challenge when the last refusal asked for one. */
export function useSendCode() {
  return useMutation({ mutationFn: ({ mail, proof }: { mail: string; proof?: ChallengeProof }) => sendCode(mail, proof) });
}

/** Mutation for POST /user/login. */
export function useLogin() {
  return useMutation({ mutationFn: ({ mail, code }: { mail: string; code: string }) => login(mail, code) });
}

/** Mutation for POST /user/handoff. */
export function useHandoff() {
  return useMutation({ mutationFn: handoff });
}
