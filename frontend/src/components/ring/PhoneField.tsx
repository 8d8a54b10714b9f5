import { Alert, Button, Input, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { RingState, type PhoneAnswer } from '@/api/ring';
import { ApiError, errorText } from '@/api/errors';

/** What the server said of a number, in a word: may receive, not a mobile number, no service, or refused otherwise. */
export type PhoneVerdict = 'ok' | 'invalid' | 'notJoined' | 'refused';

/** Returns the verdict of an answer (or of a refusal's `data.reason`). */
export function phoneVerdict(answer: Pick<PhoneAnswer, 'allowed' | 'state' | 'reason'>): PhoneVerdict {
  if (answer.reason === 'phone_invalid') return 'invalid';
  if (answer.state === RingState.notJoin || answer.reason === 'phone_not_joined') return 'notJoined';
  return answer.allowed ? 'ok' : 'refused';
}

/** Returns the verdict of a failed ask: a refusal naming the number's fault, else null (the ask itself failed). */
export function verdictOfError(err: unknown): PhoneVerdict | null {
  if (!(err instanceof ApiError)) return null;
  const reason = (err.data as { reason?: unknown } | null | undefined)?.reason;
  if (reason === 'phone_invalid') return 'invalid';
  if (reason === 'phone_not_joined') return 'notJoined';
  return null;
}

export interface PhoneFieldProps {
  value?: string;
  onChange?: (value: string) => void;
  /** Asks the server about the number now. */
  onAsk: (phone: string) => void;
  asking: boolean;
  /** The server's verdict on the number last asked, or null before one. */
  verdict: PhoneVerdict | null;
  /** Why the ask failed, when it did. */
  askError: unknown;
}

/**
 * The number to set the ringtone for: asked of the server (ifdownloadbyphone) when the field is
 * left, on Enter or with the button; the server's verdict shows under it. No rule of the client
 * decides what a number is: the server does.
 */
export function PhoneField({ value, onChange, onAsk, asking, verdict, askError }: PhoneFieldProps) {
  const { t } = useTranslation();
  const type = verdict === 'ok' ? 'success' : verdict === 'notJoined' ? 'warning' : 'error';
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }}>
      <Space.Compact style={{ width: '100%' }}>
        <Input
          value={value}
          inputMode="tel"
          autoComplete="tel"
          placeholder={t('ring.phone.placeholder')}
          aria-label={t('ring.phone.label')}
          onChange={(e) => onChange?.(e.target.value)}
          onBlur={() => (value ?? '').trim() !== '' && onAsk(value ?? '')}
          onPressEnter={(e) => {
            e.preventDefault();
            onAsk(value ?? '');
          }}
          data-testid="ring-phone"
        />
        <Button loading={asking} disabled={(value ?? '').trim() === ''} onClick={() => onAsk(value ?? '')} data-testid="ring-phone-ask">
          {t('ring.phone.ask')}
        </Button>
      </Space.Compact>
      {verdict !== null && !asking ? <Alert type={type} showIcon title={t(`ring.phone.${verdict}`)} data-testid="ring-phone-answer" data-verdict={verdict} /> : null}
      {verdict === null && askError && !asking ? <Alert type="error" showIcon title={errorText(askError)} data-testid="ring-phone-answer" data-verdict="failed" /> : null}
    </Space>
  );
}
