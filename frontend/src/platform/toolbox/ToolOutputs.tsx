import { DownloadOutlined, EditOutlined } from '@ant-design/icons';
import { Alert, Button, Card, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { formatFileSize } from '@/api/material';
import { toolFileUrl, useUseToolOutput, type ToolOutput, type ToolRun } from '@/api/toolbox';
import { TaskStatus, useMediaTicket } from '@/api/videoTask';
import { formatEta as formatClock } from '@/components/task/TaskProgress';

/** An output playing or shown as it is: a player for video and audio, the picture for a GIF or still. */
function OutputMedia({ output, src }: { output: ToolOutput; src: string }) {
  if (output.kind === 'video') return <video controls src={src} style={{ width: '100%', maxHeight: 360, background: '#000', borderRadius: 8, display: 'block' }} data-testid="output-video" />;
  if (output.kind === 'audio') return <audio controls src={src} style={{ width: '100%' }} data-testid="output-audio" />;
  return <img src={src} alt={output.name} style={{ maxWidth: '100%', maxHeight: 360, display: 'block', margin: '0 auto' }} data-testid="output-picture" />;
}

/** The facts of an output: size, length, frame. */
function OutputFacts({ output }: { output: ToolOutput }) {
  const facts = [formatFileSize(output.size)];
  if (output.durationMs > 0) facts.push(formatClock(output.durationMs / 1000));
  if (output.width > 0 && output.height > 0) facts.push(`${output.width}×${output.height}`);
  return (
    <Typography.Text type="secondary" data-testid="output-facts">
      {facts.join(' · ')}
    </Typography.Text>
  );
}

/** A time of the input to the tenth of a second (`1:04.8`): scene cuts fall between whole seconds. */
export function tenths(ms: number): string {
  const tenthsOf = Math.max(0, Math.round(ms / 100));
  const m = Math.floor(tenthsOf / 600);
  const s = (tenthsOf % 600) / 10;
  return `${m}:${s.toFixed(1).padStart(4, '0')}`;
}

/** The stretches of the input an output was made of, when it says. */
function OutputRanges({ output }: { output: ToolOutput }) {
  const { t } = useTranslation();
  const ranges = output.ranges ?? [];
  if (ranges.length === 0) return null;
  const list = ranges.map((r) => `${tenths(r.startMs)}–${tenths(r.endMs)}`).join(', ');
  return (
    <Typography.Text type="secondary" data-testid={`output-ranges-${output.index}`}>
      {t('toolbox.result.ranges', { n: ranges.length, list })}
    </Typography.Text>
  );
}

/** "Use in the editor": the output becomes my material; then the editor or my materials are a click away. */
function UseInEditor({ taskId, index }: { taskId: number; index: number }) {
  const { t } = useTranslation();
  const use = useUseToolOutput();
  const [materialId, setMaterialId] = useState<number | null>(null);
  if (materialId !== null) {
    return (
      <Alert
        type="success"
        showIcon
        title={t('toolbox.result.inLibrary')}
        description={
          <Space wrap>
            <Link to="/diy">
              <Button type="primary" size="small" data-testid="open-editor">
                {t('toolbox.result.openEditor')}
              </Button>
            </Link>
            <Link to="/workbench/my-material">
              <Button size="small">{t('toolbox.result.openLibrary')}</Button>
            </Link>
          </Space>
        }
        data-testid="output-used"
        data-material-id={materialId}
      />
    );
  }
  return (
    <Button icon={<EditOutlined />} loading={use.isPending} onClick={() => use.mutate({ taskId, index }, { onSuccess: (answer) => setMaterialId(answer.materialId) })} data-testid={`use-${index}`}>
      {t('toolbox.result.use')}
    </Button>
  );
}

/** A finished run's outputs: each shown, with its facts, a download and "use in the editor". */
export function ToolOutputs({ run }: { run: ToolRun }) {
  const { t } = useTranslation();
  const done = run.status === TaskStatus.success && run.outputs.length > 0;
  const ticket = useMediaTicket(run.id, done);
  if (!done) return null;
  if (ticket.isError) return <Typography.Text type="danger">{t('tasks.mediaFailed')}</Typography.Text>;
  if (!ticket.data) return <Spin />;
  const key = ticket.data.ticket;
  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="tool-outputs">
      {run.outputs.map((output) => (
        <Card key={output.index} size="small" title={output.name} data-testid={`output-${output.index}`} data-kind={output.kind}>
          <Space orientation="vertical" size={8} style={{ width: '100%' }}>
            <OutputMedia output={output} src={toolFileUrl(run.id, output.index, key)} />
            <OutputFacts output={output} />
            <OutputRanges output={output} />
            <Space wrap>
              <Button type="primary" icon={<DownloadOutlined />} href={toolFileUrl(run.id, output.index, key, true)} download={output.name} data-testid={`download-${output.index}`}>
                {t('tasks.download')}
              </Button>
              <UseInEditor taskId={run.id} index={output.index} />
            </Space>
          </Space>
        </Card>
      ))}
    </Space>
  );
}
