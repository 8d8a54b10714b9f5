import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useTaskProgress } from '@/api/taskProgress';
import { useTaskState } from '@/api/videoTask';
import { TaskProgress } from './TaskProgress';

export interface LiveTaskProgressProps {
  taskId: number;
  /** Follow the render while true (queued, running, or just started). */
  active: boolean;
}

/** A task's progress as it arrives from the farm (stream, or polling when the stream fails). */
export function LiveTaskProgress({ taskId, active }: LiveTaskProgressProps) {
  const { t } = useTranslation();
  const mode = useTaskProgress(taskId, active);
  const { data } = useTaskState(taskId);
  if (!data) {
    return active ? (
      <Typography.Text type="secondary" data-testid="task-progress-waiting">
        {t('tasks.connecting')}
      </Typography.Text>
    ) : null;
  }
  return (
    <div data-mode={mode ?? 'idle'}>
      <TaskProgress state={data} />
    </div>
  );
}
