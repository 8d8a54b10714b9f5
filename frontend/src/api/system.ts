import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';

/** Answer of GET /system/info. */
export interface SystemInfo {
  name: string;
  version: string;
  mode: string;
  /** The variant the server took this request for; absent from older servers. */
  variant?: string;
  /** Most scenes a saved document may have (48, or 45 in the reduced environment); absent from older servers. */
  sceneLimit?: number;
}

/** Fetches the server's name, version and deployment mode; never toasts. */
export function fetchSystemInfo(): Promise<SystemInfo> {
  return api.get<SystemInfo>('/system/info', undefined, { silent: true });
}

export const systemInfoQuery = queryOptions({
  queryKey: queryKeys.system.info,
  queryFn: fetchSystemInfo,
  retry: false,
  staleTime: 60_000,
  refetchInterval: 60_000,
});

/** Returns the server info query used by the health indicator. */
export function useSystemInfo() {
  return useQuery(systemInfoQuery);
}
