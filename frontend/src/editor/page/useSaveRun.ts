/** Save and run for the editor: the existing save and run calls, with the slice's save state. */
import { App } from 'antd';
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/api/errors';
import { parseProblems, useRunTask, useSaveTask } from '@/api/videoTask';
import { useAppStore } from '@/app/hooks';
import { editorActions as a } from '@/editor/state/editorSlice';
import { saveableRule } from '@/editor/state/selectors';
import { useEditorDispatch } from './useEditor';

/** The problems of a failed save: the server's list for a refused document, else its message. */
function problemsOf(err: unknown) {
  if (err instanceof ApiError && err.kind === 'business' && err.desc) return parseProblems(err.desc);
  return [{ path: '', message: err instanceof Error ? err.message : String(err) }];
}

/** Returns save (the task id, or null when it failed) and run (the task id once started, or null). */
export function useSaveRun() {
  const store = useAppStore();
  const dispatch = useEditorDispatch();
  const { t } = useTranslation();
  const { message } = App.useApp();
  const saveCall = useSaveTask();
  const runCall = useRunTask();

  const save = useCallback(async (): Promise<number | null> => {
    // Spec §4: blank scenes are deleted; the editor shows the document as it is saved.
    const before = store.getState().editor.doc.scenes.length;
    dispatch(a.removeBlankScenes());
    const s = store.getState().editor;
    const removed = before - s.doc.scenes.length;
    if (removed > 0) void message.info(t('editor.scenes.blankRemoved', { count: removed }));
    dispatch(a.saveStarted());
    try {
      const taskId = await saveCall.mutateAsync({
        taskId: s.taskId,
        name: s.name,
        taskInfo: JSON.stringify(saveableRule(s)),
        sizeCategoryId: s.doc.resolutionRatio.sizeId,
        usedFor: s.usedFor,
      });
      dispatch(a.saveSucceeded({ taskId: Number(taskId), at: Date.now() }));
      return Number(taskId);
    } catch (err) {
      dispatch(a.saveFailed(problemsOf(err)));
      return null;
    }
  }, [dispatch, message, saveCall, store, t]);

  const run = useCallback(async (): Promise<number | null> => {
    const taskId = await save();
    if (taskId === null) return null;
    await runCall.mutateAsync(taskId);
    return taskId;
  }, [runCall, save]);

  return { save, run, saving: saveCall.isPending, running: runCall.isPending };
}
