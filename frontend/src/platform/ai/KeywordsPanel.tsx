import { Alert, Button, Input, InputNumber, Space, Tag } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useKeywords } from '@/api/ai';
import { ApiError } from '@/api/errors';

/** Keyword extraction: a text in, its keywords out (heaviest first, weight on hover). */
export function KeywordsPanel() {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [topN, setTopN] = useState(10);
  const run = useKeywords();
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Input.TextArea rows={6} value={text} maxLength={8000} showCount onChange={(e) => setText(e.target.value)} placeholder={t('ai.textPlaceholder')} aria-label={t('ai.text')} />
      <Space>
        <span>{t('ai.topN')}</span>
        <InputNumber min={1} max={50} value={topN} onChange={(v) => setTopN(v ?? 10)} aria-label={t('ai.topN')} />
        <Button type="primary" loading={run.isPending} disabled={!text.trim()} onClick={() => run.mutate({ text, topN })}>
          {t('ai.extract')}
        </Button>
      </Space>
      {run.isError && <Alert type="error" message={run.error instanceof ApiError ? (run.error.desc ?? run.error.message) : t('ai.failed')} />}
      {run.data && (
        <div data-testid="keywords">
          {run.data.map((k) => (
            <Tag key={k.word} color="purple" title={k.weight.toFixed(3)}>
              {k.word}
            </Tag>
          ))}
        </div>
      )}
    </Space>
  );
}
