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
export const TEXT_ABILITIES = ['text-generation', 'translation', 'rewrite'] as const;

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
