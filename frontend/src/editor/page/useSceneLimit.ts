/** Gives the editor the scene limit the server is configured with (spec §9), once `/system/info` answers. */
import { useEffect } from 'react';
import { useSystemInfo } from '@/api/system';
import { editorActions as a } from '@/editor/state/editorSlice';
import { useEditorDispatch } from './useEditor';

export function useSceneLimit(): void {
  const dispatch = useEditorDispatch();
  const limit = useSystemInfo().data?.sceneLimit;
  useEffect(() => {
    if (limit !== undefined) dispatch(a.setSceneLimit(limit));
  }, [dispatch, limit]);
}
