import { CloseCircleOutlined, DownloadOutlined, EyeOutlined, PlayCircleOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { App, Button, Space } from 'antd';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '@/api/keys';
import {
  isActive,
  queuedState,
  TaskStatus,
  useCancelTasks,
  useMediaTicket,
  useRunTask,
  useTaskState,
  withTicket,
  type TaskSummary,
} from '@/api/videoTask';
import { useWarmTip } from '@/components/WarmTip';

/** Returns the task's status as last heard from the farm, else as listed. */
export function useLiveStatus(task: TaskSummary): number {
  const { data } = useTaskState(task.id);
  return data?.status ?? task.status;
}

export interface TaskActionsProps {
  task: TaskSummary;
  onPreview: (task: TaskSummary) => void;
}

/** Run, cancel, preview and download for one task. */
export function TaskActions({ task, onPreview }: TaskActionsProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const warmTip = useWarmTip();
  const queryClient = useQueryClient();
  const status = useLiveStatus(task);
  const run = useRunTask();
  const cancel = useCancelTasks();
  const done = status === TaskStatus.success && task.videoUrl !== '';
  const ticket = useMediaTicket(task.id, done);

  const onRun = () =>
    run.mutate(task.id, {
      onSuccess: (answer) => {
        queryClient.setQueryData(queryKeys.videoTask.state(task.id), queuedState(task.id, answer?.status ?? TaskStatus.wait));
        void message.success(t('tasks.runStarted'));
      },
    });

  const onCancel = () =>
    cancel.mutate([task.id], {
      onSuccess: () => void message.success(t('tasks.cancelRequested')),
    });

  return (
    <Space size={4} wrap>
      {isActive(status) ? (
        <Button
          size="small"
          danger
          icon={<CloseCircleOutlined />}
          loading={cancel.isPending}
          onClick={() => warmTip({ content: t('tasks.cancelConfirm'), okText: t('tasks.yes'), cancelText: t('tasks.no'), okButtonProps: { danger: true }, onOk: onCancel })}
          data-testid={`cancel-${task.id}`}
        >
          {t('tasks.cancel')}
        </Button>
      ) : (
        <Button size="small" type="primary" ghost icon={<PlayCircleOutlined />} loading={run.isPending} onClick={onRun} data-testid={`run-${task.id}`}>
          {t('tasks.run')}
        </Button>
      )}
      {done ? (
        <>
          <Button size="small" icon={<EyeOutlined />} onClick={() => onPreview(task)} data-testid={`preview-${task.id}`}>
            {t('tasks.preview')}
          </Button>
          <Button
            size="small"
            icon={<DownloadOutlined />}
            href={ticket.data ? withTicket(task.videoUrl, ticket.data.ticket) : undefined}
            disabled={!ticket.data}
            download
            data-testid={`download-${task.id}`}
          >
            {t('tasks.download')}
          </Button>
        </>
      ) : null}
    </Space>
  );
}
