import { Form, Input, Modal } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';

export interface NameModalProps {
  /** Shown when a title is given. */
  title: string | null;
  /** The name the field starts with. */
  initial?: string;
  /** Longest name, in characters. */
  maxLength: number;
  placeholder?: string;
  pending: boolean;
  onSubmit: (name: string) => void;
  onCancel: () => void;
}

/** A modal asking for one name (a category's, a material's), trimmed and required. */
export function NameModal({ title, initial = '', maxLength, placeholder, pending, onSubmit, onCancel }: NameModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ name: string }>();
  useEffect(() => {
    if (title !== null) form.setFieldsValue({ name: initial });
  }, [form, initial, title]);
  return (
    <Modal
      open={title !== null}
      title={title}
      okButtonProps={{ loading: pending, 'data-testid': 'name-ok' }}
      onOk={() => form.submit()}
      onCancel={onCancel}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false} onFinish={({ name }) => onSubmit(name.trim())}>
        <Form.Item name="name" rules={[{ required: true, whitespace: true, message: t('maintain.category.nameRequired') }]}>
          <Input autoFocus maxLength={maxLength} showCount placeholder={placeholder} data-testid="name-input" onPressEnter={() => form.submit()} />
        </Form.Item>
      </Form>
    </Modal>
  );
}
