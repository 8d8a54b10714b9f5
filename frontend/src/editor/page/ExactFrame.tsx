/**
 * The exact-frame button: asks the server for the still the render engine draws at the current
 * time (`POST /videotask/frame`) and shows it in a drawer beside the live stage, so the user can
 * check the output before making the video. The drawer has no mask: the stage stays usable, and
 * "refresh" draws the still of the edited document again.
 */
import { useCallback, useEffect, useState } from 'react';
import { Alert, Button, Drawer, Space, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { api } from '@/api/client';
import { useAppStore } from '@/app/hooks';
import type { EditorState } from '@/editor/state/editorSlice';
import { saveableRule, selectCurrentScene } from '@/editor/state/selectors';
import { ApiError, errorText } from '@/api/errors';

/** The still route. */
export const FRAME_URL = '/videotask/frame';

/**
 * The time the stage shows, seconds: the middle of the current scene (the stage draws every layer
 * of the scene at once, and new layers span its start; the middle is past the incoming transition).
 */
export function stageTime(s: EditorState): number {
  const current = selectCurrentScene(s);
  let start = 0;
  for (const scene of s.doc.scenes) {
    if (scene === current) break;
    start += scene.timeLength;
  }
  return Math.round((start + current.timeLength / 2) * 1000) / 1000;
}

/** Asks for the still of `s`'s document at its stage time; resolves to a PNG blob or rejects with the server's reason. */
export async function fetchStill(s: EditorState): Promise<{ png: Blob; time: number }> {
  const time = stageTime(s);
  const answer = await api.post<Blob>(FRAME_URL, { taskInfo: JSON.stringify(saveableRule(s)), time }, { responseType: 'blob', silent: true });
  if (answer.type.includes('json')) {
    const body = JSON.parse(await answer.text()) as { desc?: string };
    throw new Error(body.desc ?? 'no still');
  }
  return { png: answer, time };
}

type Still = { kind: 'idle' } | { kind: 'loading' } | { kind: 'shown'; url: string; time: number } | { kind: 'failed'; reason: string };

export function ExactFrame() {
  const { t } = useTranslation();
  const store = useAppStore();
  const [open, setOpen] = useState(false);
  const [still, setStill] = useState<Still>({ kind: 'idle' });

  const draw = useCallback(async () => {
    setStill({ kind: 'loading' });
    try {
      const { png, time } = await fetchStill(store.getState().editor);
      setStill({ kind: 'shown', url: URL.createObjectURL(png), time });
    } catch (err) {
      setStill({ kind: 'failed', reason: err instanceof ApiError ? errorText(err) : err instanceof Error ? err.message : String(err) });
    }
  }, [store]);

  // Each object URL is given back when the next still replaces it or the page closes.
  useEffect(() => {
    if (still.kind !== 'shown') return;
    return () => URL.revokeObjectURL(still.url);
  }, [still]);

  return (
    <>
      <Button
        data-testid="exact-frame"
        onClick={() => {
          setOpen(true);
          void draw();
        }}
      >
        {t('exactFrame.button')}
      </Button>
      <Drawer
        open={open}
        onClose={() => setOpen(false)}
        title={t('exactFrame.title')}
        size={480}
        mask={false}
        data-testid="exact-frame-drawer"
        extra={
          <Button size="small" onClick={() => void draw()} disabled={still.kind === 'loading'} data-testid="exact-frame-refresh">
            {t('exactFrame.refresh')}
          </Button>
        }
      >
        <Space direction="vertical" style={{ width: '100%' }}>
          {still.kind === 'loading' && <Spin data-testid="exact-frame-loading" />}
          {still.kind === 'failed' && <Alert type="error" showIcon title={t('exactFrame.failed')} description={still.reason} data-testid="exact-frame-error" />}
          {still.kind === 'shown' && (
            <>
              <img src={still.url} alt={t('exactFrame.alt', { time: still.time })} data-testid="exact-frame-image" style={{ width: '100%', border: '1px solid #f0f0f0' }} />
              <Typography.Text type="secondary">{t('exactFrame.at', { time: still.time })}</Typography.Text>
            </>
          )}
        </Space>
      </Drawer>
    </>
  );
}
