import { Alert } from 'antd';
import { ApiError, errorText } from '@/api/errors';
import type { RingViolation } from '@/api/ring';
import { ViolationList } from './ViolationList';

/** The violations a `profile_violation` refusal names (`data.violations`), or none. */
function violationsOf(err: unknown): RingViolation[] {
  if (!(err instanceof ApiError)) return [];
  const data = err.data as { reason?: unknown; violations?: unknown } | null | undefined;
  return data?.reason === 'profile_violation' && Array.isArray(data.violations) ? (data.violations as RingViolation[]) : [];
}

/** Why the order was refused, in words (the refusal's `data.reason`), with the broken rules of a profile violation. */
export function SubmitError({ error }: { error: unknown }) {
  const violations = violationsOf(error);
  return (
    <Alert
      type="error"
      showIcon
      style={{ marginBottom: 12 }}
      title={errorText(error)}
      description={violations.length > 0 ? <ViolationList report={{ conforms: false, violations }} testId="ring-submit-violations" /> : undefined}
      data-testid="ring-submit-error"
    />
  );
}
