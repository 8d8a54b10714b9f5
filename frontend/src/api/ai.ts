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
  available: boolean;
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
