import { TaskStatus, useMediaTicket, type TaskSummary } from '@/api/videoTask';
import { useLiveStatus } from './TaskActions';
import { TaskCover } from './TaskCover';

export interface LiveTaskCoverProps {
  task: TaskSummary;
  width?: number | string;
  height?: number;
}

/** A task's cover once its render is done (fetched with a media ticket), else a placeholder. */
export function LiveTaskCover({ task, width, height }: LiveTaskCoverProps) {
  const done = useLiveStatus(task) === TaskStatus.success && task.coverUrl !== '';
  const ticket = useMediaTicket(task.id, done);
  return <TaskCover coverUrl={done ? task.coverUrl : ''} ticket={ticket.data?.ticket} alt={task.taskName} width={width} height={height} />;
}
