import { useQueryClient } from '@tanstack/react-query';
import { Alert, Button, Result, Space, Spin, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { errorText } from '@/api/errors';
import { queryKeys } from '@/api/keys';
import { editorLinkFor } from '@/app/editor';
import { handoffOf, runStartJob, StartProblem, type StartJob } from './startJobs';

/** How long a start may take before the page says it is taking long and offers the way back, ms. */
export const LOADING_PATIENCE_MS = 20_000;

export interface LoadingViewProps {
  /** What is being waited for, in the page's language. */
  waitingFor: string;
  /** Where "back" leads. */
  back: string;
  /** A failure to show instead of the spinner; null while waiting. */
  failure: string | null;
  patienceMs?: number;
}

/** The waiting view: spinner and what it waits for; after `patienceMs` a note and the way back; a failure and the way back. */
export function LoadingView({ waitingFor, back, failure, patienceMs = LOADING_PATIENCE_MS }: LoadingViewProps) {
  const { t } = useTranslation();
  const [late, setLate] = useState(false);
  useEffect(() => {
    const timer = setTimeout(() => setLate(true), patienceMs);
    return () => clearTimeout(timer);
  }, [patienceMs]);
  const backButton = (
    <Link to={back}>
      <Button data-testid="loading-back">{t('start.loading.back')}</Button>
    </Link>
  );
  if (failure !== null) {
    return <Result status="warning" title={t('start.loading.failed')} subTitle={failure} extra={backButton} data-testid="loading-failed" />;
  }
  return (
    <Space orientation="vertical" align="center" size="large" style={{ display: 'flex', margin: '96px auto', maxWidth: 480 }} data-testid="loading-page">
      <Spin size="large" />
      <Typography.Text data-testid="loading-what">{waitingFor}</Typography.Text>
      {late ? (
        <Alert type="info" showIcon title={t('start.loading.late')} action={backButton} data-testid="loading-late" />
      ) : null}
    </Space>
  );
}

/** The words of a failed start: a refusal the pages know by name, else the API's own wording. */
export function startFailureText(err: unknown, t: (key: string) => string): string {
  return err instanceof StartProblem ? t(`start.problem.${err.problem}`) : errorText(err);
}

function useStart(job: StartJob | null) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const client = useQueryClient();
  const [failure, setFailure] = useState<string | null>(null);
  // React's strict mode mounts twice: the job is sent once, or it would make two tasks.
  const sent = useRef(false);
  // A user who went back while waiting stays where they went; the task is in my works.
  const shown = useRef(true);
  useEffect(() => {
    shown.current = true;
    return () => {
      shown.current = false;
    };
  }, []);
  useEffect(() => {
    if (!job || sent.current) return;
    sent.current = true;
    runStartJob(job).then(
      (taskId) => {
        void client.invalidateQueries({ queryKey: queryKeys.videoTask.mine.all });
        if (shown.current) void navigate(editorLinkFor(taskId), { replace: true });
      },
      (err: unknown) => {
        if (shown.current) setFailure(startFailureText(err, t));
      },
    );
  }, [client, job, navigate, t]);
  return failure;
}

/**
 * `/loading`: the hand-off waiting page. The start pages send their job here in the router's state;
 * it makes the task and opens the editor on it. Opened without a job (a reload, a typed address), it
 * says there is nothing to wait for.
 */
export function LoadingPage() {
  const { t } = useTranslation();
  const location = useLocation();
  const [handoff] = useState(() => handoffOf(location.state));
  const failure = useStart(handoff?.job ?? null);
  if (!handoff) {
    return (
      <Result
        status="info"
        title={t('start.loading.nothing')}
        extra={
          <Link to="/workbench">
            <Button type="primary">{t('start.loading.toWorkbench')}</Button>
          </Link>
        }
        data-testid="loading-nothing"
      />
    );
  }
  return <LoadingView waitingFor={t(`start.loading.for.${handoff.job.kind}`)} back={handoff.back} failure={failure} />;
}
