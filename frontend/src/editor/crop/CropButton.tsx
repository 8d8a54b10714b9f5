/**
 * The picture's crop (`isCutting`, spec editor-core §3, the 'photo cut' panel): the user picks the
 * part to keep in the crop dialog; the server cuts it from the picture at its own resolution
 * (`/material/croppicture`, upright by its EXIF orientation) as a new picture of theirs, and the
 * layer shows it in a box of its ratio (see `crop.ts` for why a new picture). A GIF is not offered
 * the crop: the server cuts still pictures, and one frame would lose its animation.
 */
import { ScissorOutlined } from '@ant-design/icons';
import { App, Button, Typography } from 'antd';
import { useQueryClient } from '@tanstack/react-query';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { materialInfoQuery, type Material } from '@/api/material';
import { cropPicture } from '@/api/materialEdits';
import type { PictureLayer } from '@/editor/model/gen/PictureLayer';
import { useEditorDispatch } from '@/editor/page/useEditor';
import { editorActions as a } from '@/editor/state/editorSlice';
import { boxForCrop, MIN_CROP_PX, toSourceBox, uprightSize, type Rect, type Size } from './crop';
import { CropDialog } from './CropDialog';
import { readyMaterial } from './readyMaterial';
import { refusalText } from './refusal';

/** How long a new picture may take to be probed before the crop gives up (ms). */
const READY_TIMEOUT_MS = 30_000;

const idOf = (id: PictureLayer['materialId']): string | null => (id === undefined || id === '' ? null : String(id));

function PictureCrop({ layer, materialId, onClose }: { layer: PictureLayer; materialId: string; onClose: () => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useEditorDispatch();
  const queryClient = useQueryClient();

  const apply = async (crop: Rect, shown: Size) => {
    // The library's size, when it can be read: the shown picture may be a smaller preview.
    const info = await queryClient.fetchQuery(materialInfoQuery(materialId)).catch(() => null);
    const library = info ? { w: info.width, h: info.height } : null;
    const box = toSourceBox(crop, shown, uprightSize(library, shown));
    let made: Material;
    try {
      const cut = await cropPicture(materialId, { x: box.x, y: box.y, width: box.w, height: box.h });
      made = await readyMaterial(cut.materialId, READY_TIMEOUT_MS);
    } catch (e) {
      throw new Error(refusalText(e));
    }
    dispatch(a.updateLayer({ id: layer.id, changes: { src: made.url, materialId: made.id, ...boxForCrop(layer, box) } as Partial<PictureLayer> }));
    void message.success(t('crop.done'));
    onClose();
  };

  return <CropDialog src={layer.src} box={layer} minSide={MIN_CROP_PX} title={t('crop.title')} hint={t('crop.hint')} onApply={apply} onClose={onClose} />;
}

/** The crop button of a picture's property section; a GIF, or a picture not of the library, says why it has none. */
export function CropButton({ layer, gif }: { layer: PictureLayer; gif: boolean }) {
  const { t } = useTranslation();
  const [open, setOpen] = useState(false);
  const materialId = idOf(layer.materialId);
  const why = gif ? t('crop.gifNotAvailable') : materialId === null ? t('crop.needsMaterial') : null;
  return (
    <div style={{ marginBottom: 8 }} data-testid="crop">
      <Button size="small" icon={<ScissorOutlined />} disabled={why !== null || !layer.src} onClick={() => setOpen(true)} data-testid="crop-button">
        {t('crop.button')}
      </Button>
      {why !== null && (
        <Typography.Text type="secondary" style={{ display: 'block', fontSize: 12, marginTop: 4 }} data-testid="crop-hint">
          {why}
        </Typography.Text>
      )}
      {open && materialId !== null && <PictureCrop layer={layer} materialId={materialId} onClose={() => setOpen(false)} />}
    </div>
  );
}
