/** The material panel in the editor's left column: a picked picture, GIF, video or effect becomes a layer; the art-word tab adds art words. */
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { materialInfoQuery, type Material } from '@/api/material';
import { ArtWordPresets } from '@/editor/artword/ArtWordPresets';
import type { ArtWordStyle } from '@/editor/artword/artWords';
import { MaterialPanel } from '@/editor/materials/MaterialPanel';
import { editorActions as a } from '@/editor/state/editorSlice';
import { useEditorDispatch } from './useEditor';
import { useTextFit } from './useTextFit';

/**
 * The layer a material makes. The document names it by its signed same-origin address: the
 * render resolves it by material id, the stage shows it while the ticket lives.
 */
export function layerOf(m: Material) {
  const size = { materialId: m.id, width: m.width || undefined, height: m.height || undefined };
  if (m.type === 'video') return { kind: 'video' as const, src: m.url, ...size, duration: m.duration || undefined };
  if (m.type === 'picture' || m.type === 'gif' || m.type === 'backgrounds') return { kind: 'picture' as const, src: m.url, gif: m.type === 'gif', ...size };
  if (m.type === 'specialEffects') {
    // A still effect is a special-effect layer over the whole stage. The renderer picks how to
    // draw an effect by its file's extension, and a library address has none, so it would draw a
    // moving one as its first frame: that stays a GIF overlay of the whole stage.
    const moving = m.duration > 0 || m.codec.toUpperCase() === 'GIF';
    if (moving) return { kind: 'picture' as const, src: m.url, gif: true, cover: true, ...size };
    return { kind: 'effect' as const, src: m.url, materialId: m.id, name: m.materialName };
  }
  return null;
}

/** Lists the library and adds what is picked to the current scene. */
export function PickMaterial() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useEditorDispatch();
  const { addText } = useTextFit();
  const client = useQueryClient();
  const onPick = useCallback(
    (m: Material) => {
      const place = (picked: Material) => {
        const layer = layerOf(picked);
        if (layer) dispatch(a.addLayer(layer));
        else void message.info(t('editor.materialKindNotPlaceable'));
      };
      // A video picked as its probe ends may come from a list fetched before it: its duration and
      // size are read again so the layer knows how long its clip is.
      if (m.type === 'video' && !(m.duration > 0)) void client.fetchQuery(materialInfoQuery(m.id)).catch(() => m).then(place);
      else place(m);
    },
    [client, dispatch, message, t],
  );
  const customTabs = useMemo(
    () => ({ 'text.artWord': <ArtWordPresets onPick={(style: ArtWordStyle) => addText({ kind: 'artWord', style, content: t('artWord.sample') })} /> }),
    [addText, t],
  );
  return <MaterialPanel onPick={onPick} customTabs={customTabs} />;
}
