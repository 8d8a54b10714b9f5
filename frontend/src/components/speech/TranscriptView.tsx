/** A recognition's transcript: the text, who recognised it, and each word with its times. */
import { Table, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { HeardWord, Transcript } from '@/api/ai';

const seconds = (ms: number) => (ms / 1000).toFixed(2);

export function TranscriptView({ transcript }: { transcript: Transcript }) {
  const { t } = useTranslation();
  return (
    <div data-testid="transcript">
      <Typography.Title level={5}>{t('asr.transcript')}</Typography.Title>
      <Typography.Paragraph data-testid="transcript-text" copyable style={{ fontSize: 16 }}>
        {transcript.text}
      </Typography.Paragraph>
      <Typography.Text type="secondary">
        {t('asr.model', { model: transcript.model })} · {t('asr.count', { count: transcript.words.length })}
      </Typography.Text>
      <Typography.Title level={5} style={{ marginTop: 12 }}>
        {t('asr.words')}
      </Typography.Title>
      <Table<HeardWord & { i: number }>
        size="small"
        rowKey="i"
        data-testid="transcript-words"
        pagination={{ pageSize: 20, hideOnSinglePage: true }}
        dataSource={transcript.words.map((w, i) => ({ ...w, i }))}
        columns={[
          { title: t('asr.word'), dataIndex: 'word' },
          { title: t('asr.start'), dataIndex: 'startMs', render: (ms: number) => `${seconds(ms)} s` },
          { title: t('asr.end'), dataIndex: 'endMs', render: (ms: number) => `${seconds(ms)} s` },
        ]}
      />
    </div>
  );
}
