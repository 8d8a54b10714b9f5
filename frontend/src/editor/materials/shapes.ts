/** The 24 catalogue shapes (spec editor-core §3): their SVGs from `GET /shape/{key}` and adding one to the scene. */
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { api } from '@/api/client';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import { editorActions as a } from '@/editor/state/editorSlice';
import { useEditorDispatch } from '@/editor/page/useEditor';
import { ApiError, errorText } from '@/api/errors';

/** Answer of GET /shape/{uuid}: the sanitised SVG. */
export interface ShapeAnswer {
  shapeCode: string;
  uuid: string;
  name: string;
}

/** The catalogue's shape kinds, in catalogue order. */
export const SHAPE_KINDS = CATALOGUE.shapes;

const shapeKey = (key: string) => ['shape', key] as const;

/** One shape's SVG. */
export function fetchShape(key: string): Promise<ShapeAnswer> {
  return api.get<ShapeAnswer>(`/shape/${encodeURIComponent(key)}`, undefined, { silent: true });
}

/** Every catalogue shape's SVG (for the panel's previews); drawings never change under a key. */
export function useShapeCodes() {
  return useQueries({
    queries: SHAPE_KINDS.map((k) => ({ queryKey: shapeKey(k.key), queryFn: () => fetchShape(k.key), staleTime: Infinity, retry: false })),
  });
}

/**
 * Adds a catalogue shape with its SVG, so the stage and the renderer draw the same drawing. When the
 * SVG cannot be had the shape is added as its basic kind (which both draw without one) and says so.
 */
export function useAddShape(): (key: string) => Promise<void> {
  const dispatch = useEditorDispatch();
  const client = useQueryClient();
  const { message } = App.useApp();
  const { t } = useTranslation();
  return useCallback(
    async (key: string) => {
      try {
        const { shapeCode } = await client.fetchQuery({ queryKey: shapeKey(key), queryFn: () => fetchShape(key), staleTime: Infinity, retry: false });
        dispatch(a.addLayer({ kind: 'shape', shape: key, shapeCode }));
      } catch (err) {
        dispatch(a.addLayer({ kind: 'shape', shape: key }));
        void message.warning(t('editor.shapes.noDrawing', { reason: err instanceof ApiError ? errorText(err) : err instanceof Error ? err.message : String(err) }));
      }
    },
    [client, dispatch, message, t],
  );
}
