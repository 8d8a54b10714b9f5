/** Typed access to the editor slice for the page's pieces. */
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import type { EditorState } from '@/editor/state/editorSlice';

/** Reads from the editor slice. */
export function useEditorSelector<T>(pick: (s: EditorState) => T): T {
  return useAppSelector((root) => pick(root.editor));
}

export { useAppDispatch as useEditorDispatch };
