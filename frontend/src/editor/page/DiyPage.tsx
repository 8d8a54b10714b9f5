/**
 * The video editor (`/diy`, spec editor-core §2): header with the task name and save state, the
 * material slot on the left, the stage, the property panel on the right and the scene strip below.
 * `?taskId=N` opens a saved task; without it a new blank document starts.
 */
import { Alert, App, Button, Modal, Result, Space, Spin, Typography } from 'antd';
import dayjs from 'dayjs';
import { useCallback, useEffect, useLayoutEffect, useRef, useState, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useBlocker, useSearchParams } from 'react-router';
import { useTask } from '@/api/videoTask';
import { BeginnerTip } from '@/components/BeginnerTip';
import { DIALOG_WIDTH } from '@/components/dialogWidth';
import { resign } from '@/editor/materials/tickets';
import { Autosave } from '@/editor/autosave/Autosave';
import { PlaybackClock } from '@/editor/playback/clock';
import { ClockContext } from '@/editor/playback/usePlayback';
import { Timeline } from '@/editor/timeline/Timeline';
import { useTaskName } from '@/components/task/taskName';
import { editorActions as a } from '@/editor/state/editorSlice';
import { selectDirty } from '@/editor/state/selectors';
import { ModeBar } from '@/editor/modes/ModeBar';
import { EditorPro } from '@/editor/pro/pro';
import { InCallToggle, InCallWarnings, StageInCallOverlay } from '@/editor/ringtone/InCall';
import { useStoredRecentColors } from './ColorField';
import { LeftPanel } from './LeftPanel';
import { PropertyPanel } from './PropertyPanel';
import { RunModal } from './RunModal';
import { SaveConflict } from './SaveConflict';
import { ShortcutSheet } from './ShortcutSheet';
import { Stage } from './Stage';
import { taskRule } from './taskDocument';
import { Toolbar } from './Toolbar';
import { useEditorDispatch, useEditorSelector } from './useEditor';
import { useEditorKeys } from './useEditorKeys';
import { useSaveRun } from './useSaveRun';
import { useSceneLimit } from './useSceneLimit';

/** Reads `?taskId=`: a positive integer, or null. */
function taskIdParam(value: string | null): number | null {
  const n = value === null ? NaN : Number(value);
  return Number.isInteger(n) && n > 0 ? n : null;
}

function SaveState() {
  const { t } = useTranslation();
  const dirty = useEditorSelector(selectDirty);
  const save = useEditorSelector((s) => s.save);
  const stored = useEditorSelector((s) => s.taskId > 0);
  let text: string;
  if (save.status === 'saving') text = t('editor.save.saving');
  else if (save.status === 'error') text = t('editor.save.failed');
  else if (dirty) text = t('editor.save.unsaved');
  else if (save.savedAt !== null) text = t('editor.save.savedAt', { time: dayjs(save.savedAt).format('HH:mm') });
  // A task opened from the server is saved as it is (its updateTime is the server's local clock
  // without a zone, so no time is shown for it).
  else if (stored) text = t('editor.save.saved');
  else text = t('editor.save.new');
  return (
    <Typography.Text type={save.status === 'error' ? 'danger' : 'secondary'} data-testid="save-state">
      {text}
    </Typography.Text>
  );
}

function Header({ onSave, onRun, busy, extra }: { onSave: () => void; onRun: () => void; busy: boolean; extra?: ReactNode }) {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const name = useEditorSelector((s) => s.name);
  const shown = useTaskName();
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 16, padding: '8px 12px', borderBottom: '1px solid #f0f0f0' }}>
      <Typography.Title
        level={5}
        style={{ margin: 0 }}
        data-testid="task-name"
        editable={{ onChange: (v) => dispatch(a.renameTask(v)), tooltip: t('editor.rename'), maxLength: 60 }}
      >
        {/* The stored default (spec: 未命名) reads in the page's language. */}
        {shown(name)}
      </Typography.Title>
      <SaveState />
      {extra}
      <div style={{ flex: 1 }} />
      <Space>
        <Button onClick={onSave} loading={busy} data-testid="save">
          {t('editor.save.button')}
        </Button>
        <Button type="primary" onClick={onRun} disabled={busy} data-testid="run">
          {t('editor.run.button')}
        </Button>
      </Space>
    </div>
  );
}

function Problems() {
  const { t } = useTranslation();
  const problems = useEditorSelector((s) => s.save.problems);
  if (problems.length === 0) return null;
  return (
    <Alert
      type="error"
      showIcon
      data-testid="save-problems"
      title={t('editor.save.problems', { count: problems.length })}
      description={
        <ul style={{ margin: 0, paddingLeft: 16 }}>
          {problems.map((p, i) => (
            <li key={i}>{p.path ? `${p.path}: ${p.message}` : p.message}</li>
          ))}
        </ul>
      }
    />
  );
}

/** Asks before leaving with unsaved changes: the router's blocker inside the app, beforeunload outside it. */
function LeaveGuard() {
  const { t } = useTranslation();
  const dirty = useEditorSelector(selectDirty);
  const blocker = useBlocker(({ currentLocation, nextLocation }) => dirty && currentLocation.pathname !== nextLocation.pathname);
  useEffect(() => {
    if (!dirty) return;
    const warn = (e: BeforeUnloadEvent) => e.preventDefault();
    window.addEventListener('beforeunload', warn);
    return () => window.removeEventListener('beforeunload', warn);
  }, [dirty]);
  return (
    <Modal
      open={blocker.state === 'blocked'}
      title={t('editor.leave.title')}
      width={DIALOG_WIDTH}
      okText={t('editor.leave.ok')}
      cancelText={t('editor.leave.stay')}
      onOk={() => blocker.proceed?.()}
      onCancel={() => blocker.reset?.()}
    >
      {t('editor.leave.body')}
    </Modal>
  );
}

/** Least editor height, pixels: below it the page scrolls rather than squeezing the stage away. */
const MIN_EDITOR_HEIGHT = 480;

/**
 * Fills the window below the element's top, less its container's bottom padding, following
 * window resizes: the stage takes what the header, toolbar and scene strip leave.
 */
export function useFillHeight(): [(el: HTMLDivElement | null) => void, number | undefined] {
  const [el, setEl] = useState<HTMLDivElement | null>(null);
  const [height, setHeight] = useState<number | undefined>(undefined);
  useLayoutEffect(() => {
    if (!el) return;
    const read = () => {
      const top = el.getBoundingClientRect().top + window.scrollY;
      const parent = el.parentElement;
      const gap = parent ? parseFloat(getComputedStyle(parent).paddingBottom) || 0 : 0;
      setHeight(Math.max(MIN_EDITOR_HEIGHT, Math.floor(window.innerHeight - top - gap)));
    };
    read();
    window.addEventListener('resize', read);
    return () => window.removeEventListener('resize', read);
  }, [el]);
  return [setEl, height];
}

function Editor() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { save, run, saving, running } = useSaveRun();
  const name = useEditorSelector((s) => s.name);
  const [scale, setScale] = useState(1);
  const [runId, setRunId] = useState<number | null>(null);
  const [inCall, setInCall] = useState(false);
  // One answer per click, however fast the clicks come (run() itself makes one task and one render).
  const runClicked = useRef(false);
  const onSave = useCallback(() => {
    void save().then((id) => (id === null ? message.error(t('editor.save.failed')) : message.success(t('editor.save.done'))));
  }, [message, save, t]);
  const onRun = useCallback(() => {
    if (runClicked.current) return;
    runClicked.current = true;
    const answered = () => {
      runClicked.current = false;
    };
    run().then(
      (id) => {
        answered();
        if (id === null) {
          message.error(t('editor.save.failed'));
          return;
        }
        // The run modal says the task is running; a toast over it would cover its text.
        setRunId(id);
      },
      () => {
        answered();
        message.error(t('editor.run.failed'));
      },
    );
  }, [message, run, t]);
  const [sheet, setSheet] = useState(false);
  const openSheet = useCallback(() => setSheet(true), []);
  useEditorKeys(onSave, openSheet);
  useStoredRecentColors();
  useSceneLimit();
  const [fillRef, height] = useFillHeight();
  // The playhead's clock lives as long as the editor; it stops with it.
  const [clock] = useState(() => new PlaybackClock());
  useEffect(() => () => clock.pause(), [clock]);
  return (
    <ClockContext.Provider value={clock}>
    <div ref={fillRef} data-testid="diy-editor" style={{ display: 'flex', flexDirection: 'column', height: height ?? 'calc(100vh - 64px)', minHeight: MIN_EDITOR_HEIGHT, background: '#fff' }}>
      <Header onSave={onSave} onRun={onRun} busy={saving || running} extra={<ModeBar save={save} />} />
      <Autosave />
      <Problems />
      <Toolbar scale={scale} extra={<InCallToggle on={inCall} onChange={setInCall} />} />
      {inCall && <InCallWarnings />}
      <div style={{ display: 'flex', flex: 1, minHeight: 0 }}>
        <aside data-testid="material-slot" style={{ width: 300, flex: 'none', borderRight: '1px solid #f0f0f0', padding: 12, overflowY: 'auto' }}>
          <LeftPanel />
        </aside>
        <Stage onScale={setScale} overlay={inCall ? <StageInCallOverlay scale={scale} /> : null} />
        <aside style={{ width: 280, flex: 'none', borderLeft: '1px solid #f0f0f0' }}>
          <PropertyPanel />
        </aside>
      </div>
      <Timeline />
      <LeaveGuard />
      <ShortcutSheet open={sheet} onClose={() => setSheet(false)} />
      <RunModal taskId={runId} taskName={name} onClose={() => setRunId(null)} />
      <SaveConflict save={save} />
      <BeginnerTip tip="editor" />
    </div>
    </ClockContext.Provider>
  );
}

/**
 * The `/diy` page (and `/editor-pro` with `pro`): opens the task of `?taskId=` or a new document, then the editor.
 * A new document's first save names its task in the address (in place), so a reload, the way back
 * from my works or a sign-in round trip opens this work again rather than a new 未命名 one; the
 * editor already holds that task, so nothing is opened again.
 */
export default function DiyPage({ pro = false }: { pro?: boolean }) {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const [params, setParams] = useSearchParams();
  const taskId = taskIdParam(params.get('taskId'));
  const usedFor = params.get('usedFor') ?? 'ALL';
  const [opened, setOpened] = useState<string | null>(null);
  const held = useEditorSelector((s) => s.taskId);
  const holding = opened !== null && taskId !== null && held === taskId;
  const task = useTask(holding ? null : taskId);
  const [badDocument, setBadDocument] = useState(false);
  const key = `${taskId ?? 'new'}:${usedFor}`;

  useEffect(() => {
    if (taskId !== null || opened !== key || held <= 0) return;
    const named = new URLSearchParams(params);
    named.set('taskId', String(held));
    setParams(named, { replace: true });
  }, [held, key, opened, params, setParams, taskId]);

  useEffect(() => {
    if (opened === key) return;
    if (holding) {
      setOpened(key);
      return;
    }
    if (taskId === null) {
      dispatch(a.newDocument({ usedFor }));
      setOpened(key);
    } else if (task.data) {
      const rule = taskRule(task.data);
      if (!rule) {
        setBadDocument(true);
        setOpened(key);
        return;
      }
      // The saved addresses carry no ticket (or an expired one): the stage needs fresh ones.
      const { taskName, usedFor: savedFor, version } = task.data;
      let live = true;
      void resign(rule).then((signed) => {
        if (!live) return;
        dispatch(a.loaded({ rule: signed, taskId, name: taskName, usedFor: savedFor || usedFor, version }));
        setBadDocument(false);
        setOpened(key);
      });
      return () => {
        live = false;
      };
    }
  }, [dispatch, holding, key, opened, task.data, taskId, usedFor]);

  if (task.isError) return <Result status="warning" title={t('editor.openFailed')} data-testid="diy-open-failed" />;
  if (badDocument) return <Result status="warning" title={t('editor.badDocument')} data-testid="diy-bad-document" />;
  if (opened !== key && !holding) return <Spin style={{ display: 'block', margin: '80px auto' }} />;
  return (
    <EditorPro on={pro}>
      <Editor />
    </EditorPro>
  );
}
