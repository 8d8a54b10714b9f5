import { CheckCircleOutlined, CloseOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Progress, Space, Typography, Upload, type UploadProps } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { formatBytes } from '@/api/bytes';
import { acceptedFormatsText, ApiError, errorText, UNSUPPORTED_FILE_TYPE } from '@/api/errors';
import { materialTypeOf, UPLOAD_ACCEPT, useUploadMaterial } from '@/api/material';
import { useAppSelector } from '@/app/hooks';

/** One file's upload as the list shows it. */
interface UploadRow {
  uid: string;
  name: string;
  percent: number;
  status: 'uploading' | 'done' | 'error' | 'cancelled';
  materialId?: string;
  error?: string;
  /** A resumable upload went on from this byte of an earlier, unfinished one. */
  resumedFrom?: number;
}

export interface MaterialUploadProps {
  /** Category the new materials go to (-1: none). */
  categoryId?: number;
  /** Called with each new material's id. */
  onUploaded?: (materialId: string) => void;
  size?: 'small' | 'middle';
  /** Send each file in parts that survive an interruption (`/upload/resumable`); the category is not used. */
  resumable?: boolean;
}

/**
 * Upload button with the accepted formats and a per-file progress list; each file is one POST
 * /upload/material. A file of a type not taken is refused at once, in the page's language with the
 * formats; a failed upload says why under its name (the client has toasted it once, after its retries).
 * An upload in flight can be cancelled (its request aborted); leaving the page cancels the rest.
 */
export function MaterialUpload({ categoryId, onUploaded, size = 'middle', resumable = false }: MaterialUploadProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const userId = useAppSelector((s) => s.user.id) ?? '';
  const upload = useUploadMaterial();
  const [rows, setRows] = useState<UploadRow[]>([]);
  const inFlight = useRef(new Map<string, AbortController>());

  useEffect(() => {
    const uploads = inFlight.current;
    return () => uploads.forEach((c) => c.abort());
  }, []);

  const patch = (uid: string, change: Partial<UploadRow>) => setRows((all) => all.map((r) => (r.uid === uid ? { ...r, ...change } : r)));

  const beforeUpload: UploadProps['beforeUpload'] = (file) => {
    if (materialTypeOf(file.name)) return true;
    const refusal = new ApiError({ kind: 'business', url: '', message: 'unsupported file type', data: { reason: UNSUPPORTED_FILE_TYPE } });
    setRows((all) => [{ uid: file.uid, name: file.name, percent: 0, status: 'error' as const, error: errorText(refusal) }, ...all].slice(0, 20));
    void message.error({ content: errorText(refusal), key: `refused-${file.uid}` });
    return Upload.LIST_IGNORE;
  };

  const customRequest: UploadProps['customRequest'] = ({ file, onProgress, onSuccess, onError }) => {
    const f = file as File & { uid: string };
    const controller = new AbortController();
    inFlight.current.set(f.uid, controller);
    setRows((all) => [{ uid: f.uid, name: f.name, percent: 0, status: 'uploading' as const }, ...all].slice(0, 20));
    // mutateAsync: each file settles on its own (mutate's callbacks fire for the latest call only).
    upload
      .mutateAsync({
        file: f,
        target: { userId, categoryId },
        signal: controller.signal,
        resumable,
        onResumed: (fromByte) => patch(f.uid, { resumedFrom: fromByte }),
        onProgress: (percent) => {
          patch(f.uid, { percent });
          onProgress?.({ percent });
        },
      })
      .then(
        (materialId) => {
          patch(f.uid, { status: 'done', percent: 100, materialId });
          void message.success(t('material.upload.added'));
          onSuccess?.(materialId);
          onUploaded?.(materialId);
        },
        (err: unknown) => {
          if (controller.signal.aborted) {
            patch(f.uid, { status: 'cancelled' });
          } else {
            patch(f.uid, { status: 'error', error: errorText(err) });
          }
          onError?.(err instanceof Error ? err : new Error(errorText(err)));
        },
      )
      .finally(() => inFlight.current.delete(f.uid));
  };

  const cancel = (uid: string) => inFlight.current.get(uid)?.abort();

  return (
    <div data-testid="material-upload">
      <Upload customRequest={customRequest} beforeUpload={beforeUpload} multiple showUploadList={false} accept={UPLOAD_ACCEPT}>
        <Button type="primary" icon={<UploadOutlined />} size={size} data-testid="material-upload-button">
          {t('material.upload.button')}
        </Button>
      </Upload>
      <Typography.Paragraph type="secondary" style={{ fontSize: 12, margin: '4px 0 0' }} data-testid="upload-formats">
        {t('material.upload.formats', { formats: acceptedFormatsText() })}
      </Typography.Paragraph>
      {rows.length > 0 ? (
        <Space orientation="vertical" size={2} style={{ width: '100%', marginTop: 8 }}>
          {rows.map((row) => (
            <div key={row.uid} data-testid="upload-item" data-status={row.status} data-material-id={row.materialId ?? ''}>
              <Typography.Text ellipsis style={{ fontSize: 12, maxWidth: 240 }}>
                {row.status === 'done' ? <CheckCircleOutlined style={{ color: '#52c41a', marginInlineEnd: 4 }} /> : null}
                {row.name}
              </Typography.Text>
              {row.status === 'uploading' ? (
                <Button
                  type="text"
                  size="small"
                  icon={<CloseOutlined />}
                  onClick={() => cancel(row.uid)}
                  aria-label={t('material.upload.cancel')}
                  title={t('material.upload.cancel')}
                  data-testid="upload-cancel"
                />
              ) : null}
              {row.status === 'error' ? (
                <Typography.Text type="danger" style={{ fontSize: 12, display: 'block' }} data-testid="upload-error">
                  {row.error}
                </Typography.Text>
              ) : row.status === 'cancelled' ? (
                <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }} data-testid="upload-cancelled">
                  {t('material.upload.cancelled')}
                </Typography.Text>
              ) : (
                <Progress percent={row.percent} size="small" status={row.status === 'done' ? 'success' : 'active'} data-testid="upload-progress" />
              )}
              {row.resumedFrom !== undefined ? (
                <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }} data-testid="upload-resumed">
                  {t('material.upload.resumed', { size: formatBytes(row.resumedFrom) })}
                </Typography.Text>
              ) : null}
              {resumable && row.status === 'error' ? (
                <Typography.Text type="secondary" style={{ fontSize: 12, display: 'block' }} data-testid="upload-resume-hint">
                  {t('material.upload.resumeHint')}
                </Typography.Text>
              ) : null}
            </div>
          ))}
        </Space>
      ) : null}
    </div>
  );
}
