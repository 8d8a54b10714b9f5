/**
 * Speech recognition's ability page (语音内容分析): pick or upload a sound or a video, choose the
 * language, run it on the render farm with its progress, and read the transcript with each word's
 * times. A language the provider cannot hear is refused with the server's reason.
 */
import { Alert, Button, Form, Segmented, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { SPEECH_LANGUAGES, type SpeechLanguage } from '@/api/ai';
import { TaskProgress } from '@/components/task/TaskProgress';
import { TranscriptView } from '@/components/speech/TranscriptView';
import { useRecognition } from '@/components/speech/useRecognition';
import { ToolInputPicker } from '@/platform/toolbox/ToolInputPicker';

export function RecognitionPanel({ available }: { available: boolean }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<'audio' | 'video'>('audio');
  const [materialId, setMaterialId] = useState<string | null>(null);
  const [language, setLanguage] = useState<SpeechLanguage>('en');
  const { phase, start, stop, worded } = useRecognition();
  const running = phase.phase === 'running';
  const refused = phase.phase === 'failed' && phase.field ? phase : null;

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="asr-panel">
      <Form layout="vertical" disabled={!available || running}>
        <Form.Item label={t('asr.pickKind')} validateStatus={refused?.field === 'materialId' ? 'error' : undefined} help={refused?.field === 'materialId' ? t('asr.refused.materialId') : undefined}>
          <Segmented
            value={kind}
            onChange={(v) => {
              setKind(v as 'audio' | 'video');
              setMaterialId(null);
            }}
            options={(['audio', 'video'] as const).map((k) => ({ value: k, label: t(`asr.kinds.${k}`) }))}
            data-testid="asr-kind"
            style={{ marginBottom: 8 }}
          />
          <ToolInputPicker key={kind} kind={kind} selectedId={materialId} onPick={setMaterialId} testId="asr-input" />
        </Form.Item>
        <Form.Item label={t('asr.language')} validateStatus={refused?.field === 'language' ? 'error' : undefined} help={refused?.field === 'language' ? refused.detail : undefined}>
          <Select<SpeechLanguage>
            value={language}
            onChange={setLanguage}
            style={{ maxWidth: 320 }}
            data-testid="asr-language"
            options={SPEECH_LANGUAGES.map((l) => ({ value: l, label: t(`asr.languages.${l}`) }))}
          />
        </Form.Item>
      </Form>
      <Space>
        <Button type="primary" loading={running} disabled={!available || materialId === null} onClick={() => materialId && void start({ materialId, language })} data-testid="asr-run">
          {t('asr.run')}
        </Button>
        {running ? (
          <Button danger onClick={stop} data-testid="asr-stop">
            {t('asr.stop')}
          </Button>
        ) : null}
      </Space>
      {running ? <div data-testid="asr-progress">{phase.state ? <TaskProgress state={worded(phase.state)} /> : t('asr.queueing')}</div> : null}
      {phase.phase === 'failed' && !phase.field ? <Alert type="error" showIcon title={phase.title} description={phase.detail || undefined} data-testid="asr-error" /> : null}
      {phase.phase === 'done' ? <TranscriptView transcript={phase.transcript} /> : null}
    </Space>
  );
}
