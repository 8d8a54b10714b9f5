import i18next from 'i18next';
import { formatBytes } from './bytes';

/** `GET /material/quota`: what the caller and their tenant keep and may keep; a limit of 0 is unlimited. */
export interface MaterialQuota {
  usedBytes: number;
  limitBytes: number;
  materials: number;
  limitMaterials: number;
  tenantUsedBytes: number;
  tenantLimitBytes: number;
  tenantMaterials: number;
  tenantLimitMaterials: number;
}

const limited = (limit: number) => limit > 0;

/** How full the fuller of the caller's quotas is, 0–100 (0 when both are unlimited). */
export function quotaPercent(q: Pick<MaterialQuota, 'usedBytes' | 'limitBytes' | 'materials' | 'limitMaterials'>): number {
  const parts = [limited(q.limitBytes) ? q.usedBytes / q.limitBytes : 0, limited(q.limitMaterials) ? q.materials / q.limitMaterials : 0];
  return Math.min(100, Math.round(Math.max(...parts) * 1000) / 10);
}

/**
 * The caller's usage in the page's language: "已用 1.2 GB / 5 GB · 37 / 2000 个素材"; an unlimited
 * quota reads as such. Numbers that are not numbers (an older server's refusal) read as 0.
 */
export function quotaUsageText(q: Partial<Record<keyof MaterialQuota, unknown>>): string {
  const n = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
  const unlimited = i18next.t('material.quota.unlimited');
  const limitBytes = n(q.limitBytes);
  const limitMaterials = n(q.limitMaterials);
  return i18next.t('material.quota.usage', {
    used: formatBytes(n(q.usedBytes)),
    limit: limited(limitBytes) ? formatBytes(limitBytes) : unlimited,
    materials: n(q.materials),
    limitMaterials: limited(limitMaterials) ? limitMaterials : unlimited,
  });
}
