import { CloseCircleOutlined } from '@ant-design/icons';
import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Popconfirm, Space, Spin } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { queryKeys } from '@/api/keys';
import { useTaskProgress } from '@/api/taskProgress';
import { useCancelToolRun, useToolRun, type ToolRun } from '@/api/toolbox';
import { isActive, isFinished, TaskStatus, useTaskState, type TaskState } from '@/api/videoTask';
import { TaskProgress } from '@/components/task/TaskProgress';
import { ToolOutputs } from './ToolOutputs';

/** A run as the progress bar reads it, before the stream has said anything. */
export function runState(run: ToolRun): TaskState {
  return { taskId: run.id, status: run.status, percent: run.percent, stage: run.stage, framesDone: 0, framesTotal: 0, etaSeconds: 0, videoRelativePath: '', reason: run.reason };
}

/**
 * One run followed to its end: stage and percent over the farm's stream, cancel while it runs, why it
 * failed, and its outputs once done (the run is read again when the stream says it ended, and
 * again until the read shows that end: a read that raced the end would otherwise be the last).
 */
export function ToolRunView({ taskId }: { taskId: number }) {
  const { t } = useTranslation();
  const client = useQueryClient();
  const live = useTaskState(taskId).data;
  // The end as the stream said it: the run is read again until it shows that end.
  const endedAs = live && isFinished(live.status) ? live.status : null;
  const run = useToolRun(taskId, endedAs);
  const cancel = useCancelToolRun();
  const state: TaskState | null = live ?? (run.data ? runState(run.data) : null);
  const status = state?.status ?? TaskStatus.wait;
  useTaskProgress(taskId, isActive(status));
  const finished = isFinished(status);
  useEffect(() => {
    if (finished) void client.invalidateQueries({ queryKey: queryKeys.toolbox.all });
  }, [client, finished]);

  if (!state) return <Spin />;
  const reason = state.reason || run.data?.reason || '';
  // The run as last read may still be the one from before the end: its outputs come with the read after.
  const outputsIn = run.data && run.data.status === TaskStatus.success;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="tool-run" data-status={status}>
      <Space align="center" wrap>
        <TaskProgress state={state} />
        {isActive(status) ? (
          <Popconfirm title={t('tasks.cancelConfirm')} okText={t('tasks.yes')} cancelText={t('tasks.no')} onConfirm={() => cancel.mutate(taskId)}>
            <Button danger icon={<CloseCircleOutlined />} loading={cancel.isPending} data-testid="tool-cancel">
              {t('tasks.cancel')}
            </Button>
          </Popconfirm>
        ) : null}
      </Space>
      {status === TaskStatus.error ? <Alert type="error" showIcon title={t('toolbox.result.failed')} description={reason || undefined} data-testid="tool-failed" /> : null}
      {status === TaskStatus.cancelled ? <Alert type="info" showIcon title={t('toolbox.result.cancelled')} data-testid="tool-cancelled" /> : null}
      {status === TaskStatus.success ? outputsIn && run.data ? <ToolOutputs run={run.data} /> : <Spin data-testid="tool-outputs-loading" /> : null}
    </Space>
  );
}
