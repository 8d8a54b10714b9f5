/**
 * Runs a recognition (docs/ai.md, "Speech recognition") for a page or a dialog: its phase
 * (idle, running with the farm's progress, done with the transcript, failed with the server's
 * words or a refused field), a start and a stop (the run is cancelled on the farm).
 */
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import type { SpeechLanguage, Transcript } from '@/api/ai';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { refusedField } from '@/api/toolbox';
import type { TaskState } from '@/api/videoTask';
import { recognise, RecognitionFailed } from '@/editor/subtitles/speech';

export type RecognitionPhase =
  | { phase: 'idle' }
  | { phase: 'running'; taskId: number | null; state: TaskState | null }
  | { phase: 'done'; transcript: Transcript }
  | { phase: 'failed'; title: string; detail: string; field: string | null };

export function useRecognition() {
  const { t } = useTranslation();
  const [phase, setPhase] = useState<RecognitionPhase>({ phase: 'idle' });
  const following = useRef<AbortController | null>(null);
  useEffect(() => () => following.current?.abort(), []);

  /** Answers the transcript, or null when the run failed, was refused or stopped (the phase says which). */
  const start = async (input: { materialId: string; language: SpeechLanguage }): Promise<Transcript | null> => {
    const controller = new AbortController();
    following.current = controller;
    setPhase({ phase: 'running', taskId: null, state: null });
    try {
      const transcript = await recognise(
        input,
        {
          onStarted: (taskId) => setPhase({ phase: 'running', taskId, state: null }),
          onState: (state) => setPhase((p) => (p.phase === 'running' ? { ...p, state } : p)),
        },
        controller.signal,
      );
      setPhase({ phase: 'done', transcript });
      return transcript;
    } catch (err) {
      if (controller.signal.aborted) return null;
      const field = refusedField(err);
      const detail = err instanceof ApiError ? (err.desc ?? err.message) : err instanceof RecognitionFailed ? err.reason : err instanceof Error ? err.message : String(err);
      setPhase({ phase: 'failed', title: err instanceof ApiError ? t('asr.notStarted') : t('asr.failed'), detail, field });
      return null;
    }
  };

  const stop = () => {
    following.current?.abort();
    if (phase.phase === 'running' && phase.taskId !== null) void api.post('/v2/videotask/cancelTask', { taskIds: String(phase.taskId) }, { silent: true }).catch(() => undefined);
    setPhase({ phase: 'idle' });
  };

  /** The farm's stage names speak of films; a recognition's working stages are worded as what they do. */
  const worded = (state: TaskState): TaskState =>
    state.stage === 'rendering' || state.stage === 'uploading' ? { ...state, stage: t(`asr.stage.${state.stage}`) } : state;

  return { phase, start, stop, worded };
}
