/** The source durations of the document's clips, from the library's material info (TanStack Query). */
import { useQueries } from '@tanstack/react-query';
import { useMemo } from 'react';
import { materialInfoQuery } from '@/api/material';
import type { Layer } from '@/editor/model/gen/Layer';
import type { SourceDurations } from '@/editor/state/timing';
import { useEditorSelector } from './useEditor';

function clipIds(layers: ReadonlyArray<Layer>, out: Set<string>): Set<string> {
  for (const l of layers) {
    if (l.type === 'video' && l.materialId !== undefined && l.materialId !== '') out.add(String(l.materialId));
    if (l.type === 'group') clipIds(l.attachList, out);
  }
  return out;
}

/**
 * Returns the durations of the document's clips by material id, as far as the library has told
 * them (each clip's info is asked for once; an unknown one is simply absent).
 */
export function useSourceDurations(): SourceDurations {
  const key = useEditorSelector((s) => [...s.doc.scenes.reduce((ids, scene) => clipIds(scene.layers, ids), new Set<string>())].sort().join(','));
  const ids = useMemo(() => (key === '' ? [] : key.split(',')), [key]);
  return useQueries({
    queries: ids.map((id) => materialInfoQuery(id)),
    combine: (results) => {
      const out: Record<string, number> = {};
      results.forEach((r, i) => {
        const d = r.data?.duration;
        if (d !== undefined && d > 0) out[ids[i] as string] = d;
      });
      return out;
    },
  });
}
