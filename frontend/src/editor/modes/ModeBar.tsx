/**
 * The header's mode strip (spec editor-core §2 `usedFor`): a tag naming the mode; in the template
 * modes the slot counts the server will store (replaceWord / replacePicture / replaceVideo) and
 * 'submit as template' (save, then `POST /template/submit` with the mode's kind); and 'clear'
 * (spec §4), which keeps the sounds of an IVVR task.
 */
import { App, Button, Space, Tag, Tooltip, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSubmitTemplate } from '@/api/template';
import { shallowEqual } from 'react-redux';
import { useAppSelector, useAppStore } from '@/app/hooks';
import { useWarmTip } from '@/components/WarmTip';
import { editorActions as a } from '@/editor/state/editorSlice';
import { useEditorDispatch, useEditorSelector } from '@/editor/page/useEditor';
import { useEditorPro } from '@/editor/pro/pro';
import { modeOf, slotCounts, submitBlock } from './modes';
import { SmartClipsPanel } from './SmartClipsPanel';

const TAG_COLOURS: Record<string, string> = {
  ALL: 'default',
  TASK_TEMPLATE: 'purple',
  AI_TEMPLATE: 'geekblue',
  BUSINESS_CARD_TEMPLATE: 'gold',
  IVVR: 'cyan',
};

/** How a slot shows on the stage: a dashed outline outside its box. */
const SLOT_OUTLINE = '#editor .rf-layer[data-slot="1"] { outline: 2px dashed #7c3aed; outline-offset: 2px; }';

export interface ModeBarProps {
  /** Saves the document; the task id, or null when the save failed. */
  save: () => Promise<number | null>;
}

export function ModeBar({ save }: ModeBarProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useEditorDispatch();
  const store = useAppStore();
  const mode = modeOf(useEditorSelector((s) => s.usedFor));
  // Counted in the selector and compared field by field: a drag on the stage does not redraw the bar.
  const counts = useAppSelector((root) => slotCounts(root.editor.doc), shallowEqual);
  const submit = useSubmitTemplate();
  const pro = useEditorPro();
  const [busy, setBusy] = useState(false);
  const warmTip = useWarmTip();
  const askClear = () =>
    warmTip({
      content: (
        <>
          <div>{t('editorMode.clear.title')}</div>
          <Typography.Text type="secondary">{t(mode.keepAudioOnClear ? 'editorMode.clear.bodyKeepAudio' : 'editorMode.clear.body')}</Typography.Text>
        </>
      ),
      okText: t('editorMode.clear.ok'),
      cancelText: t('editor.leave.stay'),
      okButtonProps: { danger: true },
      onOk: () => void dispatch(a.clearTask()),
    });

  const onSubmit = async () => {
    const block = submitBlock(store.getState().editor.doc, mode);
    if (block !== null || mode.templateKind === null) {
      void message.warning(t(`editorMode.block.${block ?? 'notTemplate'}`));
      return;
    }
    setBusy(true);
    try {
      const taskId = await save();
      if (taskId === null) return;
      await submit.mutateAsync({ taskId, kind: mode.templateKind, categoryIds: [], sizeCategoryId: store.getState().editor.doc.resolutionRatio.sizeId });
      void message.success(t('editorMode.submitted'));
    } catch {
      // The API client has shown the server's reason.
    } finally {
      setBusy(false);
    }
  };

  return (
    <Space size={8} data-testid="mode-bar">
      {/* In the template modes a replaceable layer is outlined on the stage. */}
      {mode.slots && <style>{SLOT_OUTLINE}</style>}
      <Tooltip title={t(`editorMode.hint.${mode.usedFor}`)}>
        <Tag color={TAG_COLOURS[mode.usedFor]} data-testid="mode-tag" style={{ marginInlineEnd: 0 }}>
          {t(`editorMode.name.${mode.usedFor}`)}
        </Tag>
      </Tooltip>
      {pro && (
        <Tag color="magenta" data-testid="pro-tag" style={{ marginInlineEnd: 0 }}>
          {t('editorPro.tag')}
        </Tag>
      )}
      {mode.slots && (
        <Typography.Text type="secondary" data-testid="slot-counts">
          {t('editorMode.counts', { text: counts.text, picture: counts.picture, video: counts.video })}
        </Typography.Text>
      )}
      {mode.templateKind !== null && (
        <Button size="small" onClick={() => void onSubmit()} loading={busy} data-testid="submit-template">
          {t('editorMode.submit')}
        </Button>
      )}
      {mode.usedFor === 'AI_TEMPLATE' && <SmartClipsPanel />}
      <Button size="small" onClick={askClear} data-testid="clear-task">
        {t('editorMode.clear.button')}
      </Button>
    </Space>
  );
}
