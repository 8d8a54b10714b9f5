/**
 * "另存为素材 / Save as new material" for the editor's cut panel: the server makes the edit as a tool
 * run (`/material/videoClip`), the button shows its progress, and once it is done its output
 * becomes a material of the library (`/toolbox/use`), which the library lists.
 */
import { Alert, Button, Progress, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '@/api/errors';
import { queryKeys } from '@/api/keys';
import type { RunToolAnswer } from '@/api/toolbox';
import { followRun } from './followRun';
import { useAlive } from './useAlive';

type Phase = { kind: 'idle' } | { kind: 'running'; percent: number } | { kind: 'done' } | { kind: 'failed'; why: string };

export function SaveAsMaterial({ start, disabled, testId }: { start: () => Promise<RunToolAnswer>; disabled?: boolean; testId: string }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const alive = useAlive();

  async function save() {
    setPhase({ kind: 'running', percent: 0 });
    try {
      const { taskId } = await start();
      const made = await followRun(taskId, (percent) => setPhase({ kind: 'running', percent }), () => alive.current);
      if (made === null) return;
      await queryClient.invalidateQueries({ queryKey: queryKeys.material.all });
      setPhase({ kind: 'done' });
    } catch (e) {
      if (alive.current) setPhase({ kind: 'failed', why: e instanceof ApiError ? errorText(e) : String((e as Error).message) });
    }
  }

  return (
    <div style={{ marginBottom: 8 }}>
      <Button size="small" data-testid={testId} disabled={disabled || phase.kind === 'running'} loading={phase.kind === 'running'} onClick={() => void save()}>
        {t('editor.props.saveClip')}
      </Button>
      {phase.kind === 'running' && (
        <>
          <Typography.Text type="secondary" style={{ fontSize: 12, marginLeft: 8 }}>
            {t('editor.props.saveClipRunning')}
          </Typography.Text>
          <Progress size="small" percent={phase.percent} />
        </>
      )}
      {phase.kind === 'done' && <Alert type="success" showIcon title={t('editor.props.saveClipDone')} data-testid={`${testId}-done`} />}
      {phase.kind === 'failed' && <Alert type="error" showIcon title={t('editor.props.saveClipFailed', { why: phase.why })} data-testid={`${testId}-failed`} />}
    </div>
  );
}
