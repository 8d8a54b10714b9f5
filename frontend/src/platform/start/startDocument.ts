/**
 * The documents the start pages make before the editor opens: a blank one of a chosen ratio, and
 * one holding picked materials. They are built with the editor's own commands, so the layers are
 * those the editor would make from the same materials.
 */
import type { Material } from '@/api/material';
import type { Rule } from '@/editor/model/gen/Rule';
import { layerOf } from '@/editor/page/PickMaterial';
import { MAX_SCENES, NEW_SCENE_LENGTH, ratioByName } from '@/editor/state/defaults';
import { editorActions as a, editorReducer, type EditorState } from '@/editor/state/editorSlice';
import { saveableRule } from '@/editor/state/selectors';

/** How picked materials are laid out: one scene each, or one after another on a single scene. */
export type MaterialLayout = 'scenes' | 'one';

/** The material types a start page can place (what the editor makes a picture or video layer of). */
export const PLACEABLE_TYPES: readonly string[] = ['picture', 'gif', 'video', 'backgrounds'];

/** Why picked materials cannot start a task, or null when they can. */
export type MaterialsProblem = 'none' | 'tooMany' | 'notReady' | 'notPlaceable';

/** Checks picked materials before anything is made; `layout` 'scenes' is held to the scene limit. */
export function materialsProblem(materials: readonly Material[], layout: MaterialLayout, maxScenes = MAX_SCENES): MaterialsProblem | null {
  if (materials.length === 0) return 'none';
  if (layout === 'scenes' && materials.length > maxScenes) return 'tooMany';
  if (materials.some((m) => m.state !== 'ready')) return 'notReady';
  if (materials.some((m) => !PLACEABLE_TYPES.includes(m.type))) return 'notPlaceable';
  return null;
}

/** How long a material shows: a video its whole length, a still the editor's new-scene length. */
export function showingSeconds(m: Material): number {
  return m.type === 'video' && m.duration > 0 ? m.duration : NEW_SCENE_LENGTH;
}

function start(ratio: string, usedFor: string): EditorState {
  if (!ratioByName(ratio)) throw new Error(`unknown ratio ${ratio}`);
  const blank = editorReducer(undefined, a.newDocument({ usedFor }));
  return editorReducer(blank, a.setAspect(ratio));
}

/** A new document of `ratio` with one blank scene, in the mode `usedFor` names. */
export function blankRule(ratio: string, usedFor: string): Rule {
  return saveableRule(start(ratio, usedFor));
}

/**
 * A new document of `ratio` holding `materials` in the order given: each on its own scene (as long
 * as it shows), or one after another on the first scene.
 */
export function materialsRule(materials: readonly Material[], ratio: string, layout: MaterialLayout): Rule {
  let s = start(ratio, 'ALL');
  let at = 0;
  materials.forEach((m, i) => {
    const layer = layerOf(m);
    if (!layer) throw new Error(`material ${m.id} of type ${m.type} cannot be placed`);
    if (layout === 'scenes' && i > 0) {
      s = editorReducer(s, a.addScene());
      at = 0;
    }
    const seconds = showingSeconds(m);
    s = editorReducer(s, a.setAttachScope([at, at + seconds]));
    s = editorReducer(s, a.addLayer(layer));
    at += seconds;
  });
  s = editorReducer(s, a.setAttachScope(null));
  s = editorReducer(s, a.selectScene(s.doc.scenes[0]?.frontendId ?? s.sceneId));
  return saveableRule(s);
}
