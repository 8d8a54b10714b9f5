/**
 * Text to speech's ability page: the dubbing form, a run on the render farm followed with its
 * progress, and its WAV played, downloaded or put in my materials (the toolbox's run view: a
 * dubbing is a run of the same job model).
 */
import { Alert, Button, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { textToVoice, type SpeechInput } from '@/api/ai';
import { ApiError } from '@/api/errors';
import { refusedField } from '@/api/toolbox';
import { DEFAULT_SPEECH, SpeechForm, useRefusalText } from '@/components/speech/SpeechForm';
import { ToolRunView } from '@/platform/toolbox/ToolRunView';

type Refusal = { field: string | null; text: string };

export function SpeechPanel({ available }: { available: boolean }) {
  const { t } = useTranslation();
  const refusalText = useRefusalText();
  const [input, setInput] = useState<SpeechInput>(DEFAULT_SPEECH);
  const [taskId, setTaskId] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [starting, setStarting] = useState(false);

  const run = async () => {
    setStarting(true);
    setRefusal(null);
    try {
      setTaskId((await textToVoice(input)).taskId);
    } catch (err) {
      const field = refusedField(err);
      const words = err instanceof ApiError ? (err.desc ?? err.message) : String(err);
      setRefusal({ field, text: (field && refusalText(field)) || words });
    } finally {
      setStarting(false);
    }
  };

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="speech-panel">
      <SpeechForm value={input} onChange={setInput} refused={refusal?.field ? { field: refusal.field, text: refusal.text } : null} disabled={!available} />
      <Button type="primary" loading={starting} disabled={!available || input.text.trim() === ''} onClick={() => void run()} data-testid="speech-run">
        {t('speech.run')}
      </Button>
      {refusal && !refusal.field ? <Alert type="error" showIcon title={t('speech.notStarted')} description={refusal.text} data-testid="speech-error" /> : null}
      {taskId !== null ? <ToolRunView key={taskId} taskId={taskId} /> : null}
    </Space>
  );
}
