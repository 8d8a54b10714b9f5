/**
 * Video auditing's ability page (视频审核): pick or upload a video, or choose one of my works; run
 * the audit on the render farm with its progress; read the verdict and each word found, with the
 * frame it was read on (its time and box) or the text layer it is in.
 */
import { Alert, Button, Empty, Form, Segmented, Space, Tag, Typography } from 'antd';
import { useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { audit, AuditFailed, formatHitTime, type AuditHit, type AuditReport, type AuditTarget } from '@/api/audit';
import { api } from '@/api/client';
import { ApiError } from '@/api/errors';
import { refusedField, toolFileUrl } from '@/api/toolbox';
import { useMediaTicket, type TaskState } from '@/api/videoTask';
import { TaskProgress } from '@/components/task/TaskProgress';
import { WorksPicker } from '@/components/task/WorksPicker';
import { ToolInputPicker } from '@/platform/toolbox/ToolInputPicker';

type Phase =
  | { phase: 'idle' }
  | { phase: 'running'; taskId: number | null; state: TaskState | null }
  | { phase: 'done'; taskId: number; report: AuditReport }
  | { phase: 'failed'; title: string; detail: string; field: string | null };

/** The frames' thumbnails are drawn this wide; the box is scaled to it. */
const THUMB_WIDTH = 240;

function FrameThumb({ taskId, hit, report }: { taskId: number; hit: AuditHit; report: AuditReport }) {
  const ticket = useMediaTicket(taskId, hit.frameOutput !== undefined);
  if (hit.frameOutput === undefined || !ticket.data) return null;
  const scale = report.frameWidth > 0 ? THUMB_WIDTH / report.frameWidth : 0;
  const box = hit.bbox;
  return (
    <div style={{ position: 'relative', width: THUMB_WIDTH, height: Math.round(report.frameHeight * scale), flex: 'none' }}>
      <img src={toolFileUrl(taskId, hit.frameOutput, ticket.data.ticket)} alt={hit.word} width={THUMB_WIDTH} style={{ display: 'block', borderRadius: 4 }} data-testid="audit-frame" />
      {box ? (
        <div
          data-testid="audit-box"
          style={{ position: 'absolute', left: box.x * scale - 2, top: box.y * scale - 2, width: box.w * scale + 4, height: box.h * scale + 4, border: '2px solid #ff4d4f', borderRadius: 2 }}
        />
      ) : null}
    </div>
  );
}

function HitItem({ taskId, hit, report }: { taskId: number; hit: AuditHit; report: AuditReport }) {
  const { t } = useTranslation();
  return (
    <div data-testid="audit-hit" style={{ padding: 12, border: '1px solid #f0f0f0', borderRadius: 8 }}>
      <Space align="start" size={16} wrap>
        {hit.source === 'frame' ? <FrameThumb taskId={taskId} hit={hit} report={report} /> : null}
        <Space orientation="vertical" size={4}>
          <Space wrap>
            <Tag color="red" data-testid="audit-word">
              {hit.word}
            </Tag>
            {hit.source === 'frame' ? (
              <Typography.Text data-testid="audit-time">{t('audit.atTime', { time: formatHitTime(hit.timeMs ?? 0) })}</Typography.Text>
            ) : (
              <Typography.Text data-testid="audit-layer">{t('audit.inLayer', { layer: hit.layerId ?? '' })}</Typography.Text>
            )}
          </Space>
          <Typography.Text type="secondary">{t(hit.source === 'frame' ? 'audit.readText' : 'audit.layerText', { text: hit.text })}</Typography.Text>
        </Space>
      </Space>
    </div>
  );
}

function ReportView({ taskId, report }: { taskId: number; report: AuditReport }) {
  const { t } = useTranslation();
  const flagged = report.verdict === 'flagged';
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="audit-report">
      <Alert
        type={flagged ? 'error' : 'success'}
        showIcon
        title={flagged ? t('audit.flagged', { count: report.hits.length }) : t('audit.passed')}
        description={t('audit.read', { frames: report.framesRead, layers: report.layersRead })}
        data-testid="audit-verdict"
        data-verdict={report.verdict}
      />
      {flagged ? (
        <Space orientation="vertical" size={8} style={{ width: '100%' }}>
          {report.hits.map((hit, i) => (
            <HitItem key={`${hit.source}-${String(i)}`} taskId={taskId} hit={hit} report={report} />
          ))}
        </Space>
      ) : (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('audit.noHits')} />
      )}
    </Space>
  );
}

export function AuditPanel({ available }: { available: boolean }) {
  const { t } = useTranslation();
  const [kind, setKind] = useState<'material' | 'work'>('material');
  const [materialId, setMaterialId] = useState<string | null>(null);
  const [works, setWorks] = useState<number[]>([]);
  const [phase, setPhase] = useState<Phase>({ phase: 'idle' });
  const following = useRef<AbortController | null>(null);
  useEffect(() => () => following.current?.abort(), []);
  const running = phase.phase === 'running';
  const target: AuditTarget | null = kind === 'material' ? (materialId ? { materialId } : null) : works[0] !== undefined ? { taskId: works[0] } : null;
  const refused = phase.phase === 'failed' && phase.field ? phase : null;

  const run = async () => {
    if (!target) return;
    const controller = new AbortController();
    following.current = controller;
    setPhase({ phase: 'running', taskId: null, state: null });
    try {
      const done = await audit(
        target,
        {
          onStarted: (taskId) => setPhase({ phase: 'running', taskId, state: null }),
          onState: (state) => setPhase((p) => (p.phase === 'running' ? { ...p, state } : p)),
        },
        controller.signal,
      );
      setPhase({ phase: 'done', ...done });
    } catch (err) {
      if (controller.signal.aborted) return;
      const detail = err instanceof ApiError ? (err.desc ?? err.message) : err instanceof AuditFailed ? err.reason : err instanceof Error ? err.message : String(err);
      setPhase({ phase: 'failed', title: err instanceof ApiError ? t('audit.notStarted') : t('audit.failed'), detail, field: refusedField(err) });
    }
  };

  const stop = () => {
    following.current?.abort();
    if (phase.phase === 'running' && phase.taskId !== null) void api.post('/v2/videotask/cancelTask', { taskIds: String(phase.taskId) }, { silent: true }).catch(() => undefined);
    setPhase({ phase: 'idle' });
  };

  // The farm's stage names speak of films; an audit's working stages are worded as what they do.
  const worded = (state: TaskState): TaskState => (state.stage === 'rendering' || state.stage === 'uploading' ? { ...state, stage: t(`audit.stage.${state.stage}`) } : state);

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="audit-panel">
      <Typography.Paragraph type="secondary">{t('audit.intro')}</Typography.Paragraph>
      <Form layout="vertical" disabled={!available || running}>
        <Form.Item label={t('audit.pick')} validateStatus={refused ? 'error' : undefined} help={refused ? refused.detail : undefined}>
          <Segmented
            value={kind}
            onChange={(v) => {
              setKind(v as 'material' | 'work');
              setPhase({ phase: 'idle' });
            }}
            options={(['material', 'work'] as const).map((k) => ({ value: k, label: t(`audit.kinds.${k}`) }))}
            data-testid="audit-kind"
            style={{ marginBottom: 8 }}
          />
          {kind === 'material' ? (
            <ToolInputPicker kind="video" selectedId={materialId} onPick={setMaterialId} testId="audit-input" />
          ) : (
            <WorksPicker value={works} onChange={setWorks} testId={(id) => `audit-work-${String(id)}`} />
          )}
        </Form.Item>
      </Form>
      <Space>
        <Button type="primary" loading={running} disabled={!available || target === null} onClick={() => void run()} data-testid="audit-run">
          {t('audit.run')}
        </Button>
        {running ? (
          <Button danger onClick={stop} data-testid="audit-stop">
            {t('audit.stop')}
          </Button>
        ) : null}
      </Space>
      {running ? <div data-testid="audit-progress">{phase.state ? <TaskProgress state={worded(phase.state)} /> : t('audit.queueing')}</div> : null}
      {phase.phase === 'failed' && !phase.field ? <Alert type="error" showIcon title={phase.title} description={phase.detail || undefined} data-testid="audit-error" /> : null}
      {phase.phase === 'done' ? <ReportView taskId={phase.taskId} report={phase.report} /> : null}
    </Space>
  );
}
