/** Favourite calls of spec platform §7: /favorite/add, /favorite/remove, /favorite/list {id, type, phoneNumber}. */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';

/** A favourite as /favorite/list returns it. */
export interface Favourite {
  id: string;
  type: string;
  phoneNumber: string;
}

/** Returns the caller's favourites of one material type. */
export function useFavourites(type: string, phoneNumber: string, enabled = true) {
  return useQuery({
    queryKey: queryKeys.favourite.list(type),
    queryFn: async () => {
      const list = await api.post<Favourite[] | undefined>('/favorite/list', { type, phoneNumber });
      return Array.isArray(list) ? list : [];
    },
    enabled: enabled && type !== '',
  });
}

/** Adds (`on` true) or removes a favourite; the favourite lists reload. */
export function useToggleFavourite() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: ({ id, type, phoneNumber, on }: Favourite & { on: boolean }) =>
      api.post(on ? '/favorite/add' : '/favorite/remove', { id, type, phoneNumber }),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.favourite.all }),
  });
}
