/** Save and run for the editor: the existing save and run calls, with the slice's save state. */
import { useQueryClient } from '@tanstack/react-query';
import { App } from 'antd';
import { useCallback, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText, isStaleSave } from '@/api/errors';
import { queryKeys } from '@/api/keys';
import { parseProblems, queuedState, TaskStatus, useRunTask, useSaveTask } from '@/api/videoTask';
import { useAppStore } from '@/app/hooks';
import { editorActions as a } from '@/editor/state/editorSlice';
import { saveableRule } from '@/editor/state/selectors';
import { useEditorDispatch } from './useEditor';

/** The problems of a failed save: the server's list for a refused document, else its message. */
function problemsOf(err: unknown) {
  if (err instanceof ApiError && err.kind === 'business' && err.desc) return parseProblems(err.desc);
  // Anything else is said in the page's language, naming no address.
  return [{ path: '', message: errorText(err) }];
}

/**
 * Returns save (the task id, or null when it failed) and run (the task id once started, or null).
 * Saves go one at a time: a save asked for while one is on its way waits for it, then saves with
 * the task id the first one made, so a new document never becomes two tasks. A run asked for while
 * one is starting is that run (a double click on 生成视频 makes one task and one render). A run
 * started puts the task's cached render state back to queued (the state of its previous render
 * would otherwise show the new one as finished at once).
 */
export function useSaveRun() {
  const store = useAppStore();
  const dispatch = useEditorDispatch();
  const { t } = useTranslation();
  const { message } = App.useApp();
  const queryClient = useQueryClient();
  const saveCall = useSaveTask();
  const runCall = useRunTask();

  const saving = useRef<Promise<number | null> | null>(null);
  const starting = useRef<Promise<number | null> | null>(null);

  const saveNow = useCallback(async (): Promise<number | null> => {
    // Spec §4: blank scenes are deleted; the editor shows the document as it is saved.
    const before = store.getState().editor.doc.scenes.length;
    dispatch(a.removeBlankScenes());
    const s = store.getState().editor;
    const removed = before - s.doc.scenes.length;
    if (removed > 0) void message.info(t('editor.scenes.blankRemoved', { count: removed }));
    dispatch(a.saveStarted());
    // The version the document is based on: the server refuses the save when a newer one is stored.
    const version = s.taskId > 0 ? s.version : 0;
    try {
      const taskId = await saveCall.mutateAsync({
        taskId: s.taskId,
        name: s.name,
        taskInfo: JSON.stringify(saveableRule(s)),
        sizeCategoryId: s.doc.resolutionRatio.sizeId,
        usedFor: s.usedFor,
        ...(version > 0 ? { version } : {}),
      });
      // A save checked against version v stored v + 1; a new task starts at 1.
      const stored = version > 0 ? version + 1 : s.taskId > 0 ? 0 : 1;
      dispatch(a.saveSucceeded({ taskId: Number(taskId), at: Date.now(), version: stored }));
      return Number(taskId);
    } catch (err) {
      dispatch(isStaleSave(err) ? a.saveConflicted() : a.saveFailed(problemsOf(err)));
      return null;
    }
  }, [dispatch, message, saveCall, store, t]);

  const save = useCallback(async (): Promise<number | null> => {
    while (saving.current) await saving.current;
    const now = saveNow();
    saving.current = now;
    try {
      return await now;
    } finally {
      if (saving.current === now) saving.current = null;
    }
  }, [saveNow]);

  const run = useCallback((): Promise<number | null> => {
    if (starting.current) return starting.current;
    const now = (async () => {
      const taskId = await save();
      if (taskId === null) return null;
      const answer = await runCall.mutateAsync(taskId);
      // The task's last render (done, with Play) must not stand for this one: the run dialog and
      // my works follow the new render from queued, as my works' Run does.
      queryClient.setQueryData(queryKeys.videoTask.state(taskId), queuedState(taskId, answer?.status ?? TaskStatus.wait));
      return taskId;
    })();
    starting.current = now;
    const done = () => {
      if (starting.current === now) starting.current = null;
    };
    now.then(done, done);
    return now;
  }, [queryClient, runCall, save]);

  return { save, run, saving: saveCall.isPending, running: runCall.isPending };
}
