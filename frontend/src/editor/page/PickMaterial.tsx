/** The material panel in the editor's left column: a picked picture, GIF, video or effect becomes a layer. */
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import type { Material } from '@/api/material';
import { MaterialPanel } from '@/editor/materials/MaterialPanel';
import { editorActions as a } from '@/editor/state/editorSlice';
import { useEditorDispatch } from './useEditor';

/**
 * The layer a material makes. The document names it by its signed same-origin address: the
 * render resolves it by material id, the stage shows it while the ticket lives.
 */
export function layerOf(m: Material) {
  const size = { materialId: m.id, width: m.width || undefined, height: m.height || undefined };
  if (m.type === 'video') return { kind: 'video' as const, src: m.url, ...size };
  if (m.type === 'picture' || m.type === 'gif' || m.type === 'backgrounds') return { kind: 'picture' as const, src: m.url, gif: m.type === 'gif', ...size };
  // A special effect (border, atmosphere) is an overlay of the whole stage; an animated one plays as a GIF.
  if (m.type === 'specialEffects') {
    return { kind: 'picture' as const, src: m.url, gif: m.duration > 0 || m.codec.toUpperCase() === 'GIF', cover: true, ...size };
  }
  return null;
}

/** Lists the library and adds what is picked to the current scene. */
export function PickMaterial() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useEditorDispatch();
  const onPick = useCallback(
    (m: Material) => {
      const layer = layerOf(m);
      if (layer) dispatch(a.addLayer(layer));
      else void message.info(t('editor.materialKindNotPlaceable'));
    },
    [dispatch, message, t],
  );
  return <MaterialPanel onPick={onPick} />;
}
