/** What the editor's views read from its state; list selectors are memoised so views re-render only on change. */
import { createSelector } from '@reduxjs/toolkit';
import { withoutTickets } from '@/editor/materials/tickets';
import type { Layer } from '@/editor/model/gen/Layer';
import type { Rule } from '@/editor/model/gen/Rule';
import type { Scene } from '@/editor/model/gen/Scene';
import type { EditorState } from './editorSlice';

/** The scene on the stage. */
export function selectCurrentScene(s: EditorState): Scene {
  return s.doc.scenes.find((x) => x.frontendId === s.sceneId) ?? (s.doc.scenes[0] as Scene);
}

/** Where the scene on the stage starts in the document, seconds. */
export function selectCurrentSceneStart(s: EditorState): number {
  let start = 0;
  for (const x of s.doc.scenes) {
    if (x.frontendId === s.sceneId) return start;
    start += x.timeLength;
  }
  return 0;
}

/** The current scene's layers in drawing order (lowest z first, document order on ties). */
export const selectDrawOrder: (s: EditorState) => Layer[] = createSelector([selectCurrentScene], (scene) => [...scene.layers].sort((a, b) => a.z - b.z));

/** The selected layers. */
export const selectSelectedLayers: (s: EditorState) => Layer[] = createSelector([selectCurrentScene, (s: EditorState) => s.selection], (scene, selection) => {
  const ids = new Set(selection);
  return scene.layers.filter((l) => ids.has(l.id));
});

/** True when the document or name changed since the last save. */
export function selectDirty(s: EditorState): boolean {
  return s.revision !== s.savedRevision;
}

/** The whole length of the document, seconds. */
export function selectDuration(s: EditorState): number {
  return s.doc.scenes.reduce((sum, x) => sum + x.timeLength, 0);
}

/** The document as it is saved: the current scene is the active one, and no material address carries a ticket. */
export function saveableRule(s: EditorState): Rule {
  return withoutTickets({ ...s.doc, scenes: s.doc.scenes.map((x) => ({ ...x, isActive: x.frontendId === s.sceneId })) });
}
