/**
 * The crop dialog of a picture layer (裁剪) and of a video layer (裁剪画面): the picture, or the
 * video's frame at the clip's in point, with a box the user drags and resizes (react-moveable),
 * starting at what the layer's box shows today (a picture's `coverCrop`, a video's whole frame).
 * The box is in the pixels the browser shows (a picture upright by its EXIF orientation, a video's
 * frame at its played size); `onApply` converts it for the server and reports a refusal, which the
 * dialog shows.
 */
import { Alert, Checkbox, Modal, Spin, Typography } from 'antd';
import { useCallback, useRef, useState, type SyntheticEvent } from 'react';
import { flushSync } from 'react-dom';
import Moveable from 'react-moveable';
import { useTranslation } from 'react-i18next';
import { clampCrop, coverCrop, type Rect, type Size } from './crop';

/** The crop view's largest picture, CSS pixels. */
const VIEW_W = 560;
const VIEW_H = 380;
/** Above the stage's own transform handles (react-moveable draws its controls at z-index 3000). */
const MODAL_Z = 3100;

export interface CropDialogProps {
  /** The picture's or the video's address. */
  src: string;
  /** A video's frame to show (seconds); a picture when left out. */
  frameAt?: number;
  /** A picture layer's box, whose ratio the first crop takes (what the box shows of it); a video, fitted inside its box, starts whole. */
  box?: { w: number; h: number };
  /** The smallest side, pixels shown. */
  minSide: number;
  title: string;
  hint: string;
  /** Cuts `crop` of the `shown` picture; a throw is shown in the dialog, which stays open. */
  onApply: (crop: Rect, shown: Size) => Promise<void>;
  onClose: () => void;
}

export function CropDialog({ src, frameAt, box, minSide, title, hint, onApply, onClose }: CropDialogProps) {
  const { t } = useTranslation();
  const target = useRef<HTMLDivElement>(null);
  const [natural, setNatural] = useState<Size | null>(null);
  const [crop, setCrop] = useState<Rect | null>(null);
  const [keepRatio, setKeepRatio] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const scale = natural ? Math.min(VIEW_W / natural.w, VIEW_H / natural.h, 1) : 1;

  const shown = (n: Size) => {
    if (!(n.w > 0 && n.h > 0)) return;
    setNatural(n);
    const first = box ? coverCrop(n.w, n.h, box.w, box.h) : { x: 0, y: 0, w: n.w, h: n.h };
    setCrop(clampCrop(first, n.w, n.h, minSide));
  };
  const onImage = (e: SyntheticEvent<HTMLImageElement>) => shown({ w: e.currentTarget.naturalWidth, h: e.currentTarget.naturalHeight });
  const onVideo = (e: SyntheticEvent<HTMLVideoElement>) => {
    const v = e.currentTarget;
    v.currentTime = frameAt ?? 0;
    shown({ w: v.videoWidth, h: v.videoHeight });
  };

  const apply = async () => {
    if (!crop || !natural) return;
    setBusy(true);
    setError(null);
    try {
      await onApply(crop, natural);
    } catch (e) {
      // Shown in the dialog: a toast would sit under it.
      setError(t('crop.failed', { reason: e instanceof Error ? e.message : String(e) }));
    } finally {
      setBusy(false);
    }
  };

  const view = crop ? { left: crop.x * scale, top: crop.y * scale, width: crop.w * scale, height: crop.h * scale } : null;
  const set = useCallback(
    (r: Rect) => {
      if (natural) flushSync(() => setCrop(clampCrop(r, natural.w, natural.h, minSide)));
    },
    [natural, minSide],
  );
  const media = { width: '100%', height: '100%', display: 'block' } as const;

  return (
    <Modal open title={title} width={VIEW_W + 48} zIndex={MODAL_Z} onCancel={onClose} onOk={() => void apply()} okText={t('crop.apply')} confirmLoading={busy} okButtonProps={{ disabled: !crop, id: 'crop-apply' }} destroyOnHidden>
      <div data-testid="crop-modal" style={{ position: 'relative', width: natural ? natural.w * scale : VIEW_W, height: natural ? natural.h * scale : VIEW_H, margin: '0 auto', background: '#000' }}>
        {!natural && <Spin style={{ position: 'absolute', inset: 0, margin: 'auto' }} />}
        {/* Clips the box's dimming to the picture; the handles, outside it, stay whole. */}
        <div style={{ position: 'absolute', inset: 0, overflow: 'hidden' }}>
          {frameAt === undefined ? (
            <img src={src} alt="" onLoad={onImage} style={media} draggable={false} />
          ) : (
            <video src={src} muted playsInline preload="auto" onLoadedMetadata={onVideo} style={media} data-testid="crop-video" />
          )}
          {view && (
            <div
              ref={target}
              data-testid="crop-box"
              data-crop={crop ? `${crop.x},${crop.y},${crop.w},${crop.h}` : ''}
              // What lies outside the box is dimmed: the box shows the part kept as it is.
              style={{ position: 'absolute', ...view, outline: '1px dashed #fff', boxShadow: '0 0 0 9999px rgba(0, 0, 0, 0.55)' }}
            />
          )}
        </div>
        {view && (
          <Moveable
            target={target}
            draggable
            resizable
            keepRatio={keepRatio}
            origin={false}
            bounds={{ left: 0, top: 0, right: (natural?.w ?? 0) * scale, bottom: (natural?.h ?? 0) * scale, position: 'css' }}
            onDrag={(e) => crop && set({ ...crop, x: e.left / scale, y: e.top / scale })}
            onResize={(e) => set({ x: e.drag.left / scale, y: e.drag.top / scale, w: e.width / scale, h: e.height / scale })}
          />
        )}
      </div>
      <div style={{ display: 'flex', justifyContent: 'space-between', marginTop: 8 }}>
        <Checkbox checked={keepRatio} onChange={(e) => setKeepRatio(e.target.checked)} data-testid="crop-keep-ratio">
          {t('crop.keepRatio')}
        </Checkbox>
        <Typography.Text type="secondary" data-testid="crop-size">
          {crop ? `${crop.w} × ${crop.h}` : ''}
        </Typography.Text>
      </div>
      <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, marginTop: 4 }}>
        {hint}
      </Typography.Text>
      {error && <Alert type="error" showIcon title={error} style={{ marginTop: 8 }} data-testid="crop-error" />}
    </Modal>
  );
}
