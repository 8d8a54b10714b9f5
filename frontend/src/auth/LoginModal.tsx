import { Modal, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LoginForm } from './LoginForm';

export interface LoginModalProps {
  open: boolean;
  onClose: () => void;
  onSuccess: () => void;
  /** Why the modal opened, shown above the form (for example 'login expired'). */
  reason?: string;
}

/** The sign-in form in a modal, so the user signs in where they are (root page, editor). */
export function LoginModal({ open, onClose, onSuccess, reason }: LoginModalProps) {
  const { t } = useTranslation();
  return (
    <Modal open={open} onCancel={onClose} footer={null} title={t('login.title')} destroyOnHidden width={420}>
      <div data-testid="login-modal">
      {reason ? (
        <Typography.Paragraph type="warning" data-testid="login-modal-reason">
          {reason}
        </Typography.Paragraph>
      ) : (
        <Typography.Paragraph type="secondary">{t('login.hint')}</Typography.Paragraph>
      )}
      <LoginForm onSuccess={onSuccess} />
      </div>
    </Modal>
  );
}
