/**
 * The picture's crop (`isCutting`, spec editor-core §3, the 'photo cut' panel): the user picks the
 * part to keep; it is drawn at the picture's own resolution, uploaded as a new picture of theirs,
 * and the layer shows it in a box of its ratio (see `crop.ts` for why a new picture).
 */
import { ScissorOutlined } from '@ant-design/icons';
import { Alert, App, Button, Checkbox, Modal, Spin, Typography } from 'antd';
import { useCallback, useRef, useState } from 'react';
import { flushSync } from 'react-dom';
import Moveable from 'react-moveable';
import { useTranslation } from 'react-i18next';
import { api } from '@/api/client';
import { uploadMaterial, type Material } from '@/api/material';
import { useAppSelector } from '@/app/hooks';
import type { PictureLayer } from '@/editor/model/gen/PictureLayer';
import { useEditorDispatch } from '@/editor/page/useEditor';
import { editorActions as a } from '@/editor/state/editorSlice';
import { boxForCrop, clampCrop, coverCrop, cropToFile, type Rect } from './crop';

/** The crop view's largest picture, CSS pixels. */
const VIEW_W = 560;
const VIEW_H = 380;
/** Above the stage's own transform handles (react-moveable draws its controls at z-index 3000). */
const MODAL_Z = 3100;
/** How long a new picture may take to be probed before the crop gives up (ms). */
const READY_TIMEOUT_MS = 30_000;

/** Waits until the uploaded picture is usable and answers it (with its signed address). */
async function readyMaterial(id: string): Promise<Material> {
  const until = Date.now() + READY_TIMEOUT_MS;
  for (;;) {
    const m = await api.post<Material>(`/material/info/${encodeURIComponent(id)}`);
    if (m.state === 'ready') return m;
    if (m.state === 'failed') throw new Error(m.failReason || 'failed');
    if (Date.now() > until) throw new Error('timeout');
    await new Promise((r) => setTimeout(r, 400));
  }
}

function CropModal({ layer, onClose }: { layer: PictureLayer; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useEditorDispatch();
  const userId = useAppSelector((s) => s.user.id) ?? '';
  const image = useRef<HTMLImageElement>(null);
  const box = useRef<HTMLDivElement>(null);
  const [natural, setNatural] = useState<{ w: number; h: number } | null>(null);
  const [crop, setCrop] = useState<Rect | null>(null);
  const [keepRatio, setKeepRatio] = useState(false);
  const [busy, setBusy] = useState(false);
  const [error, setError] = useState<string | null>(null);
  const scale = natural ? Math.min(VIEW_W / natural.w, VIEW_H / natural.h, 1) : 1;

  const onLoad = () => {
    const img = image.current;
    if (!img) return;
    const n = { w: img.naturalWidth, h: img.naturalHeight };
    setNatural(n);
    setCrop(clampCrop(coverCrop(n.w, n.h, layer.w, layer.h), n.w, n.h));
  };

  const apply = async () => {
    const img = image.current;
    if (!img || !crop || !natural) return;
    setBusy(true);
    setError(null);
    try {
      const file = await cropToFile(img, crop, `crop-${layer.id}-${crop.w}x${crop.h}.png`);
      const id = await uploadMaterial(file, { userId });
      const m = await readyMaterial(id);
      dispatch(a.updateLayer({ id: layer.id, changes: { src: m.url, materialId: m.id, ...boxForCrop(layer, crop) } as Partial<PictureLayer> }));
      void message.success(t('crop.done'));
      onClose();
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
      if (natural) flushSync(() => setCrop(clampCrop(r, natural.w, natural.h)));
    },
    [natural],
  );

  return (
    <Modal open title={t('crop.title')} width={VIEW_W + 48} zIndex={MODAL_Z} onCancel={onClose} onOk={() => void apply()} okText={t('crop.apply')} confirmLoading={busy} okButtonProps={{ disabled: !crop, id: 'crop-apply' }} destroyOnHidden>
      <div data-testid="crop-modal" style={{ position: 'relative', width: natural ? natural.w * scale : VIEW_W, height: natural ? natural.h * scale : VIEW_H, margin: '0 auto', background: '#000' }}>
        {!natural && <Spin style={{ position: 'absolute', inset: 0, margin: 'auto' }} />}
        <img ref={image} src={layer.src} alt="" onLoad={onLoad} style={{ width: '100%', height: '100%', display: 'block', opacity: 0.45 }} draggable={false} />
        {view && (
          <div
            ref={box}
            data-testid="crop-box"
            data-crop={crop ? `${crop.x},${crop.y},${crop.w},${crop.h}` : ''}
            style={{ position: 'absolute', ...view, backgroundImage: `url("${layer.src}")`, backgroundSize: `${(natural?.w ?? 0) * scale}px ${(natural?.h ?? 0) * scale}px`, backgroundPosition: `${-view.left}px ${-view.top}px`, outline: '1px dashed #fff' }}
          />
        )}
        {view && (
          <Moveable
            target={box}
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
        {t('crop.hint')}
      </Typography.Text>
      {error && <Alert type="error" showIcon message={error} style={{ marginTop: 8 }} data-testid="crop-error" />}
    </Modal>
  );
}

/** The crop button of a picture's property section; a GIF keeps its centred crop. */
export function CropButton({ layer, gif }: { layer: PictureLayer; gif: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  return (
    <div style={{ marginBottom: 8 }} data-testid="crop">
      <Button size="small" icon={<ScissorOutlined />} disabled={gif || !layer.src} onClick={() => setOpen(true)} data-testid="crop-button">
        {t('crop.button')}
      </Button>
      {gif && (
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, marginTop: 4 }} data-testid="crop-hint">
          {t('crop.gifNotAvailable')}
        </Typography.Text>
      )}
      {open && <CropModal layer={layer} onClose={() => setOpen(false)} />}
    </div>
  );
}
