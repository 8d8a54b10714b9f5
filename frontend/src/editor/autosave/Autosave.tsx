/**
 * The editor's autosave and recovery (issue 16): unsaved edits are stored through the edit-history
 * calls 2 s after they rest (3 s after a change at most, while edits keep coming) and when the page
 * goes away; a store that fails says 保存失败 and is tried again (after a wait, and when the browser
 * is back online). Opening a document whose stored edits are newer than it offers them back. The
 * rules are in `autosave.ts`.
 */
import { Alert, App, Button, Space } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useRef, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { fetchHistory, storeHistory, storeHistoryOnLeave } from '@/api/history';
import { useAppStore } from '@/app/hooks';
import { resign } from '@/editor/materials/tickets';
import { useEditorDispatch, useEditorSelector } from '@/editor/page/useEditor';
import { editorActions as a } from '@/editor/state/editorSlice';
import { saveableRule, selectDirty } from '@/editor/state/selectors';
import { AUTOSAVE_RETRY_MS, CLEARED, editToOffer, fingerprint, parseStoredEdit, storeDelay, storedEdit, type StoredEdit } from './autosave';

/** The key of the failure toast, which the next store that goes through replaces. */
const FAILED_TOAST = 'autosave-failed';

/** Stores unsaved edits (debounced, on leaving the page, and when the editor closes). */
function useAutosave(): void {
  const { t } = useTranslation();
  const { message } = App.useApp();
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

  // When the oldest change not stored yet was made (ms); null when every change is stored.
  const pending = useRef<number | null>(null);
  // Stores failed in a row: the toast says so from the first, and each failure waits longer.
  const failed = useRef(0);
  const [failures, setFailures] = useState(0);
  const storeNow = useCallback(async () => {
    pending.current = null;
    const now = snapshot();
    const stored = (await storeHistory(now.taskId, now.text)) > 0;
    if (stored && failed.current > 0) void message.success({ key: FAILED_TOAST, content: t('editor.autosave.recovered') });
    failed.current = stored ? 0 : failed.current + 1;
    setFailures(failed.current);
  }, [message, snapshot, t]);

  useEffect(() => {
    if (!dirty) {
      pending.current = null;
      return undefined;
    }
    const now = Date.now();
    pending.current ??= now;
    const timer = window.setTimeout(() => void storeNow(), storeDelay(now, pending.current));
    return () => window.clearTimeout(timer);
  }, [dirty, revision, storeNow]);

  // A failed store (offline, the server away) is tried again with what is unsaved then.
  useEffect(() => {
    if (failures === 0) return undefined;
    if (failures === 1) void message.error({ key: FAILED_TOAST, content: t('editor.autosave.failed'), duration: 0 });
    const retry = () => void storeNow();
    const timer = window.setTimeout(retry, AUTOSAVE_RETRY_MS[Math.min(failures, AUTOSAVE_RETRY_MS.length) - 1]);
    window.addEventListener('online', retry);
    return () => {
      window.clearTimeout(timer);
      window.removeEventListener('online', retry);
    };
  }, [failures, message, storeNow, t]);
  useEffect(() => () => message.destroy(FAILED_TOAST), [message]);

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
