import { App, Form, Modal, Select } from 'antd';
import { useTranslation } from 'react-i18next';
import { TEMPLATE_KINDS, useSubmitTemplate, type TemplateKind } from '@/api/template';
import type { TaskSummary } from '@/api/videoTask';
import { CategoryTreeSelect } from './CategoryTreeSelect';

export interface SubmitTemplateModalProps {
  /** The work offered as a template; null keeps the modal closed. */
  task: TaskSummary | null;
  onClose: () => void;
}

interface SubmitValues {
  kind: TemplateKind;
  categoryIds?: number[];
}

/** 'Submit as template': the kind and categories of one of the caller's works → POST /template/submit (pending audit). */
export function SubmitTemplateModal({ task, onClose }: SubmitTemplateModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<SubmitValues>();
  const submit = useSubmitTemplate();
  const onOk = async () => {
    const values = await form.validateFields().catch(() => null);
    if (!values || !task) return;
    submit.mutate(
      {
        taskId: task.id,
        kind: values.kind,
        categoryIds: values.categoryIds ?? [],
        ...(task.sizeCategoryId ? { sizeCategoryId: task.sizeCategoryId } : {}),
      },
      {
        onSuccess: () => {
          void message.success(t('tpl.submitted'));
          onClose();
        },
      },
    );
  };
  return (
    <Modal
      open={task !== null}
      title={t('tpl.submitTitle', { name: task?.taskName ?? '' })}
      onCancel={onClose}
      onOk={() => void onOk()}
      okText={t('tpl.submit')}
      okButtonProps={{ loading: submit.isPending, 'data-testid': 'submit-ok' }}
      destroyOnHidden
      data-testid="submit-modal"
    >
      <Form form={form} layout="vertical" initialValues={{ kind: 'classic', categoryIds: [] }} preserve={false}>
        <Form.Item name="kind" label={t('tpl.kindLabel')} rules={[{ required: true }]}>
          <Select options={TEMPLATE_KINDS.map((k) => ({ value: k, label: t(`tpl.kind.${k}`) }))} data-testid="submit-kind" />
        </Form.Item>
        <Form.Item name="categoryIds" label={t('tpl.categoriesLabel')}>
          <CategoryTreeSelect />
        </Form.Item>
      </Form>
    </Modal>
  );
}
