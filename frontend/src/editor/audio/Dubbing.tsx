/**
 * The audio panel's dubbing (配音, issue 28): type a text, pick the voice (普通话 / English), speed
 * and pitch, run it on the farm with its progress, and the sound is placed as a `voice` item at the
 * playhead (as a voice-over recording is; the music ducks under it). Offered only when the
 * deployment lists text to speech as available; otherwise the button says why.
 */
import { SoundOutlined } from '@ant-design/icons';
import { Alert, App, Button, Tooltip } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TEXT_TO_SPEECH, useAbilities, type SpeechInput } from '@/api/ai';
import { ApiError } from '@/api/errors';
import { api } from '@/api/client';
import { refusedField } from '@/api/toolbox';
import type { TaskState } from '@/api/videoTask';
import { DraggablePopup } from '@/components/DraggablePopup';
import { DEFAULT_SPEECH, SpeechForm, useRefusalText } from '@/components/speech/SpeechForm';
import { TaskProgress } from '@/components/task/TaskProgress';
import { useEditorDispatch } from '@/editor/page/useEditor';
import { useClock } from '@/editor/playback/usePlayback';
import { editorActions as a } from '@/editor/state/editorSlice';
import { voiceItem } from './audioCommands';
import { dub, DubbingFailed } from './dubbing';

/** Characters of the text a dubbing's item is named after. */
const NAME_CHARS = 12;

type Phase =
  | { phase: 'idle' }
  | { phase: 'running'; taskId: number | null; state: TaskState | null }
  | { phase: 'failed'; title: string; detail: string; refused: { field: string; text: string } | null };

export function Dubbing() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useEditorDispatch();
  const clock = useClock();
  const abilities = useAbilities();
  const refusalText = useRefusalText();
  const [open, setOpen] = useState(false);
  const [input, setInput] = useState<SpeechInput>(DEFAULT_SPEECH);
  const [phase, setPhase] = useState<Phase>({ phase: 'idle' });
  const following = useRef<AbortController | null>(null);
  useEffect(() => () => following.current?.abort(), []);

  const tts = abilities.data?.find((x) => x.key === TEXT_TO_SPEECH);
  if (!tts?.available) {
    const why = tts ? t(`ai.reason.${tts.reasonCode || 'not-configured'}`, { defaultValue: tts.reasonCode }) : t('audioPanel.dubbingUnavailable');
    return (
      <Tooltip title={tts?.reason ? `${why}: ${tts.reason}` : why}>
        <Button size="small" icon={<SoundOutlined />} disabled data-testid="dubbing">
          {t('audioPanel.dubbing')}
        </Button>
      </Tooltip>
    );
  }

  const running = phase.phase === 'running';
  // The farm's stage names speak of pictures and films; a dubbing's two working stages are worded as what they do.
  const spoken = (state: TaskState): TaskState =>
    state.stage === 'rendering' || state.stage === 'uploading' ? { ...state, stage: t(`speech.stage.${state.stage}`) } : state;
  const run = async () => {
    // The sound goes where the playhead was when the dubbing was asked for.
    const at = clock.get().time;
    const controller = new AbortController();
    following.current = controller;
    setPhase({ phase: 'running', taskId: null, state: null });
    try {
      const m = await dub(
        input,
        {
          onStarted: (taskId) => setPhase({ phase: 'running', taskId, state: null }),
          onState: (state) => setPhase((p) => (p.phase === 'running' ? { ...p, state } : p)),
        },
        controller.signal,
      );
      const text = input.text.trim();
      const short = [...text].length > NAME_CHARS ? `${[...text].slice(0, NAME_CHARS).join('')}…` : text;
      dispatch(a.addAudio({ ...voiceItem(m, at), name: t('audioPanel.dubbingName', { text: short }) }));
      setPhase({ phase: 'idle' });
      setOpen(false);
      void message.success(t('audioPanel.dubbingAdded'));
    } catch (err) {
      if (controller.signal.aborted) return;
      const field = refusedField(err);
      const detail = err instanceof ApiError ? (err.desc ?? err.message) : err instanceof DubbingFailed ? err.reason : err instanceof Error ? err.message : String(err);
      const refused = field ? { field, text: refusalText(field) ?? detail } : null;
      const title = refused ? t('speech.refusedTitle') : err instanceof ApiError ? t('speech.notStarted') : t('speech.failed');
      setPhase({ phase: 'failed', title, detail, refused });
    }
  };
  const stop = () => {
    following.current?.abort();
    if (phase.phase === 'running' && phase.taskId !== null) void api.post('/v2/videotask/cancelTask', { taskIds: String(phase.taskId) }, { silent: true }).catch(() => undefined);
    setPhase({ phase: 'idle' });
  };

  return (
    <>
      <Button size="small" icon={<SoundOutlined />} onClick={() => setOpen(true)} data-testid="dubbing">
        {t('audioPanel.dubbing')}
      </Button>
      <DraggablePopup
        open={open}
        title={t('audioPanel.dubbingTitle')}
        onCancel={() => {
          if (running) stop();
          setOpen(false);
        }}
        footer={[
          running ? (
            <Button key="stop" danger onClick={stop} data-testid="dubbing-stop">
              {t('speech.stop')}
            </Button>
          ) : null,
          <Button key="run" type="primary" loading={running} disabled={input.text.trim() === ''} onClick={() => void run()} data-testid="dubbing-run">
            {t('speech.run')}
          </Button>,
        ]}
        destroyOnHidden
      >
        <div data-testid="dubbing-dialog">
          <SpeechForm value={input} onChange={setInput} refused={phase.phase === 'failed' ? phase.refused : null} disabled={running} />
          {phase.phase === 'running' ? (
            <div data-testid="dubbing-progress">
              {phase.state ? <TaskProgress state={spoken(phase.state)} /> : t('speech.queueing')}
            </div>
          ) : null}
          {phase.phase === 'failed' && !phase.refused ? <Alert type="error" showIcon title={phase.title} description={phase.detail || undefined} data-testid="dubbing-error" /> : null}
        </div>
      </DraggablePopup>
    </>
  );
}
