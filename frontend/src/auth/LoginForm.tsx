import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { type ChallengeProof, DEFAULT_RESEND_SECONDS, errorText, refusalOf, toLoginPayload, useLogin, useSendCode } from '@/api/user';
import { useAppDispatch } from '@/app/hooks';
import { solveChallenge } from './pow';
import { useCountdown } from './useCountdown';
import { loggedIn } from './userSlice';

/** Verification codes are six digits (issue 10). */
export const CODE_PATTERN = /^\d{6}$/;

/** Challenges solved for one click: the first, and a fresh one if that expired on a slow device. */
const MAX_SOLVES = 2;

interface Fields {
  mail: string;
  code: string;
}

export interface LoginFormProps {
  /** Runs after the user is stored. */
  onSuccess?: () => void;
}

/**
 * Mail plus verification code sign-in. Errors appear under the field they concern; the
 * wording never says whether an address has an account. The page words the server's refusals
 * itself: a wait counts down on the resend button and under the mail field alike, and a
 * proof-of-work challenge (a busy shared address) is solved and the code asked for again.
 */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const dispatch = useAppDispatch();
  const countdown = useCountdown();
  const sendCode = useSendCode();
  const login = useLogin();
  const [sentTo, setSentTo] = useState<string | null>(null);
  const [limited, setLimited] = useState(false);
  const [solving, setSolving] = useState(false);
  const solver = useRef<AbortController | null>(null);

  useEffect(() => () => solver.current?.abort(), []);

  // A refused request's wait is the button's countdown, so the two never disagree.
  useEffect(() => {
    if (!limited) return;
    const left = countdown.remaining;
    form.setFields([{ name: 'mail', errors: left > 0 ? [t('auth.rateLimited', { seconds: left })] : [] }]);
    if (left === 0) setLimited(false);
  }, [limited, countdown.remaining, form, t]);

  const onSend = async () => {
    let mail: string;
    try {
      ({ mail } = await form.validateFields(['mail']));
    } catch {
      return;
    }
    mail = mail.trim();
    setSentTo(null);
    setLimited(false);
    solver.current?.abort();
    const abort = new AbortController();
    solver.current = abort;
    let proof: ChallengeProof | undefined;
    for (let solved = 0; ; solved++) {
      try {
        const answer = await sendCode.mutateAsync({ mail, proof });
        countdown.start(answer?.resendAfterSeconds ?? DEFAULT_RESEND_SECONDS);
        setSentTo(mail);
        return;
      } catch (err) {
        const refusal = refusalOf(err);
        if (refusal?.reason === 'rate_limited') {
          countdown.start(refusal.retryAfterSeconds);
          setLimited(true);
          return;
        }
        if (refusal && solved < MAX_SOLVES) {
          setSolving(true);
          try {
            const solution = await solveChallenge(refusal.challenge.token, refusal.challenge.bits, abort.signal);
            proof = { challenge: refusal.challenge.token, solution };
          } catch {
            return;
          } finally {
            if (!abort.signal.aborted) setSolving(false);
          }
          continue;
        }
        form.setFields([{ name: 'mail', errors: [refusal ? t('auth.challengeFailed') : errorText(err)] }]);
        return;
      }
    }
  };

  const onFinish = async ({ mail, code }: Fields) => {
    try {
      const answer = await login.mutateAsync({ mail: mail.trim(), code: code.trim() });
      dispatch(loggedIn(toLoginPayload(answer)));
      onSuccess?.();
    } catch (err) {
      form.setFields([{ name: 'code', errors: [errorText(err)] }]);
    }
  };

  const sendLabel = solving
    ? t('auth.solving')
    : countdown.remaining > 0
      ? t('login.resendIn', { seconds: countdown.remaining })
      : t('login.sendCode');

  return (
    <Form<Fields> form={form} layout="vertical" requiredMark={false} onFinish={onFinish} data-testid="login-form" autoComplete="on">
      <Form.Item
        name="mail"
        label={t('login.mail')}
        validateTrigger="onBlur"
        normalize={(value: string) => value.trim()}
        rules={[
          { required: true, whitespace: true, message: t('login.mailRequired') },
          { type: 'email', message: t('login.mailInvalid') },
        ]}
        extra={sentTo ? <span data-testid="code-sent">{t('login.codeSent', { mail: sentTo })}</span> : undefined}
      >
        <Input prefix={<MailOutlined />} placeholder={t('login.mailPlaceholder')} autoComplete="email" inputMode="email" data-testid="login-mail" />
      </Form.Item>
      <Form.Item label={t('login.code')} required>
        <Space.Compact style={{ width: '100%' }}>
          <Form.Item
            name="code"
            noStyle
            rules={[
              { required: true, message: t('login.codeRequired') },
              { pattern: CODE_PATTERN, message: t('login.codeInvalid') },
            ]}
          >
            <Input
              prefix={<LockOutlined />}
              placeholder={t('login.codePlaceholder')}
              maxLength={6}
              inputMode="numeric"
              autoComplete="one-time-code"
              data-testid="login-code"
            />
          </Form.Item>
          <Button onClick={() => void onSend()} disabled={countdown.remaining > 0} loading={sendCode.isPending || solving} data-testid="send-code">
            {sendLabel}
          </Button>
        </Space.Compact>
      </Form.Item>
      <Button type="primary" htmlType="submit" block loading={login.isPending} data-testid="login-submit">
        {t('login.submit')}
      </Button>
    </Form>
  );
}
