import { queryOptions, useQuery } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';
import type { MaterialQuota } from './quotaUsage';

export function fetchMaterialQuota(): Promise<MaterialQuota> {
  return api.get<MaterialQuota>('/material/quota');
}

export function materialQuotaOptions() {
  return queryOptions({ queryKey: queryKeys.material.quota, queryFn: fetchMaterialQuota });
}

/** The caller's quota; uploads and deletes reload it (it sits under the material key). */
export function useMaterialQuota() {
  return useQuery(materialQuotaOptions());
}
