import { LinkOutlined } from '@ant-design/icons';
import { Alert, Button, Input, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/api/errors';
import { useUrlImport } from '@/api/urlImport';

/** A video imported by its address (from the hosts the site lists); the new material is chosen. */
export function UrlImport({ onImported }: { onImported: (materialId: string) => void }) {
  const { t } = useTranslation();
  const [url, setUrl] = useState('');
  const run = useUrlImport();
  const refusal = run.error instanceof ApiError ? (run.error.desc ?? '').trim() || run.error.message : run.error ? String(run.error) : '';
  return (
    <Space orientation="vertical" style={{ width: '100%', marginTop: 8 }} data-testid="url-import">
      <Space.Compact style={{ width: '100%' }}>
        <Input prefix={<LinkOutlined />} placeholder={t('urlImport.placeholder')} value={url} onChange={(e) => setUrl(e.target.value)} data-testid="url-import-input" />
        <Button
          loading={run.isPending}
          disabled={!url.trim()}
          onClick={() => run.mutate([url.trim()], { onSuccess: (answer) => answer.materialIds[0] && onImported(answer.materialIds[0]) })}
          data-testid="url-import-button"
        >
          {t('urlImport.button')}
        </Button>
      </Space.Compact>
      {refusal ? <Alert type="error" showIcon title={refusal} data-testid="url-import-refused" /> : null}
    </Space>
  );
}
