/**
 * The editor's keyboard: delete and backspace, arrows nudge (shift ×10), ctrl+s/c/v/d/z/y/g,
 * ctrl+shift+z/g, ? for the shortcut sheet. ⌘ stands for ctrl (macOS). Only ctrl+s works while typing.
 */
import { useEffect } from 'react';
import { useAppStore } from '@/app/hooks';
import { editorActions as a } from '@/editor/state/editorSlice';
import { selectSelectedLayers } from '@/editor/state/selectors';
import { isTypingTarget } from './typingTarget';
import { useEditorDispatch } from './useEditor';

/** Nudge steps, editing pixels. */
export const NUDGE = 1;
export const NUDGE_SHIFT = 10;

const ARROWS: Record<string, [number, number]> = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };

/** Listens on the window while the editor is open. */
export function useEditorKeys(onSave: () => void, onHelp: () => void) {
  const store = useAppStore();
  const dispatch = useEditorDispatch();
  useEffect(() => {
    const onKey = (e: KeyboardEvent) => {
      // A key that ends an input method's composition (pinyin) belongs to the text being composed.
      if (e.isComposing) return;
      const ctrl = e.ctrlKey || e.metaKey;
      const key = e.key.toLowerCase();
      if (ctrl && key === 's') {
        e.preventDefault();
        onSave();
        return;
      }
      if (isTypingTarget(e.target)) return;
      if (e.key === '?' && !ctrl) {
        e.preventDefault();
        onHelp();
        return;
      }
      const s = store.getState().editor;
      const ids = s.selection;
      const step = e.shiftKey ? NUDGE_SHIFT : NUDGE;
      const arrow = ARROWS[e.key];
      if (arrow && ids.length > 0) {
        e.preventDefault();
        dispatch(a.moveLayers({ ids, dx: arrow[0] * step, dy: arrow[1] * step }));
      } else if ((e.key === 'Delete' || e.key === 'Backspace') && ids.length > 0) {
        e.preventDefault();
        dispatch(a.deleteLayers({ ids }));
      } else if ((e.key === 'Delete' || e.key === 'Backspace') && s.audioSelected != null) {
        e.preventDefault();
        dispatch(a.deleteAudio({ index: s.audioSelected }));
      } else if (ctrl && key === 'z') {
        e.preventDefault();
        dispatch(e.shiftKey ? a.redo() : a.undo());
      } else if (ctrl && key === 'y') {
        e.preventDefault();
        dispatch(a.redo());
      } else if (ctrl && key === 'c') {
        dispatch(a.copy());
      } else if (ctrl && key === 'v') {
        dispatch(a.paste());
      } else if (ctrl && key === 'd') {
        e.preventDefault();
        dispatch(a.duplicate());
      } else if (ctrl && key === 'g') {
        e.preventDefault();
        const selected = selectSelectedLayers(s);
        const only = selected.length === 1 ? selected[0] : undefined;
        if (e.shiftKey) {
          if (only?.type === 'group') dispatch(a.ungroup({ id: only.id }));
        } else dispatch(a.group({ ids }));
      }
    };
    window.addEventListener('keydown', onKey);
    return () => window.removeEventListener('keydown', onKey);
  }, [dispatch, onHelp, onSave, store]);
}
