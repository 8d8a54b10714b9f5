import { Alert, Button, Card, Form, Input, Radio, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import { useTemplateSlots, type TemplateSlot, type TemplateSummary } from '@/api/template';
import { SlotPicture } from '@/platform/templates/components/SlotPicture';
import { ToolInputPicker, useToolInput } from '@/platform/toolbox/ToolInputPicker';
import type { StartHandoff, StartJob } from './startJobs';
import { TemplateChooser } from './TemplateChooser';

/** The picture slots of a template, in document order. */
export function pictureSlots(slots: readonly TemplateSlot[]): TemplateSlot[] {
  return slots.filter((s) => s.materialType === 'picture');
}

/** The job of the page's choices, or null while one is missing. */
export function putImageJob(materialId: string | null, template: TemplateSummary | null, slotId: string | null, name: string): StartJob | null {
  if (!materialId || !template || !slotId) return null;
  return { kind: 'putImage', name: name.trim(), templateId: template.id, slotId, materialId };
}

function SlotChoice({ slots, value, onChange }: { slots: TemplateSlot[]; value: string | null; onChange: (id: string) => void }) {
  const { t } = useTranslation();
  if (slots.length === 0) return <Typography.Text type="danger">{t('start.putImage.noSlot')}</Typography.Text>;
  return (
    <Radio.Group value={value} onChange={(e) => onChange(String(e.target.value))} data-testid="put-image-slots">
      <Space wrap>
        {slots.map((slot, i) => (
          <Radio key={slot.id} value={slot.id} data-testid={`put-image-slot-${slot.id}`}>
            <Space size={4}>
              <SlotPicture src={slot.content} alt={t('start.putImage.slotN', { n: i + 1, scene: slot.sceneIndex + 1 })} />
              {t('start.putImage.slotN', { n: i + 1, scene: slot.sceneIndex + 1 })}
            </Space>
          </Radio>
        ))}
      </Space>
    </Radio.Group>
  );
}

/**
 * `/put-image`: one of my pictures (or a new upload), a template with a picture slot and which slot;
 * /loading fills the template with the picture and opens the editor on the new task.
 */
export function PutImagePage() {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const [materialId, setMaterialId] = useState<string | null>(null);
  const [template, setTemplate] = useState<TemplateSummary | null>(null);
  const [slotId, setSlotId] = useState<string | null>(null);
  const [name, setName] = useState('');
  const picture = useToolInput(materialId);
  const slots = useTemplateSlots(template?.id ?? null);
  const pictures = pictureSlots(slots.data ?? []);
  // The first picture slot until another is chosen.
  const slot = slotId ?? pictures[0]?.id ?? null;
  const ready = picture.data?.state === 'ready';
  const job = ready ? putImageJob(materialId, template, slot, name) : null;
  const start = () => {
    if (!job) return;
    const handoff: StartHandoff = { job, back: '/put-image' };
    void navigate('/loading', { state: handoff });
  };
  return (
    <div style={{ maxWidth: 1100, margin: '0 auto' }} data-testid="put-image">
      <Typography.Title level={3}>{t('page.putImage')}</Typography.Title>
      <Space orientation="vertical" size="middle" style={{ width: '100%' }}>
        <Card title={t('start.putImage.step1')}>
          <ToolInputPicker kind="picture" selectedId={materialId} onPick={setMaterialId} testId="put-image-picture" />
          {picture.data?.state === 'processing' ? <Typography.Text type="secondary">{t('start.putImage.probing')}</Typography.Text> : null}
          {picture.data?.state === 'failed' ? <Alert type="error" showIcon title={t('start.problem.notReady')} /> : null}
        </Card>
        <Card title={t('start.putImage.step2')}>
          <TemplateChooser
            needsPicture
            value={template}
            onChange={(tpl) => {
              setTemplate(tpl);
              setSlotId(null);
            }}
          />
        </Card>
        <Card title={t('start.putImage.step3')}>
          <Form layout="vertical">
            {template ? (
              <Form.Item label={t('start.putImage.slot')}>
                {slots.isPending ? <Spin /> : <SlotChoice slots={pictures} value={slot} onChange={setSlotId} />}
              </Form.Item>
            ) : null}
            <Form.Item label={t('start.name')}>
              <Input value={name} maxLength={64} placeholder={template?.taskName ?? t('tasks.untitled')} onChange={(e) => setName(e.target.value)} data-testid="put-image-name" />
            </Form.Item>
            <Space>
              <Button type="primary" disabled={!job} onClick={start} data-testid="put-image-start">
                {t('start.putImage.create')}
              </Button>
              {!job ? <Typography.Text type="secondary">{t('start.putImage.missing')}</Typography.Text> : null}
            </Space>
          </Form>
        </Card>
      </Space>
    </div>
  );
}
