import { UploadOutlined } from '@ant-design/icons';
import { App, Button, Form, Input, Modal, Progress, Select, Typography, Upload } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { STYLE_IDS, SYSTEM_CATEGORIES, systemCategory, useUploadSystemMaterial } from '@/api/maintain';
import { maintainErrorText } from '../maintainErrors';

interface UploadFields {
  categoryId: number;
  styleId?: number;
  materialName?: string;
}

/** Whether a category's materials carry a background style class. */
const styled = (categoryId: number | undefined) => systemCategory(categoryId ?? 0)?.type === 'backgrounds';

/** The upload of one system material into a starter category, with its progress. */
export function SystemUploadModal({ open, onClose }: { open: boolean; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [form] = Form.useForm<UploadFields>();
  const categoryId = Form.useWatch('categoryId', form);
  const [file, setFile] = useState<File | null>(null);
  const [percent, setPercent] = useState<number | null>(null);
  const [fileMissing, setFileMissing] = useState(false);
  const upload = useUploadSystemMaterial();
  const accept = systemCategory(categoryId ?? 0)?.accept;

  const close = () => {
    setFile(null);
    setPercent(null);
    setFileMissing(false);
    form.resetFields();
    onClose();
  };

  const submit = (fields: UploadFields) => {
    if (!file) {
      setFileMissing(true);
      return;
    }
    setPercent(0);
    upload.mutate(
      { file, categoryId: fields.categoryId, styleId: styled(fields.categoryId) ? fields.styleId : undefined, materialName: fields.materialName, onProgress: setPercent },
      {
        onSuccess: () => {
          void message.success(t('maintain.material.uploaded'));
          close();
        },
        onError: (err) => {
          setPercent(null);
          void message.error(maintainErrorText(err));
        },
      },
    );
  };

  return (
    <Modal
      open={open}
      title={t('maintain.material.uploadTitle')}
      onOk={() => form.submit()}
      okButtonProps={{ loading: upload.isPending, 'data-testid': 'upload-ok' }}
      onCancel={close}
      destroyOnHidden
    >
      <Form form={form} layout="vertical" onFinish={submit} preserve={false}>
        <Form.Item name="categoryId" label={t('maintain.material.category')} rules={[{ required: true, message: t('maintain.error.categoryRequired') }]}>
          <Select
            data-testid="upload-category"
            options={SYSTEM_CATEGORIES.map((c) => ({ value: c.id, label: `${t(`maintain.material.categories.${c.key}`)} · ${c.id}` }))}
            onChange={() => setFile(null)}
          />
        </Form.Item>
        {styled(categoryId) && (
          <Form.Item name="styleId" label={t('maintain.material.style')}>
            <Select allowClear placeholder={t('maintain.material.noStyle')} options={STYLE_IDS.map((s) => ({ value: s, label: t(`maintain.material.styles.${s}`) }))} />
          </Form.Item>
        )}
        <Form.Item name="materialName" label={t('maintain.material.name')}>
          <Input maxLength={255} placeholder={t('maintain.material.namePlaceholder')} data-testid="upload-name" />
        </Form.Item>
        <Form.Item
          label={t('maintain.material.file')}
          required
          validateStatus={fileMissing ? 'error' : undefined}
          help={fileMissing ? t('maintain.material.fileRequired') : accept ? t('maintain.material.accepts', { formats: accept.replaceAll('.', '').replaceAll(',', ' ') }) : undefined}
        >
          <Upload
            accept={accept}
            maxCount={1}
            disabled={!categoryId}
            fileList={file ? [{ uid: 'file', name: file.name, status: 'done' }] : []}
            beforeUpload={(f) => {
              setFile(f);
              setFileMissing(false);
              return false;
            }}
            onRemove={() => setFile(null)}
          >
            <Button icon={<UploadOutlined />} disabled={!categoryId} data-testid="upload-pick">
              {t('maintain.material.pickFile')}
            </Button>
          </Upload>
        </Form.Item>
        {percent !== null && (
          <>
            <Progress percent={percent} size="small" />
            <Typography.Text type="secondary">{t('maintain.material.uploading', { percent })}</Typography.Text>
          </>
        )}
      </Form>
    </Modal>
  );
}
