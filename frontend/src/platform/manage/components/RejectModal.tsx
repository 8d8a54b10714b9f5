import { Form, Input, Modal } from 'antd';
import { useTranslation } from 'react-i18next';

export interface RejectModalProps {
  open: boolean;
  pending: boolean;
  onCancel: () => void;
  onReject: (reason: string) => void;
}

/** Asks for the reason of a rejection; the reason is required (the creator sees it in /mytemring). */
export function RejectModal({ open, pending, onCancel, onReject }: RejectModalProps) {
  const { t } = useTranslation();
  const [form] = Form.useForm<{ reason: string }>();
  const onOk = async () => {
    const values = await form.validateFields().catch(() => null);
    if (values) onReject(values.reason.trim());
  };
  return (
    <Modal
      open={open}
      title={t('tpl.rejectTitle')}
      onCancel={onCancel}
      onOk={() => void onOk()}
      okText={t('tpl.reject')}
      okButtonProps={{ danger: true, loading: pending, 'data-testid': 'reject-ok' }}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" preserve={false}>
        <Form.Item name="reason" label={t('tpl.rejectReason')} rules={[{ required: true, whitespace: true, message: t('tpl.reasonRequired') }, { max: 200 }]}>
          <Input.TextArea autoSize={{ minRows: 3 }} data-testid="reject-reason" />
        </Form.Item>
      </Form>
    </Modal>
  );
}
