/** AI abilities (CONTRACT "AI"): which ones this deployment offers. */
import { useMutation, useQuery } from '@tanstack/react-query';
import { api } from './client';

/** An ability as `GET /ai/abilities` lists it. */
export interface Ability {
  key: string;
  group: string;
  nameZh: string;
  nameEn: string;
  hasPage: boolean;
  /** Computed by the server: a provider is configured for this tenant and answers its health check. */
  available: boolean;
  /** `local`, `http` or `none`. */
  provider?: string;
  /** Why not available (`not-configured`, `no-local-implementation`, `key-missing`, `unreachable`…). */
  reasonCode?: string;
  /** The same in the server's (English) words, with what would enable it. */
  reason?: string;
}

/** The ability key of text to speech (dubbing). */
export const TEXT_TO_SPEECH = 'text-to-speech';

/** Returns the listed abilities. */
export function useAbilities() {
  return useQuery({
    queryKey: ['ai', 'abilities'] as const,
    queryFn: () => api.get<Ability[]>('/ai/abilities'),
    staleTime: 5 * 60_000,
  });
}

/** The ability key of the music climax cut. */
export const MUSIC_CLIMAX_CUT = 'music-climax-cut';

/** Where the strongest section of a music material lies, as `POST /ai/climax` answers. */
export interface ClimaxCut {
  startMs: number;
  endMs: number;
}

/** Asks where the strongest `seconds` of a music material (the caller's own or a system one) lie. */
export function useClimaxCut() {
  return useMutation({
    mutationFn: ({ materialId, seconds }: { materialId: string; seconds: number }) => api.post<ClimaxCut>('/ai/climax', { materialId, seconds }),
  });
}

/** A keyword and its TF-IDF weight, as `POST /ai/keywords` answers. */
export interface Keyword {
  word: string;
  weight: number;
}

/** The keywords of a text (local: word segmentation + TF-IDF), heaviest first. */
export function useKeywords() {
  return useMutation({
    mutationFn: ({ text, topN }: { text: string; topN: number }) => api.post<Keyword[]>('/ai/keywords', { text, topN }, { silent: true }),
  });
}

/** The text abilities served through the HTTP provider. */
export const TEXT_ABILITIES = ['text-generation', 'translation', 'rewrite', 'title-generation', 'dialogue-summary', 'smart-reply', 'keyword-generation'] as const;

/** What a provider wrote, as `POST /ai/text` answers. */
export interface GeneratedText {
  text: string;
  model: string;
}

/** Text generation, translation (`language`: zh-CN or en-US) or rewrite through the ability's provider. */
export function useGenerateText() {
  return useMutation({
    mutationFn: (input: { ability: string; text: string; language?: string }) => api.post<GeneratedText>('/ai/text', input, { silent: true }),
  });
}

/** A voice of text to speech: 普通话 or English. */
export type SpeechVoice = 'cmn' | 'en';
/** The voices, in the order the forms offer them. */
export const SPEECH_VOICES: readonly SpeechVoice[] = ['cmn', 'en'];
/** The longest text spoken at once, characters (docs/ai.md). */
export const SPEECH_MAX_CHARS = 1000;
/** Slowest and fastest rate (1: the voice's normal speed). */
export const SPEECH_RATE = { min: 0.5, max: 2, normal: 1 } as const;
/** Lowest and highest pitch (50: the voice's own). */
export const SPEECH_PITCH = { min: 0, max: 99, normal: 50 } as const;

/** What POST /tts/textToVoice takes. */
export interface SpeechInput {
  text: string;
  voice: SpeechVoice;
  rate: number;
  pitch: number;
}

/** Queues a dubbing on the farm; answers its run (progress: the task's events; the WAV: the run's output 0). Quiet: the forms word a refusal next to its field. */
export const textToVoice = (input: SpeechInput): Promise<{ taskId: number; jobId: string }> =>
  api.post<{ taskId: number; jobId: string }>('/tts/textToVoice', input, { silent: true });

/** The ability key of speech recognition. */
export const SPEECH_RECOGNITION = 'speech-content-analysis';

/** A language speech is recognised in: English (the local model) or 普通话 (refused unless a provider hears it). */
export type SpeechLanguage = 'en' | 'cmn';
/** The languages, in the order the forms offer them. */
export const SPEECH_LANGUAGES: readonly SpeechLanguage[] = ['en', 'cmn'];

/** One recognised word, milliseconds from the material's start. */
export interface HeardWord {
  word: string;
  startMs: number;
  endMs: number;
}

/** A recognition's result, the run's output 0 (`transcript.json`). */
export interface Transcript {
  language: string;
  text: string;
  words: HeardWord[];
  durationMs: number;
  model: string;
}

/** Queues a recognition of my sound or video material on the farm (progress: the task's events; the transcript: output 0). Quiet: the forms word a refusal. */
export const voiceToText = (input: { materialId: string; language: SpeechLanguage }): Promise<{ taskId: number; jobId: string }> =>
  api.post<{ taskId: number; jobId: string }>('/ASR/voiceToText', input, { silent: true });

/** Reads a finished recognition's transcript (its output 0, JSON served as a file). */
export async function fetchTranscript(taskId: number): Promise<Transcript> {
  const blob = await api.get<Blob>(`/toolbox/file/${taskId}/0`, undefined, { responseType: 'blob' });
  // FileReader rather than Blob.text(): every browser and the test DOM have it.
  const text = await new Promise<string>((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('the transcript could not be read'));
    reader.readAsText(blob);
  });
  const parsed = JSON.parse(text) as Partial<Transcript>;
  return {
    language: parsed.language ?? '',
    text: parsed.text ?? '',
    words: Array.isArray(parsed.words) ? parsed.words : [],
    durationMs: parsed.durationMs ?? 0,
    model: parsed.model ?? '',
  };
}
