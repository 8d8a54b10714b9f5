/**
 * 倒放 / Reverse for a video layer: the server makes the video played backwards
 * (`/material/v2/reverVideo`, a tool run; its sound reversed too), the field shows the run's
 * progress, and once `reverToUuid` answers the reversed material the layer's video becomes it,
 * `reverseBy` recording the original (`editor/model/reverse.ts`), so the renderer plays the file
 * forwards and never reverses it twice. Turning it off puts the original back. A document whose
 * `reverseBy` asks the renderer to reverse the clip itself says so, and can turn that off.
 */
import { Alert, Checkbox, Progress, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { ApiError, errorText } from '@/api/errors';
import { materialInfoQuery } from '@/api/material';
import { reversedOf, reverseVideo } from '@/api/materialEdits';
import type { LayerPatch } from '@/editor/state/editorSlice';
import type { VideoLayer } from '@/editor/model/gen/VideoLayer';
import { mirroredCut, reversedFrom, reversedOnTheFly } from '@/editor/model/reverse';
import { clipCut } from '@/editor/state/timing';
import { useAlive } from './useAlive';

/** How often the reverse's state is read while it runs. */
export const REVERSE_POLL_MS = 1_000;

type Phase = { kind: 'idle' } | { kind: 'running'; percent: number } | { kind: 'failed'; why: string };

export function ReverseField({ layer, set }: { layer: VideoLayer; set: (changes: LayerPatch) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const alive = useAlive();
  const original = reversedFrom(layer.reverseBy);
  const onTheFly = reversedOnTheFly(layer.reverseBy);
  const materialId = layer.materialId === undefined || layer.materialId === '' ? null : String(layer.materialId);
  const src = typeof layer.videoSrc === 'string' ? layer.videoSrc : '';

  const durationOf = async (id: string) => (await queryClient.fetchQuery(materialInfoQuery(id))).duration;

  async function reverse(id: string) {
    setPhase({ kind: 'running', percent: 0 });
    try {
      let state = await reversedOf(id);
      if (state.state === 'none' || state.state === 'error' || state.state === 'cancelled') {
        await reverseVideo(id);
        state = await reversedOf(id);
      }
      while (alive.current && state.state !== 'done') {
        if (state.state === 'error' || state.state === 'cancelled') throw new Error(state.reason || state.state);
        setPhase({ kind: 'running', percent: state.percent });
        await new Promise((resolve) => setTimeout(resolve, REVERSE_POLL_MS));
        state = await reversedOf(id);
      }
      if (!alive.current) return;
      const made = await queryClient.fetchQuery(materialInfoQuery(state.uuid));
      const source = await durationOf(id);
      set({
        materialId: state.uuid,
        videoSrc: made.url,
        reverseBy: { materialId: id, videoSrc: src },
        ...(layer.cutInfo ? { cutInfo: mirroredCut(clipCut(layer, source), source) } : {}),
      });
      setPhase({ kind: 'idle' });
    } catch (e) {
      if (alive.current) setPhase({ kind: 'failed', why: e instanceof ApiError ? errorText(e) : String((e as Error).message) });
    }
  }

  async function restore() {
    if (original === null) {
      set({ reverseBy: null });
      return;
    }
    const source = materialId === null ? 0 : await durationOf(materialId).catch(() => 0);
    set({
      materialId: original.materialId,
      videoSrc: original.videoSrc,
      reverseBy: null,
      ...(layer.cutInfo ? { cutInfo: mirroredCut(clipCut(layer, source), source) } : {}),
    });
  }

  const checked = original !== null || onTheFly;
  return (
    <div style={{ marginBottom: 8 }}>
      <Checkbox
        data-testid="reverse-video"
        checked={checked}
        disabled={phase.kind === 'running' || (!checked && materialId === null)}
        onChange={(e) => void (e.target.checked ? materialId !== null && reverse(materialId) : restore())}
      >
        {t('editor.props.reverse')}
      </Checkbox>
      {phase.kind === 'running' && <Progress size="small" percent={phase.percent} data-testid="reverse-progress" />}
      {phase.kind === 'failed' && <Alert type="error" showIcon title={t('editor.props.reverseFailed', { why: phase.why })} data-testid="reverse-failed" />}
      {onTheFly && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }} data-testid="reverse-on-export">
          {t('editor.props.reverseOnExport')}
        </Typography.Paragraph>
      )}
      {!checked && materialId === null && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }}>
          {t('editor.props.reverseNeedsMaterial')}
        </Typography.Paragraph>
      )}
    </div>
  );
}
