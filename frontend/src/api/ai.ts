/** AI abilities (CONTRACT "AI"): which ones this deployment offers. */
import { useQuery } from '@tanstack/react-query';
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
