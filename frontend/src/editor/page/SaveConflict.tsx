/**
 * The prompt of a save refused as stale: the task was saved elsewhere (another tab or device) since
 * this editor opened it, and nothing was stored. The user chooses: load the stored version (the
 * edits here are dropped) or keep this one (saved over the stored one, on purpose). A save is never
 * a silent overwrite.
 */
import { App, Button, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchTask } from '@/api/videoTask';
import { resign } from '@/editor/materials/tickets';
import { editorActions as a } from '@/editor/state/editorSlice';
import { taskRule } from './taskDocument';
import { useEditorDispatch, useEditorSelector } from './useEditor';

/** Mounted once in the editor; `save` is the editor's save (one at a time). */
export function SaveConflict({ save }: { save: () => Promise<number | null> }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useEditorDispatch();
  const open = useEditorSelector((s) => s.conflict);
  const taskId = useEditorSelector((s) => s.taskId);
  const [busy, setBusy] = useState<'theirs' | 'mine' | null>(null);

  // A failed read is already said by the client's toast; the prompt stays for another try.
  const choose = (which: 'theirs' | 'mine') => async () => {
    setBusy(which);
    try {
      const stored = await fetchTask(taskId);
      if (which === 'mine') {
        dispatch(a.keepMine({ version: stored.version ?? 0 }));
        const saved = await save();
        void (saved === null ? message.error(t('editor.save.failed')) : message.success(t('editor.save.done')));
        return;
      }
      const rule = taskRule(stored);
      if (!rule) {
        void message.error(t('editor.conflict.loadFailed'));
        return;
      }
      const signed = await resign(rule);
      dispatch(a.loaded({ rule: signed, taskId, name: stored.taskName, usedFor: stored.usedFor, version: stored.version ?? 0 }));
    } catch {
      // Said by the client (a network or server failure of the read).
    } finally {
      setBusy(null);
    }
  };

  return (
    <Modal
      open={open}
      title={t('editor.conflict.title')}
      closable={false}
      maskClosable={false}
      keyboard={false}
      data-testid="save-conflict"
      footer={[
        <Button key="theirs" data-testid="conflict-theirs" loading={busy === 'theirs'} disabled={busy !== null} onClick={choose('theirs')}>
          {t('editor.conflict.theirs')}
        </Button>,
        <Button key="mine" type="primary" data-testid="conflict-mine" loading={busy === 'mine'} disabled={busy !== null} onClick={choose('mine')}>
          {t('editor.conflict.mine')}
        </Button>,
      ]}
    >
      <Typography.Paragraph>{t('editor.conflict.body')}</Typography.Paragraph>
    </Modal>
  );
}
