/**
 * The one-click fix of the ring check (docs/ringtone.md): when every broken rule is one a re-encode
 * mends, "一键修复 / Fix it for me" starts a RING_FIX run of the farm; its progress is the task's own
 * (SSE, polling as fallback), and once it succeeds the modal checks and orders the fixed video.
 */
import { Alert, Button, Progress, Space, Typography } from 'antd';
import { useEffect } from 'react';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/api/errors';
import { useFixRing } from '@/api/ring';
import { useTaskProgress } from '@/api/taskProgress';
import { useTaskState } from '@/api/videoTask';

/** Task statuses of a run (spec platform §4). */
const SUCCESS = 10;
const FAILED = new Set([9, 11]);

function FixProgress({ fixId, onFixed, onRetry }: { fixId: number; onFixed: (fixId: number) => void; onRetry: () => void }) {
  const { t } = useTranslation();
  const state = useTaskState(fixId).data;
  const status = state?.status ?? 0;
  const done = status === SUCCESS;
  const failed = FAILED.has(status);
  useTaskProgress(fixId, !done && !failed);
  useEffect(() => {
    if (done) onFixed(fixId);
  }, [done, fixId, onFixed]);
  if (done) {
    return (
      <Typography.Text type="success" data-testid="ring-fix-done">
        {t('ring.fix.done')}
      </Typography.Text>
    );
  }
  if (failed) {
    return (
      <Space orientation="vertical" size={4} style={{ width: '100%' }}>
        <Alert type="error" showIcon title={t('ring.fix.failed', { reason: state?.reason ?? '' })} data-testid="ring-fix-failed" />
        <Button size="small" onClick={onRetry}>
          {t('ring.fix.retry')}
        </Button>
      </Space>
    );
  }
  const percent = Math.round(state?.percent ?? 0);
  return (
    <div data-testid="ring-fix-progress">
      <Typography.Text type="secondary">{t('ring.fix.running', { percent })}</Typography.Text>
      <Progress percent={percent} size="small" status="active" showInfo={false} />
    </div>
  );
}

export interface FixSectionProps {
  taskId: number;
  /** The fix run under way or done, null before the first click. */
  fixId: number | null;
  onStarted: (fixId: number | null) => void;
  /** Called once the run succeeded. */
  onFixed: (fixId: number) => void;
}

/** The button, then the run's progress and its outcome. */
export function FixSection({ taskId, fixId, onStarted, onFixed }: FixSectionProps) {
  const { t } = useTranslation();
  const fix = useFixRing();
  if (fixId !== null) return <FixProgress fixId={fixId} onFixed={onFixed} onRetry={() => onStarted(null)} />;
  return (
    <Space orientation="vertical" size={4} style={{ width: '100%' }} data-testid="ring-fix">
      <Button type="primary" ghost loading={fix.isPending} onClick={() => fix.mutate(taskId, { onSuccess: (id) => onStarted(id) })} data-testid="ring-fix-button">
        {t('ring.fix.button')}
      </Button>
      <Typography.Text type="secondary" style={{ fontSize: 12 }}>
        {t('ring.fix.hint')}
      </Typography.Text>
      {fix.isError ? <Alert type="error" showIcon title={errorText(fix.error)} data-testid="ring-fix-error" /> : null}
    </Space>
  );
}
