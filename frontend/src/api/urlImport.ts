/**
 * Videos imported by address (`POST /material/v2/batchUrlVideoAddResult`, docs/toolbox.md "URL
 * import"): only from the hosts the site's configuration lists; each becomes my material.
 */
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';

/** Imports the videos at `urls`; answers their material ids in order. Refusals name `urls[i]`. */
export function useUrlImport() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (urls: string[]) => api.post<{ materialIds: string[] }>('/material/v2/batchUrlVideoAddResult', { urls }, { silent: true }),
    onSuccess: () => client.invalidateQueries({ queryKey: queryKeys.material.all }),
  });
}
