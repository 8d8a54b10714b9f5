import { App, Button, Drawer, Empty, Form, Input, Result, Space, Spin, Tag, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useNavigate } from 'react-router';
import type { Material } from '@/api/material';
import { useFillTemplate, useTemplateSlots, type TemplateSlot, type TemplateSummary } from '@/api/template';
import { editorLinkFor } from '@/app/editor';
import { MaterialSlotPicker } from './components/MaterialSlotPicker';
import { SlotPicture } from './components/SlotPicture';

export interface FillTemplateDrawerProps {
  /** The template being used; null keeps the drawer closed. */
  template: TemplateSummary | null;
  onClose: () => void;
}

interface FillValues {
  name: string;
  texts: Record<string, string | undefined>;
}

type Next = 'editor' | 'works';

/**
 * Returns the replaces of POST /template/fill: the texts that differ from the template's and every
 * picked material. Untouched media slots are left out, since the template's own files are not the
 * caller's materials and the server refuses those.
 */
export function buildReplaces(slots: readonly TemplateSlot[], texts: Record<string, string | undefined>, picked: Record<string, Material>) {
  const replaces: { id: string; replaceContent: string }[] = [];
  for (const slot of slots) {
    if (slot.materialType === 'text') {
      const text = texts[slot.id];
      if (text !== undefined && text !== slot.content) replaces.push({ id: slot.id, replaceContent: text });
    } else {
      const material = picked[slot.id];
      if (material) replaces.push({ id: slot.id, replaceContent: material.url });
    }
  }
  return replaces;
}

function SlotLabel({ slot, index }: { slot: TemplateSlot; index: number }) {
  const { t } = useTranslation();
  return (
    <Space size={4}>
      <Tag>{t(`tpl.slotKind.${slot.materialType}`)}</Tag>
      {t('tpl.slotN', { n: index + 1, scene: slot.sceneIndex + 1 })}
    </Space>
  );
}

/** The picture shown for a media slot: the chosen material's, else the template's own picture. */
function slotThumb(slot: TemplateSlot, material: Material | undefined): string | undefined {
  if (material) return material.coverUrl || (slot.materialType === 'picture' ? material.url : undefined);
  return slot.materialType === 'picture' ? slot.content : undefined;
}

function MediaSlot({ slot, material, onChoose }: { slot: TemplateSlot; material: Material | undefined; onChoose: () => void }) {
  const { t } = useTranslation();
  const thumb = slotThumb(slot, material);
  return (
    <Space data-testid={`slot-media-${slot.id}`}>
      {thumb ? <SlotPicture src={thumb} alt={material ? material.materialName : t('tpl.keepOriginal')} /> : null}
      <Typography.Text type={material ? undefined : 'secondary'} data-testid="slot-media-name">
        {material ? material.materialName : t('tpl.keepOriginal')}
      </Typography.Text>
      <Button size="small" onClick={onChoose} data-testid={`slot-pick-${slot.id}`}>
        {t('tpl.choose')}
      </Button>
    </Space>
  );
}

function FillForm({ template, slots, onDone }: { template: TemplateSummary; slots: TemplateSlot[]; onDone: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const navigate = useNavigate();
  const [form] = Form.useForm<FillValues>();
  const [picked, setPicked] = useState<Record<string, Material>>({});
  const [picking, setPicking] = useState<TemplateSlot | null>(null);
  const fill = useFillTemplate();

  const submit = async (next: Next) => {
    const values = await form.validateFields().catch(() => null);
    if (!values) return;
    const name = values.name.trim();
    fill.mutate(
      { templateId: template.id, ...(name ? { name } : {}), replaces: buildReplaces(slots, values.texts ?? {}, picked) },
      {
        onSuccess: ({ taskId }) => {
          // The drawer closes and the page changes: without a word the user cannot tell the work was made.
          void message.success(t('tpl.made', { name: name || template.taskName }));
          onDone();
          void navigate(next === 'editor' ? editorLinkFor(taskId) : '/my-works');
        },
      },
    );
  };

  const texts = Object.fromEntries(slots.filter((s) => s.materialType === 'text').map((s) => [s.id, s.content]));
  return (
    <>
      <Form form={form} layout="vertical" initialValues={{ name: template.taskName, texts }} data-testid="fill-form">
        <Form.Item name="name" label={t('tpl.workName')} rules={[{ max: 64, message: t('tpl.tooLong', { max: 64 }) }]}>
          <Input data-testid="fill-name" />
        </Form.Item>
        {slots.length === 0 ? <Empty description={t('tpl.noSlots')} data-testid="fill-no-slots" /> : null}
        {slots.map((slot, i) =>
          slot.materialType === 'text' ? (
            <Form.Item
              key={slot.id}
              name={['texts', slot.id]}
              label={<SlotLabel slot={slot} index={i} />}
              rules={slot.maxLength > 0 ? [{ max: slot.maxLength, message: t('tpl.tooLong', { max: slot.maxLength }) }] : []}
            >
              <Input.TextArea rows={2} count={slot.maxLength > 0 ? { show: true, max: slot.maxLength } : undefined} data-testid={`slot-text-${slot.id}`} />
            </Form.Item>
          ) : (
            <Form.Item key={slot.id} label={<SlotLabel slot={slot} index={i} />}>
              <MediaSlot slot={slot} material={picked[slot.id]} onChoose={() => setPicking(slot)} />
            </Form.Item>
          ),
        )}
        <Space>
          <Button type="primary" loading={fill.isPending} onClick={() => void submit('editor')} data-testid="fill-edit">
            {t('tpl.makeAndEdit')}
          </Button>
          <Button loading={fill.isPending} onClick={() => void submit('works')} data-testid="fill-works">
            {t('tpl.makeToWorks')}
          </Button>
        </Space>
      </Form>
      <MaterialSlotPicker
        kind={picking && picking.materialType !== 'text' ? picking.materialType : null}
        onCancel={() => setPicking(null)}
        onPick={(material) => {
          if (picking) setPicked((all) => ({ ...all, [picking.id]: material }));
          setPicking(null);
        }}
      />
    </>
  );
}

function FillBody({ template, onClose }: { template: TemplateSummary; onClose: () => void }) {
  const { t } = useTranslation();
  const slots = useTemplateSlots(template.id);
  if (slots.isPending) return <Spin style={{ display: 'block', margin: '40px auto' }} />;
  if (slots.isError) return <Result status="warning" title={t('tpl.slotsFailed')} data-testid="fill-slots-error" />;
  return <FillForm template={template} slots={slots.data} onDone={onClose} />;
}

/** 'Use this template': one input per text slot (within its length), a material picker per picture or video slot, then a new work. */
export function FillTemplateDrawer({ template, onClose }: FillTemplateDrawerProps) {
  const { t } = useTranslation();
  return (
    <Drawer open={template !== null} onClose={onClose} title={template ? t('tpl.fillTitle', { name: template.taskName }) : ''} size={520} destroyOnHidden data-testid="fill-drawer">
      {template ? <FillBody key={template.id} template={template} onClose={onClose} /> : null}
    </Drawer>
  );
}
