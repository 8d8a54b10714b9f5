/**
 * Grows a text's box to hold its text when the text is added or edited (`model/textFit.ts`),
 * measured with a canvas in the face the stage draws it in, in the same undo step as the edit.
 */
import { useCallback } from 'react';
import { DEFAULT_FAMILY } from '@/editor/fonts/fonts';
import type { Layer } from '@/editor/model/gen/Layer';
import { estimateMeasure, fittedTextBox, type MeasureLine } from '@/editor/model/textFit';
import type { NewLayer } from '@/editor/state/defaults';
import { editorActions as a, type LayerPatch } from '@/editor/state/editorSlice';
import { selectCurrentScene } from '@/editor/state/selectors';
import { useAppStore } from '@/app/hooks';
import { useEditorDispatch } from './useEditor';

/** The fields whose change can change how much room a text needs. */
const TEXT_FIELDS = ['content', 'fontSize', 'fontFamily', 'fontId', 'bold', 'italic', 'letterSpacing', 'lineHeight'] as const;

type TextLike = Extract<Layer, { type: 'word' | 'dynamicWord' | 'artWord' }>;

function isText(layer: Layer): layer is TextLike {
  return layer.type === 'word' || layer.type === 'dynamicWord' || layer.type === 'artWord';
}

let canvas: OffscreenCanvasRenderingContext2D | null | undefined;

/** A measure of the layer's font: a canvas in the family the stage draws it in, else an estimate. */
function measureOf(layer: TextLike): MeasureLine {
  if (canvas === undefined) canvas = typeof OffscreenCanvas === 'undefined' ? null : new OffscreenCanvas(1, 1).getContext('2d');
  const ctx = canvas;
  if (!ctx) return estimateMeasure(layer.fontSize, layer.letterSpacing);
  // The family list the stage draws the text in (LayerView's useTextFace); its faces are the document's fonts.
  const family = layer.fontFamily ? `"${layer.fontFamily}", "${DEFAULT_FAMILY}"` : `"${DEFAULT_FAMILY}"`;
  return (text) => {
    ctx.font = `${layer.italic ? 'italic ' : ''}${layer.bold ? 700 : 400} ${layer.fontSize}px ${family}`;
    return ctx.measureText(text).width + layer.letterSpacing * [...text].length;
  };
}

/** Returns the box changes that make `layer` hold its text, or none. */
function fitted(layer: TextLike, stage: { width: number; height: number }): LayerPatch {
  return fittedTextBox(layer, measureOf(layer), stage) ?? {};
}

/**
 * Returns `edit(layer, changes)`, which sets a layer's fields and, when they change a text's
 * words or font, grows its box to hold the text (one undo step), and `addText(spec)`, which adds a
 * text or art word in a box that holds it (one undo step).
 */
export function useTextFit() {
  const store = useAppStore();
  const dispatch = useEditorDispatch();
  const edit = useCallback(
    (layer: Layer, changes: LayerPatch) => {
      const next = { ...layer, ...changes } as Layer;
      const touched = TEXT_FIELDS.some((k) => k in changes);
      const box = touched && isText(next) && !next.isLock ? fitted(next, store.getState().editor.doc.resolutionRatio) : {};
      dispatch(a.updateLayer({ id: layer.id, changes: { ...changes, ...box } }));
    },
    [dispatch, store],
  );
  const addText = useCallback(
    (spec: NewLayer) => {
      dispatch(a.beginGesture());
      dispatch(a.addLayer(spec));
      const s = store.getState().editor;
      const added = selectCurrentScene(s).layers.find((l) => l.id === s.selection[0]);
      if (added && isText(added)) {
        const box = fitted(added, s.doc.resolutionRatio);
        if (Object.keys(box).length > 0) dispatch(a.updateLayer({ id: added.id, changes: box }));
      }
      dispatch(a.commitGesture());
    },
    [dispatch, store],
  );
  return { edit, addText };
}
