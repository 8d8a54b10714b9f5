import { Space, Typography } from 'antd';
import { TaskStatus, useTaskState, type TaskSummary } from '@/api/videoTask';
import { TaskStatusTag } from './TaskStatusTag';

/** A task's status tag as last heard from the farm, with the failure reason under a failed one. */
export function LiveTaskStatus({ task }: { task: TaskSummary }) {
  const { data } = useTaskState(task.id);
  const status = data?.status ?? task.status;
  const reason = data?.reason || task.reason;
  return (
    <Space orientation="vertical" size={2}>
      <TaskStatusTag status={status} />
      {status === TaskStatus.error && reason ? (
        <Typography.Text type="danger" style={{ fontSize: 12, maxWidth: 160 }} ellipsis={{ tooltip: reason }} data-testid="task-reason">
          {reason}
        </Typography.Text>
      ) : null}
    </Space>
  );
}
