import { DeleteOutlined, PaperClipOutlined, UploadOutlined } from '@ant-design/icons';
import { Button, Space, Typography, Upload, type UploadProps } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/api/errors';
import { COPYRIGHT_ACCEPT, COPYRIGHT_MAX_BYTES, useUploadCopyright, type CopyrightProof } from '@/api/ring';

export interface CopyrightProofFieldProps {
  value?: CopyrightProof | null;
  onChange?: (value: CopyrightProof | null) => void;
}

/** The optional copyright proof: one picture (JPEG, PNG) or PDF of at most 5 MiB, stored by POST /upload/copyright. */
export function CopyrightProofField({ value, onChange }: CopyrightProofFieldProps) {
  const { t } = useTranslation();
  const upload = useUploadCopyright();
  const [percent, setPercent] = useState(0);
  const [problem, setProblem] = useState<string | null>(null);

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (file.size > COPYRIGHT_MAX_BYTES) {
      setProblem(t('ring.copyright.tooLarge', { limitMb: COPYRIGHT_MAX_BYTES / 1024 / 1024 }));
      return Upload.LIST_IGNORE;
    }
    return true;
  };
  const customRequest: UploadProps['customRequest'] = ({ file }) => {
    setProblem(null);
    setPercent(0);
    upload.mutate(
      { file: file as File, onProgress: setPercent },
      { onSuccess: (proof) => onChange?.(proof), onError: (err) => setProblem(errorText(err)) },
    );
  };

  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }}>
      <Space wrap>
        <Upload accept={COPYRIGHT_ACCEPT} maxCount={1} showUploadList={false} beforeUpload={beforeUpload} customRequest={customRequest}>
          <Button icon={<UploadOutlined />} loading={upload.isPending} data-testid="ring-proof-upload">
            {upload.isPending ? t('ring.copyright.uploading', { percent }) : t('ring.copyright.upload')}
          </Button>
        </Upload>
        {value ? (
          <Space size={4} data-testid="ring-proof">
            <PaperClipOutlined />
            <Typography.Text>{value.name}</Typography.Text>
            <Button size="small" type="text" icon={<DeleteOutlined />} aria-label={t('ring.copyright.remove')} onClick={() => onChange?.(null)} data-testid="ring-proof-remove" />
          </Space>
        ) : null}
      </Space>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('ring.copyright.hint')}
      </Typography.Text>
      {problem ? (
        <Typography.Text type="danger" data-testid="ring-proof-error">
          {problem}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
