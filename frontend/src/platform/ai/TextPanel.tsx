import { Alert, Button, Input, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useGenerateText } from '@/api/ai';
import { ApiError } from '@/api/errors';

/** The method the server names when a title or summary is made of the text's own sentences (docs/ai.md). */
const EXTRACTIVE = 'local-extractive';

/**
 * A text ability (generation, translation, rewrite, title, summary, reply, keywords): a text in, the
 * provider's text out, with who made it: a model, or the text's own sentences.
 */
export function TextPanel({ ability }: { ability: string }) {
  const { t } = useTranslation();
  const [text, setText] = useState('');
  const [language, setLanguage] = useState('en-US');
  const run = useGenerateText();
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Input.TextArea rows={6} value={text} maxLength={8000} showCount onChange={(e) => setText(e.target.value)} placeholder={t('ai.textPlaceholder')} aria-label={t('ai.text')} />
      <Space>
        {ability === 'translation' && (
          <Select value={language} onChange={setLanguage} style={{ width: 140 }} options={[{ value: 'zh-CN', label: '中文' }, { value: 'en-US', label: 'English' }]} />
        )}
        <Button type="primary" loading={run.isPending} disabled={!text.trim()} onClick={() => run.mutate({ ability, text, language: ability === 'translation' ? language : '' })}>
          {t('ai.generate')}
        </Button>
      </Space>
      {run.isError && <Alert type="error" message={run.error instanceof ApiError ? (run.error.desc ?? run.error.message) : t('ai.failed')} />}
      {run.data && (
        <>
          <Typography.Paragraph data-testid="generated" copyable>
            {run.data.text}
          </Typography.Paragraph>
          <Typography.Text type="secondary" data-testid="generated-by">
            {run.data.model.startsWith(EXTRACTIVE) ? t('ai.extractive') : t('ai.byModel', { model: run.data.model })}
          </Typography.Text>
        </>
      )}
    </Space>
  );
}
