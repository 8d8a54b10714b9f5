/**
 * The editor's autosave and recovery (issue 16): unsaved edits are stored through the edit-history
 * calls 2 s after they rest and when the page goes away; opening a document whose stored edits are
 * newer than it offers them back. The rules are in `autosave.ts`.
 */
import { Alert, Button, Space } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchHistory, storeHistory, storeHistoryOnLeave } from '@/api/history';
import { useAppStore } from '@/app/hooks';
import { resign } from '@/editor/materials/tickets';
import { useEditorDispatch, useEditorSelector } from '@/editor/page/useEditor';
import { editorActions as a } from '@/editor/state/editorSlice';
import { saveableRule, selectDirty } from '@/editor/state/selectors';
import { AUTOSAVE_DEBOUNCE_MS, CLEARED, editToOffer, fingerprint, parseStoredEdit, storedEdit, type StoredEdit } from './autosave';

/** Stores unsaved edits (debounced, on leaving the page, and when the editor closes). */
function useAutosave(): void {
  const store = useAppStore();
  const dirty = useEditorSelector(selectDirty);
  const revision = useEditorSelector((s) => s.revision);
  const taskId = useEditorSelector((s) => s.taskId);
  // The saved document the edits start from: taken whenever the editor holds no unsaved change.
  const base = useRef('');
  const savedTask = useRef(taskId);
  useEffect(() => {
    if (dirty) return;
    const s = store.getState().editor;
    base.current = s.taskId > 0 ? fingerprint(saveableRule(s)) : '';
    // A new document just saved as a task: its unsaved-new state is done with.
    if (savedTask.current <= 0 && s.taskId > 0) void storeHistory(null, CLEARED);
    savedTask.current = s.taskId;
  }, [dirty, revision, store]);

  const snapshot = useCallback(() => {
    const s = store.getState().editor;
    return { taskId: s.taskId, text: storedEdit(base.current, s.name, saveableRule(s), Date.now()) };
  }, [store]);

  useEffect(() => {
    if (!dirty) return undefined;
    const timer = window.setTimeout(() => {
      const now = snapshot();
      void storeHistory(now.taskId, now.text);
    }, AUTOSAVE_DEBOUNCE_MS);
    return () => window.clearTimeout(timer);
  }, [dirty, revision, snapshot]);

  const dirtyNow = useRef(dirty);
  dirtyNow.current = dirty;
  useEffect(() => {
    const leave = () => {
      if (!dirtyNow.current) return;
      const now = snapshot();
      storeHistoryOnLeave(now.taskId, now.text);
    };
    window.addEventListener('pagehide', leave);
    return () => {
      window.removeEventListener('pagehide', leave);
      // The editor closes inside the app (the leave guard let it): store what is unsaved now.
      if (dirtyNow.current) {
        const now = snapshot();
        void storeHistory(now.taskId, now.text);
      }
    };
  }, [snapshot]);
}

/** Offers stored edits newer than the document as opened. */
function RestoreOffer() {
  const { t } = useTranslation();
  const store = useAppStore();
  const dispatch = useEditorDispatch();
  const [offer, setOffer] = useState<StoredEdit | null>(null);
  useEffect(() => {
    const opened = store.getState().editor;
    const rule = saveableRule(opened);
    const openedBase = opened.taskId > 0 ? fingerprint(rule) : '';
    let live = true;
    void fetchHistory(opened.taskId).then((text) => {
      if (live) setOffer(editToOffer(parseStoredEdit(text), rule, openedBase, opened.name));
    });
    return () => {
      live = false;
    };
  }, [store]);
  const restore = useCallback(() => {
    if (!offer) return;
    setOffer(null);
    void resign(offer.rule).then((rule) => dispatch(a.restoreEdit({ rule, name: offer.name })));
  }, [dispatch, offer]);
  if (!offer) return null;
  return (
    <Alert
      type="info"
      showIcon
      data-testid="autosave-offer"
      message={t('editor.autosave.offer', { time: dayjs(offer.at).format('MM-DD HH:mm') })}
      action={
        <Space>
          <Button size="small" type="primary" data-testid="autosave-restore" onClick={restore}>
            {t('editor.autosave.restore')}
          </Button>
          <Button size="small" data-testid="autosave-dismiss" onClick={() => setOffer(null)}>
            {t('editor.autosave.dismiss')}
          </Button>
        </Space>
      }
    />
  );
}

/** Mounted once in the editor: the autosave, and the restore offer under the header. */
export function Autosave() {
  useAutosave();
  return <RestoreOffer />;
}
