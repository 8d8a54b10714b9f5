/**
 * Text to image's and similar image's ability page: a prompt (or one of my pictures, picked or
 * uploaded), the size and how many, then the run on the render farm with its progress and its
 * pictures shown, downloaded or put in my materials for the editor (the toolbox's run view: a
 * picture run is a run of the same job model). A refusal shows under the field it names.
 */
import { Alert, Button, Form, Input, InputNumber, Select, Space } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError } from '@/api/errors';
import { MAX_PICTURES, MAX_PROMPT, PICTURE_SIZES, type PictureSize, similarImage, TEXT_TO_IMAGE, textToImage } from '@/api/picture';
import { refusedField } from '@/api/toolbox';
import { ToolInputPicker } from '@/platform/toolbox/ToolInputPicker';
import { ToolRunView } from '@/platform/toolbox/ToolRunView';

type Refusal = { field: string | null; text: string };

export function PicturePanel({ ability, available }: { ability: string; available: boolean }) {
  const { t } = useTranslation();
  const fromText = ability === TEXT_TO_IMAGE;
  const [prompt, setPrompt] = useState('');
  const [materialId, setMaterialId] = useState<string | null>(null);
  const [size, setSize] = useState<PictureSize>('512x512');
  const [count, setCount] = useState(1);
  const [taskId, setTaskId] = useState<number | null>(null);
  const [refusal, setRefusal] = useState<Refusal | null>(null);
  const [starting, setStarting] = useState(false);
  const ready = fromText ? prompt.trim() !== '' : materialId !== null;

  const run = async () => {
    setStarting(true);
    setRefusal(null);
    try {
      const queued = fromText ? await textToImage({ prompt, size, count }) : await similarImage({ materialId: materialId ?? '', size, count });
      setTaskId(queued.taskId);
    } catch (err) {
      const field = refusedField(err);
      const words = err instanceof ApiError ? (err.desc ?? err.message) : String(err);
      setRefusal({ field, text: field ? t(`picture.refused.${field}`, { defaultValue: words }) : words });
    } finally {
      setStarting(false);
    }
  };
  const under = (field: string) => (refusal?.field === field ? { validateStatus: 'error' as const, help: <span data-testid={`picture-refused-${field}`}>{refusal.text}</span> } : {});

  return (
    <Space orientation="vertical" size={12} style={{ width: '100%' }} data-testid="picture-panel">
      <Form layout="vertical" disabled={!available || starting}>
        {fromText ? (
          <Form.Item label={t('picture.prompt')} {...under('prompt')}>
            <Input.TextArea
              value={prompt}
              onChange={(e) => setPrompt(e.target.value)}
              placeholder={t('picture.promptPlaceholder')}
              autoSize={{ minRows: 3, maxRows: 8 }}
              showCount
              maxLength={MAX_PROMPT}
              data-testid="picture-prompt"
            />
          </Form.Item>
        ) : (
          <Form.Item label={t('picture.source')} {...under('materialId')}>
            <ToolInputPicker kind="picture" selectedId={materialId} onPick={setMaterialId} testId="picture-source" />
          </Form.Item>
        )}
        <Space wrap size={24}>
          <Form.Item label={t('picture.size')} {...under('size')}>
            <Select<PictureSize> value={size} onChange={setSize} style={{ width: 160 }} data-testid="picture-size" options={PICTURE_SIZES.map((s) => ({ value: s, label: s.replace('x', ' × ') }))} />
          </Form.Item>
          <Form.Item label={t('picture.count')} {...under('count')}>
            <InputNumber min={1} max={MAX_PICTURES} precision={0} value={count} onChange={(v) => setCount(v ?? 1)} data-testid="picture-count" />
          </Form.Item>
        </Space>
      </Form>
      <Button type="primary" loading={starting} disabled={!available || !ready} onClick={() => void run()} data-testid="picture-run">
        {t(fromText ? 'picture.runText' : 'picture.runSimilar')}
      </Button>
      {refusal && !refusal.field ? <Alert type="error" showIcon title={t('picture.notStarted')} description={refusal.text} data-testid="picture-error" /> : null}
      {taskId !== null ? <ToolRunView key={taskId} taskId={taskId} /> : null}
    </Space>
  );
}
