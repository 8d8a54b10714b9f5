import { useQueryClient } from '@tanstack/react-query';
import { useEffect, useRef } from 'react';
import { queryKeys } from '@/api/keys';
import { isFinished, TaskStatus, useTaskState, type TaskState, type TaskSummary } from '@/api/videoTask';

/**
 * Keeps a listed task's row up with its render: when the state last heard (the progress watcher's,
 * here or in the editor) says the render finished and the row does not say so yet (it was fetched
 * while the task was queued or running, or done without its video address), my tasks' lists are
 * fetched again, once per state heard, so the card gets its cover, preview and download without a
 * reload. The row is what the server says now, so a second fetch that still disagrees is left be.
 */
export function useListCatchesUp(task: TaskSummary): void {
  const queryClient = useQueryClient();
  const { data: state } = useTaskState(task.id);
  const asked = useRef<TaskState | undefined>(undefined);
  const behind =
    state !== undefined && isFinished(state.status) && (task.status !== state.status || (state.status === TaskStatus.success && task.videoUrl === ''));
  useEffect(() => {
    if (!behind || asked.current === state) return;
    asked.current = state;
    void queryClient.invalidateQueries({ queryKey: queryKeys.videoTask.mine.all });
  }, [behind, queryClient, state]);
}
