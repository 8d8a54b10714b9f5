/**
 * Voice-over: record the microphone, upload the recording to my materials (as WAV) and add it
 * as a `voice` item at the playhead; the music ducks under it in the render. Beside it, dubbing
 * from text (`Dubbing`), placed the same way.
 */
import { AudioOutlined, BorderOutlined } from '@ant-design/icons';
import { Alert, Button, Space, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '@/api/errors';
import { uploadMaterial } from '@/api/material';
import { useAppSelector } from '@/app/hooks';
import { useEditorDispatch } from '@/editor/page/useEditor';
import { useClock } from '@/editor/playback/usePlayback';
import { editorActions as a } from '@/editor/state/editorSlice';
import { formatTime } from '@/editor/timeline/timelineMath';
import { voiceItem } from './audioCommands';
import { Dubbing } from './Dubbing';
import { readyMaterial } from './readyMaterial';
import { useVoiceRecorder } from './useVoiceRecorder';

/** Seconds since `startedAt` (performance.now), refreshed ten times a second. */
function useElapsed(startedAt: number | null): number {
  const [now, setNow] = useState(() => performance.now());
  useEffect(() => {
    if (startedAt === null) return;
    const timer = setInterval(() => setNow(performance.now()), 100);
    return () => clearInterval(timer);
  }, [startedAt]);
  return startedAt === null ? 0 : Math.max(0, (now - startedAt) / 1000);
}

/** hh:mm:ss of a moment, local time. */
function clockTime(d: Date): string {
  return [d.getHours(), d.getMinutes(), d.getSeconds()].map((n) => String(n).padStart(2, '0')).join(':');
}

type Saving = { phase: 'idle' } | { phase: 'uploading'; percent: number } | { phase: 'probing' } | { phase: 'failed'; reason: string };

export function VoiceRecorder() {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const clock = useClock();
  const userId = useAppSelector((s) => s.user.id) ?? '';
  const { state, start, stop } = useVoiceRecorder();
  const [saving, setSaving] = useState<Saving>({ phase: 'idle' });
  const elapsed = useElapsed(state.phase === 'recording' ? state.startedAt : null);
  const busy = saving.phase === 'uploading' || saving.phase === 'probing' || state.phase === 'encoding' || state.phase === 'asking';

  const finish = async () => {
    // The voice goes where the playhead was when recording stopped.
    const at = clock.get().time;
    const stamp = new Date();
    const file = await stop(`voice-${clockTime(stamp).replace(/:/g, '')}.wav`);
    if (!file) return;
    try {
      setSaving({ phase: 'uploading', percent: 0 });
      const id = await uploadMaterial(file, { userId }, (percent) => setSaving({ phase: 'uploading', percent }));
      setSaving({ phase: 'probing' });
      const m = await readyMaterial(id);
      dispatch(a.addAudio({ ...voiceItem(m, at), name: t('audioPanel.voiceName', { time: clockTime(stamp) }) }));
      setSaving({ phase: 'idle' });
    } catch (err) {
      setSaving({ phase: 'failed', reason: err instanceof ApiError ? errorText(err) : err instanceof Error ? err.message : String(err) });
    }
  };

  const recording = state.phase === 'recording';
  return (
    <div data-testid="voice-recorder" style={{ display: 'flex', flexDirection: 'column', gap: 8 }}>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('audioPanel.voiceHint')}
      </Typography.Text>
      <Space wrap>
        <Button
          type={recording ? 'primary' : 'default'}
          danger={recording}
          icon={recording ? <BorderOutlined /> : <AudioOutlined />}
          loading={busy}
          onClick={() => void (recording ? finish() : start())}
          data-testid="voice-record"
        >
          {recording ? t('audioPanel.stop') : t('audioPanel.record')}
        </Button>
        {recording ? (
          <Typography.Text strong style={{ color: '#cf1322', fontVariantNumeric: 'tabular-nums' }} data-testid="voice-elapsed">
            ● {formatTime(elapsed, true)}
          </Typography.Text>
        ) : null}
        <Dubbing />
      </Space>
      {state.phase === 'asking' ? <Typography.Text type="secondary">{t('audioPanel.asking')}</Typography.Text> : null}
      {state.phase === 'encoding' ? <Typography.Text type="secondary">{t('audioPanel.encoding')}</Typography.Text> : null}
      {saving.phase === 'uploading' ? <Typography.Text type="secondary">{t('audioPanel.uploading', { percent: Math.round(saving.percent) })}</Typography.Text> : null}
      {saving.phase === 'probing' ? <Typography.Text type="secondary">{t('audioPanel.probing')}</Typography.Text> : null}
      {state.phase === 'error' ? (
        <Alert type="error" showIcon title={t(`audioPanel.mic.${state.problem}`)} description={state.detail || undefined} data-testid="voice-error" />
      ) : null}
      {saving.phase === 'failed' ? <Alert type="error" showIcon title={t('audioPanel.saveFailed', { reason: saving.reason })} data-testid="voice-save-error" /> : null}
    </div>
  );
}
