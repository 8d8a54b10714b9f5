/**
 * The waiting modal of a running task: the farm's real progress (its time left only when the farm
 * reports one), cancel, and when done a title saying how it ended, play, set as a video ringtone
 * and a way to my works.
 * Centred, so the toasts at the top of the page never cover its text.
 */
import { Alert, Button, Modal, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { API_BASE } from '@/api/client';
import { isFinished, TaskStatus, useCancelTasks, useTaskState, type TaskSummary } from '@/api/videoTask';
import { LiveTaskProgress } from '@/components/task/LiveTaskProgress';
import { TaskPreviewModal } from '@/components/task/TaskPreviewModal';
import { SetRingButton } from '@/components/ring/SetRingButton';

export interface RunModalProps {
  taskId: number | null;
  taskName: string;
  onClose: () => void;
}

/** The finished task as the ring-setting modal takes it. */
function doneWork(taskId: number, taskName: string) {
  return { id: taskId, taskName, videoUrl: `${API_BASE}/videotask/download?taskId=${taskId}`, coverUrl: `${API_BASE}/videotask/cover?taskId=${taskId}` };
}

export function RunModal({ taskId, taskName, onClose }: RunModalProps) {
  const { t } = useTranslation();
  const state = useTaskState(taskId ?? -1).data;
  const cancel = useCancelTasks();
  const [playing, setPlaying] = useState(false);
  const status = state?.status;
  const done = status !== undefined && isFinished(status);
  const success = status === TaskStatus.success;
  const title = !done ? 'title' : success ? 'doneTitle' : status === TaskStatus.cancelled ? 'cancelledTitle' : 'failedTitle';
  const preview: TaskSummary | null =
    playing && taskId !== null
      ? {
          id: taskId,
          taskName,
          status: TaskStatus.success,
          reason: '',
          videoUrl: `${API_BASE}/videotask/download?taskId=${taskId}`,
          coverUrl: `${API_BASE}/videotask/cover?taskId=${taskId}`,
        }
      : null;
  return (
    <>
      <Modal
        open={taskId !== null}
        centered
        title={<span data-testid="run-title">{t(`editor.run.${title}`)}</span>}
        onCancel={onClose}
        footer={null}
        mask={{ closable: false }}
        destroyOnHidden
        data-testid="run-modal"
      >
        {taskId !== null && (
          <Space direction="vertical" style={{ width: '100%' }}>
            {!done && <Typography.Text>{t('editor.run.background')}</Typography.Text>}
            <LiveTaskProgress taskId={taskId} active={!done} />
            {done && !success && status !== TaskStatus.cancelled && <Alert type="error" showIcon title={t('editor.run.failed')} description={state?.reason || undefined} />}
            <Space>
              {!done && (
                <Button danger loading={cancel.isPending} onClick={() => cancel.mutate([taskId])} data-testid="run-cancel">
                  {t('editor.run.cancel')}
                </Button>
              )}
              {success && (
                <Button type="primary" onClick={() => setPlaying(true)} data-testid="run-play">
                  {t('editor.run.play')}
                </Button>
              )}
              {success && <SetRingButton work={doneWork(taskId, taskName)} status={TaskStatus.success} size="middle" />}
              <Link to="/my-works" data-testid="run-my-works">
                {t('editor.run.myWorks')}
              </Link>
            </Space>
          </Space>
        )}
      </Modal>
      <TaskPreviewModal task={preview} onClose={() => setPlaying(false)} />
    </>
  );
}
