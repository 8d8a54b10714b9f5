/**
 * Records the microphone with MediaRecorder and hands back the recording as a WAV file (see
 * `wav.ts` for why not the recorder's own WebM/Ogg). The stream and the recorder live in refs,
 * outside Redux; the tracks are stopped when recording ends or the view goes away.
 */
import { useCallback, useEffect, useRef, useState } from 'react';
import { downmix, encodeWav } from './wav';

/** Why the microphone could not be used: permission refused, no device, no browser support, other. */
export type MicProblem = 'denied' | 'noDevice' | 'unsupported' | 'failed';

export type RecorderState =
  | { phase: 'idle' }
  | { phase: 'asking' }
  | { phase: 'recording'; startedAt: number }
  | { phase: 'encoding' }
  | { phase: 'error'; problem: MicProblem; detail: string };

/** Returns the kind of problem of a getUserMedia or MediaRecorder failure. */
export function micProblemOf(err: unknown): MicProblem {
  const name = err instanceof Error || (typeof DOMException !== 'undefined' && err instanceof DOMException) ? (err as Error).name : '';
  if (name === 'NotAllowedError' || name === 'SecurityError') return 'denied';
  if (name === 'NotFoundError' || name === 'OverconstrainedError') return 'noDevice';
  return 'failed';
}

/** Decodes a recording and writes it as a mono WAV file. */
async function toWav(recording: Blob, name: string): Promise<File> {
  const context = new AudioContext();
  try {
    const decoded = await context.decodeAudioData(await recording.arrayBuffer());
    const channels = Array.from({ length: decoded.numberOfChannels }, (_, i) => decoded.getChannelData(i));
    return encodeWav(downmix(channels), decoded.sampleRate, name);
  } finally {
    void context.close();
  }
}

/** Returns the recorder's state, start, and stop (which resolves with the WAV named `name`, or null when nothing was recorded). */
export function useVoiceRecorder() {
  const [state, setState] = useState<RecorderState>({ phase: 'idle' });
  const recorder = useRef<MediaRecorder | null>(null);
  const stream = useRef<MediaStream | null>(null);
  const chunks = useRef<Blob[]>([]);

  const release = useCallback(() => {
    stream.current?.getTracks().forEach((t) => t.stop());
    stream.current = null;
    recorder.current = null;
  }, []);
  useEffect(() => release, [release]);

  const start = useCallback(async () => {
    if (!navigator.mediaDevices?.getUserMedia || typeof MediaRecorder === 'undefined') {
      setState({ phase: 'error', problem: 'unsupported', detail: '' });
      return;
    }
    setState({ phase: 'asking' });
    try {
      // A call's processing (echo cancelling, noise suppression, automatic gain) would pump and
      // thin a voice-over that is mixed under music and brought to a loudness target anyway.
      stream.current = await navigator.mediaDevices.getUserMedia({ audio: { echoCancellation: false, noiseSuppression: false, autoGainControl: false } });
      chunks.current = [];
      const r = new MediaRecorder(stream.current);
      r.ondataavailable = (e) => {
        if (e.data.size > 0) chunks.current.push(e.data);
      };
      r.start();
      recorder.current = r;
      setState({ phase: 'recording', startedAt: performance.now() });
    } catch (err) {
      release();
      setState({ phase: 'error', problem: micProblemOf(err), detail: err instanceof Error ? err.message : String(err) });
    }
  }, [release]);

  const stop = useCallback(async (name: string): Promise<File | null> => {
    const r = recorder.current;
    if (!r) return null;
    setState({ phase: 'encoding' });
    const stopped = new Promise<void>((resolve) => {
      r.onstop = () => resolve();
    });
    r.stop();
    await stopped;
    release();
    const recording = new Blob(chunks.current, { type: r.mimeType });
    try {
      const file = recording.size > 0 ? await toWav(recording, name) : null;
      setState({ phase: 'idle' });
      return file;
    } catch (err) {
      setState({ phase: 'error', problem: 'failed', detail: err instanceof Error ? err.message : String(err) });
      return null;
    }
  }, [release]);

  return { state, start, stop };
}
