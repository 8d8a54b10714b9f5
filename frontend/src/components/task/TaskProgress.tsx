import { Progress, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { STAGES, TaskStatus, type TaskState } from '@/api/videoTask';

/** Returns seconds as m:ss (or h:mm:ss). */
export function formatEta(seconds: number): string {
  const s = Math.max(0, Math.round(seconds));
  const h = Math.floor(s / 3600);
  const m = Math.floor((s % 3600) / 60);
  const rest = String(s % 60).padStart(2, '0');
  return h > 0 ? `${h}:${String(m).padStart(2, '0')}:${rest}` : `${m}:${rest}`;
}

function progressStatus(state: TaskState): 'active' | 'success' | 'exception' | 'normal' {
  if (state.status === TaskStatus.success) return 'success';
  if (state.status === TaskStatus.error) return 'exception';
  if (state.status === TaskStatus.cancelled) return 'normal';
  return 'active';
}

/** A render's progress: stage, percentage, frames N/M and time left. */
export function TaskProgress({ state }: { state: TaskState }) {
  const { t } = useTranslation();
  const stage = (STAGES as readonly string[]).includes(state.stage) ? t(`tasks.stage.${state.stage}`) : state.stage;
  const percent = Math.min(100, Math.max(0, Math.round(state.percent)));
  const showEta = state.etaSeconds > 0 && state.status !== TaskStatus.success;
  return (
    <div data-testid="task-progress" style={{ minWidth: 200, maxWidth: 320 }}>
      <Progress percent={percent} size="small" status={progressStatus(state)} />
      <Space size={12} wrap style={{ fontSize: 12 }}>
        <Typography.Text style={{ fontSize: 12 }} data-testid="task-stage">
          {stage}
        </Typography.Text>
        {state.framesTotal > 0 ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="task-frames">
            {t('tasks.frames', { done: state.framesDone, total: state.framesTotal })}
          </Typography.Text>
        ) : null}
        {showEta ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="task-eta">
            {t('tasks.eta', { time: formatEta(state.etaSeconds) })}
          </Typography.Text>
        ) : null}
      </Space>
    </div>
  );
}
