/**
 * 裁剪画面 / Crop for a video layer: the user picks the part of the picture to keep in the crop
 * dialog, over the frame at the clip's in point; the server cuts it from the whole video
 * (`/material/cropVideo`, a VIDEO_CROP tool run), the field shows the run's progress, and its
 * output, made the caller's material, replaces the layer's video. The clip keeps its length, so the
 * layer keeps its in/out and timing; its box takes the crop's ratio, as a picture's crop does.
 * Refusals are the server's words, in the dialog. A video stored on its side (a phone's `rotation`)
 * is cropped as the browser shows it: the library's size is the upright one and the tool turns the
 * pictures upright before it cuts. A reversed file is not offered the crop: a crop of it would be
 * lost when the reverse is turned off.
 */
import { ScissorOutlined } from '@ant-design/icons';
import { Alert, Button, Progress, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { materialInfoQuery, useMaterialInfo } from '@/api/material';
import { cropVideo } from '@/api/materialEdits';
import type { VideoLayer } from '@/editor/model/gen/VideoLayer';
import { reversedFrom } from '@/editor/model/reverse';
import { followRun } from '@/editor/reverse/followRun';
import { useAlive } from '@/editor/reverse/useAlive';
import type { LayerPatch } from '@/editor/state/editorSlice';
import { clipCut } from '@/editor/state/timing';
import { boxForCrop, MIN_VIDEO_CROP_PX, toVideoBox, type Rect, type Size } from './crop';
import { CropDialog } from './CropDialog';
import { readyMaterial } from './readyMaterial';
import { refusalText } from './refusal';

/** How long the cropped video may take to be probed before the crop gives up (ms). */
const READY_TIMEOUT_MS = 120_000;

type Phase = { kind: 'idle' } | { kind: 'running'; percent: number } | { kind: 'failed'; why: string };

export function VideoCropField({ layer, set }: { layer: VideoLayer; set: (changes: LayerPatch) => void }) {
  const { t } = useTranslation();
  const queryClient = useQueryClient();
  const [open, setOpen] = useState(false);
  const [phase, setPhase] = useState<Phase>({ kind: 'idle' });
  const alive = useAlive();
  const materialId = layer.materialId === undefined || layer.materialId === '' ? null : String(layer.materialId);
  const info = useMaterialInfo(materialId).data;
  const src = typeof layer.videoSrc === 'string' ? layer.videoSrc : '';
  const why =
    materialId === null
      ? t('videoCrop.needsMaterial')
      : reversedFrom(layer.reverseBy) !== null
        ? t('videoCrop.reversed')
        : null;

  // A refusal throws into the dialog, which stays open; a queued run closes it and shows here.
  const apply = async (crop: Rect, frame: Size) => {
    if (materialId === null) return;
    const source = info && info.width > 0 && info.height > 0 ? { w: info.width, h: info.height } : frame;
    const box = toVideoBox(crop, frame, source);
    let taskId: number;
    try {
      ({ taskId } = await cropVideo(materialId, { x: box.x, y: box.y, width: box.w, height: box.h }));
    } catch (e) {
      throw new Error(refusalText(e));
    }
    setOpen(false);
    setPhase({ kind: 'running', percent: 0 });
    try {
      const made = await followRun(taskId, (percent) => setPhase({ kind: 'running', percent }), () => alive.current);
      if (made === null) return;
      // Probed first: the panel's cut and held-frame note read the new clip's length.
      const m = await readyMaterial(made, READY_TIMEOUT_MS);
      queryClient.setQueryData(materialInfoQuery(m.id).queryKey, m);
      set({ materialId: m.id, videoSrc: m.url, ...boxForCrop(layer, box) });
      setPhase({ kind: 'idle' });
    } catch (e) {
      if (alive.current) setPhase({ kind: 'failed', why: refusalText(e) });
    }
  };

  return (
    <div style={{ marginBottom: 8 }}>
      <Button size="small" icon={<ScissorOutlined />} data-testid="video-crop" disabled={why !== null || src === '' || phase.kind === 'running'} loading={phase.kind === 'running'} onClick={() => setOpen(true)}>
        {t('videoCrop.button')}
      </Button>
      {why !== null && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }} data-testid="video-crop-hint">
          {why}
        </Typography.Paragraph>
      )}
      {phase.kind === 'running' && <Progress size="small" percent={phase.percent} data-testid="video-crop-progress" />}
      {phase.kind === 'failed' && <Alert type="error" showIcon title={t('videoCrop.failed', { why: phase.why })} data-testid="video-crop-failed" />}
      {open && (
        <CropDialog
          src={src}
          frameAt={clipCut(layer, info?.duration).start}
          minSide={MIN_VIDEO_CROP_PX}
          title={t('videoCrop.title')}
          hint={t('videoCrop.hint')}
          onApply={apply}
          onClose={() => setOpen(false)}
        />
      )}
    </div>
  );
}
