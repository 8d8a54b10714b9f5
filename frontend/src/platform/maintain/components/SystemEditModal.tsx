import { App, Form, Input, Modal, Select } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import type { Material } from '@/api/material';
import { STYLE_IDS, SYSTEM_CATEGORIES, systemCategory, useUpdateSystemMaterials } from '@/api/maintain';
import { maintainErrorText } from '../maintainErrors';

interface EditFields {
  materialName: string;
  categoryId: number;
  styleId: number;
}

/** Edits a system material's name, category (among those listing its kind) and style. */
export function SystemEditModal({ material, onClose }: { material: Material | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<EditFields>();
  const update = useUpdateSystemMaterials();
  const categoryId = Form.useWatch('categoryId', form);
  useEffect(() => {
    if (material) form.setFieldsValue({ materialName: material.materialName, categoryId: material.categoryId, styleId: material.styleId });
  }, [form, material]);
  const sameKind = SYSTEM_CATEGORIES.filter((c) => c.type === material?.type);

  const submit = (fields: EditFields) => {
    if (!material) return;
    const backgrounds = systemCategory(fields.categoryId)?.type === 'backgrounds';
    update.mutate(
      { materialIds: [material.id], materialName: fields.materialName.trim(), categoryId: fields.categoryId, styleId: backgrounds ? fields.styleId : undefined },
      {
        onSuccess: () => {
          void message.success(t('maintain.material.saved'));
          onClose();
        },
        onError: (err) => void message.error(maintainErrorText(err)),
      },
    );
  };

  return (
    <Modal
      open={material !== null}
      title={material ? t('maintain.material.editTitle', { name: material.materialName }) : null}
      onOk={() => form.submit()}
      okButtonProps={{ loading: update.isPending, 'data-testid': 'edit-ok' }}
      onCancel={onClose}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item name="materialName" label={t('maintain.material.name')} rules={[{ required: true, whitespace: true, message: t('maintain.error.emptyName') }]}>
          <Input maxLength={255} data-testid="edit-name" />
        </Form.Item>
        <Form.Item name="categoryId" label={t('maintain.material.category')}>
          <Select options={sameKind.map((c) => ({ value: c.id, label: `${t(`maintain.material.categories.${c.key}`)} · ${c.id}` }))} />
        </Form.Item>
        {systemCategory(categoryId ?? 0)?.type === 'backgrounds' && (
          <Form.Item name="styleId" label={t('maintain.material.style')}>
            <Select
              options={[{ value: -1, label: t('maintain.material.noStyle') }, ...STYLE_IDS.map((s) => ({ value: s, label: t(`maintain.material.styles.${s}`) }))]}
            />
          </Form.Item>
        )}
      </Form>
    </Modal>
  );
}
