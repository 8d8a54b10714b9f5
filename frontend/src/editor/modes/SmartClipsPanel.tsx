/**
 * The AI template mode's smart clips (editor-core §2 "AI smart-task flow"): one of my videos and an
 * industry go to `/aitask/smartClips`; the task is read back until done, when its clips (the
 * liveliest scenes, each its own clip) are my materials, found under "Mine" in the library.
 */
import { ScissorOutlined } from '@ant-design/icons';
import { Alert, Button, Drawer, Form, InputNumber, Progress, Select, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useIndustries, useSmartClips, useSmartTask } from '@/api/aitask';
import type { TaskVideoCategory } from '@/api/category';
import { tenths } from '@/platform/toolbox/ToolOutputs';
import { ToolInputPicker } from '@/platform/toolbox/ToolInputPicker';
import { refusalText } from '@/platform/toolbox/toolText';

/** The clips' total length the panel starts from, seconds. */
const DEFAULT_SECONDS = 15;

/** Both levels of the industry tree as options, a second level named after its first. */
function industryOptions(tree: TaskVideoCategory[]): { value: number; label: string }[] {
  return tree.flatMap((c) => [{ value: c.categoryId, label: c.categoryName }, ...(c.children ?? []).map((k) => ({ value: k.categoryId, label: `${c.categoryName} / ${k.categoryName}` }))]);
}

/** A smart task read until it ends: its state, progress, and once done its clips. */
export function SmartTaskView({ id }: { id: number }) {
  const { t } = useTranslation();
  const task = useSmartTask(id);
  const s = task.data;
  if (!s) return <Progress percent={0} />;
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="smart-task" data-state={s.state}>
      <Typography.Text>{t(`smartTask.state.${s.state}`)}</Typography.Text>
      <Progress percent={s.progress} status={s.state === 'failed' ? 'exception' : s.state === 'done' ? 'success' : 'active'} />
      {s.state === 'failed' ? <Alert type="error" showIcon title={s.reason} data-testid="smart-task-failed" /> : null}
      {s.state === 'done' ? (
        <>
          <Alert type="success" showIcon title={t('smartTask.done', { count: s.aiCutedIds.length })} data-testid="smart-task-done" />
          {s.src ? <video controls src={s.src} style={{ width: '100%', maxHeight: 240, background: '#000' }} data-testid="smart-task-video" /> : null}
          <Typography.Text type="secondary" data-testid="smart-task-ranges">
            {t('smartTask.ranges', { list: s.ranges.map((r) => `${tenths(r.startMs)}–${tenths(r.endMs)}`).join(', ') })}
          </Typography.Text>
        </>
      ) : null}
    </Space>
  );
}

/** The mode bar's "smart clips" button and its drawer. */
export function SmartClipsPanel() {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const [materialId, setMaterialId] = useState<string | null>(null);
  const [industryId, setIndustryId] = useState<number | null>(null);
  const [seconds, setSeconds] = useState(DEFAULT_SECONDS);
  const [taskId, setTaskId] = useState<number | null>(null);
  const industries = useIndustries();
  const start = useSmartClips();
  const onStart = () => {
    if (!materialId) return;
    start.mutate({ materialIds: [materialId], industryId: industryId ?? 0, targetMs: Math.round(seconds * 1000) }, { onSuccess: (answer) => setTaskId(answer.id) });
  };
  return (
    <>
      <Button size="small" icon={<ScissorOutlined />} onClick={() => setOpen(true)} data-testid="smart-clips">
        {t('smartTask.open')}
      </Button>
      <Drawer title={t('smartTask.title')} open={open} onClose={() => setOpen(false)} size="large" data-testid="smart-clips-drawer">
        <Typography.Paragraph type="secondary">{t('smartTask.about')}</Typography.Paragraph>
        {taskId !== null ? (
          <Space orientation="vertical" style={{ width: '100%' }}>
            <SmartTaskView id={taskId} />
            <Button onClick={() => setTaskId(null)} data-testid="smart-task-again">
              {t('smartTask.again')}
            </Button>
          </Space>
        ) : (
          <Form layout="vertical" component="div">
            <Form.Item label={t('smartTask.video')}>
              <ToolInputPicker kind="video" selectedId={materialId} onPick={setMaterialId} testId="smart-task-picker" />
            </Form.Item>
            <Form.Item label={t('smartTask.industry')}>
              <Select
                allowClear
                loading={industries.isLoading}
                value={industryId}
                onChange={(v) => setIndustryId(v ?? null)}
                options={industryOptions(industries.data ?? [])}
                placeholder={t('smartTask.anyIndustry')}
                style={{ width: 260 }}
                data-testid="smart-task-industry"
              />
            </Form.Item>
            <Form.Item label={t('smartTask.length')}>
              <InputNumber<number> min={1} max={3_600} step={1} value={seconds} onChange={(v) => setSeconds(v ?? DEFAULT_SECONDS)} suffix={t('toolbox.options.secondsUnit')} data-testid="smart-task-length" />
            </Form.Item>
            {start.error ? <Alert type="error" showIcon title={refusalText(t, start.error)} data-testid="smart-task-refused" style={{ marginBottom: 12 }} /> : null}
            <Button type="primary" disabled={!materialId} loading={start.isPending} onClick={onStart} data-testid="smart-task-start">
              {t('smartTask.start')}
            </Button>
          </Form>
        )}
      </Drawer>
    </>
  );
}
