import { Input, Modal } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { DIALOG_WIDTH } from './dialogWidth';

export interface RenameModalProps {
  /** The current name; the modal is open while it is not null. */
  name: string | null;
  onCancel: () => void;
  onSubmit: (name: string) => void;
  pending?: boolean;
}

/** Asks for a new name; an empty or unchanged name cannot be submitted. */
export function RenameModal({ name, onCancel, onSubmit, pending = false }: RenameModalProps) {
  const { t } = useTranslation();
  const [value, setValue] = useState('');
  useEffect(() => setValue(name ?? ''), [name]);
  const trimmed = value.trim();
  const submit = () => {
    if (trimmed !== '' && trimmed !== name) onSubmit(trimmed);
  };
  return (
    <Modal
      open={name !== null}
      title={t('rename.title')}
      width={DIALOG_WIDTH}
      okText={t('rename.ok')}
      cancelText={t('rename.cancel')}
      onCancel={onCancel}
      onOk={submit}
      okButtonProps={{ disabled: trimmed === '' || trimmed === name, loading: pending, 'data-testid': 'rename-ok' }}
      destroyOnHidden
    >
      <Input value={value} maxLength={100} onChange={(e) => setValue(e.target.value)} onPressEnter={submit} aria-label={t('rename.label')} data-testid="rename-input" autoFocus />
    </Modal>
  );
}
