import { LockOutlined, MailOutlined } from '@ant-design/icons';
import { Button, Form, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DEFAULT_RESEND_SECONDS, errorText, retryAfterSeconds, toLoginPayload, useLogin, useSendCode } from '@/api/user';
import { useAppDispatch } from '@/app/hooks';
import { useCountdown } from './useCountdown';
import { loggedIn } from './userSlice';

/** Verification codes are six digits (issue 10). */
export const CODE_PATTERN = /^\d{6}$/;

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
 * wording never says whether an address has an account.
 */
export function LoginForm({ onSuccess }: LoginFormProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<Fields>();
  const dispatch = useAppDispatch();
  const countdown = useCountdown();
  const sendCode = useSendCode();
  const login = useLogin();
  const [sentTo, setSentTo] = useState<string | null>(null);

  const onSend = async () => {
    let mail: string;
    try {
      ({ mail } = await form.validateFields(['mail']));
    } catch {
      return;
    }
    setSentTo(null);
    try {
      const answer = await sendCode.mutateAsync(mail.trim());
      countdown.start(answer?.resendAfterSeconds ?? DEFAULT_RESEND_SECONDS);
      setSentTo(mail.trim());
    } catch (err) {
      const wait = retryAfterSeconds(err);
      if (wait !== null) countdown.start(wait);
      form.setFields([{ name: 'mail', errors: [errorText(err)] }]);
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

  const sendLabel = countdown.remaining > 0 ? t('login.resendIn', { seconds: countdown.remaining }) : t('login.sendCode');

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
          <Button onClick={() => void onSend()} disabled={countdown.remaining > 0} loading={sendCode.isPending} data-testid="send-code">
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
