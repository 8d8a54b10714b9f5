/**
 * A task's name as the pages show it. A task with no name of its own is stored as 未命名 (spec
 * editor-core §3; the editor and the server keep that word), which reads in the page's language
 * wherever the task is shown; a name the user gave shows as it is.
 */
import { useCallback } from 'react';
import { useTranslation } from 'react-i18next';

/** The stored name of a task not named yet (spec §3). */
export const DEFAULT_TASK_NAME = '未命名';

/** Returns a function that shows a task's name: the stored default, or no name, in the page's language. */
export function useTaskName(): (name: string) => string {
  const { t } = useTranslation();
  return useCallback((name: string) => {
    const trimmed = name.trim();
    return trimmed === '' || trimmed === DEFAULT_TASK_NAME ? t('tasks.untitled') : name;
  }, [t]);
}
