/**
 * A scene's background picture or video: chosen from the material library, drawn under every layer
 * fitted inside the stage ("") or covering it ("cover"), blurred by bgBlur, as the renderer draws it
 * (`engine/prepare.rs` `background`). The document names it by material id only (`scene.id`); its
 * signed address comes from `/material/info`.
 */
import { App, Button, Segmented, Space, Typography } from 'antd';
import { useState, type CSSProperties, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMaterialInfo, type Material } from '@/api/material';
import { DraggablePopup } from '@/components/DraggablePopup';
import { MaterialPanel } from '@/editor/materials/MaterialPanel';
import { blurCss } from '@/editor/model/filterCss';
import type { Scene } from '@/editor/model/gen/Scene';
import { editorActions as a } from '@/editor/state/editorSlice';
import { useEditorDispatch } from './useEditor';

/** The kinds of material a background may be. */
const BACKGROUND_KINDS = new Set(['picture', 'gif', 'backgrounds', 'video']);

/** The scene's background material id, when it has one. */
export function backgroundId(scene: Scene): string | null {
  return scene.id === undefined || scene.id === '' ? null : String(scene.id);
}

/** Draws the background material under the layers; nothing while its address is unknown. */
export function StageBackground({ scene, scale }: { scene: Scene; scale: number }) {
  const info = useMaterialInfo(backgroundId(scene));
  const m = info.data;
  if (!m?.url) return null;
  const style: CSSProperties = { position: 'absolute', inset: 0, width: '100%', height: '100%', objectFit: scene.bgFit === 'cover' ? 'cover' : 'contain', filter: blurCss(scene.bgBlur * scale), pointerEvents: 'none' };
  return m.type === 'video' ? (
    <video data-testid="stage-background" src={m.url} muted preload="auto" style={style} />
  ) : (
    <img data-testid="stage-background" src={m.url} alt="" draggable={false} style={style} />
  );
}

/** The scene properties' background material fields: pick, remove, fit and blur. */
export function BackgroundMaterialField({ scene, blurField }: { scene: Scene; blurField: ReactNode }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useEditorDispatch();
  const [picking, setPicking] = useState(false);
  const current = backgroundId(scene);
  const info = useMaterialInfo(current);
  const id = scene.frontendId ?? 0;
  const pick = (m: Material) => {
    if (!BACKGROUND_KINDS.has(m.type)) {
      void message.info(t('editor.props.bgNotPlaceable'));
      return;
    }
    dispatch(a.setBackground({ id, material: m.id }));
    setPicking(false);
  };
  return (
    <div data-testid="scene-bg-material">
      <Space size={4} wrap style={{ marginBottom: 8 }}>
        {current !== null && (
          <Typography.Text ellipsis style={{ maxWidth: 120 }} data-testid="scene-bg-name">
            {info.data?.materialName || current}
          </Typography.Text>
        )}
        <Button size="small" onClick={() => setPicking(true)} data-testid="scene-bg-pick">
          {t('editor.props.bgPick')}
        </Button>
        {current !== null && (
          <Button size="small" danger onClick={() => dispatch(a.setBackground({ id, material: null }))} data-testid="scene-bg-remove">
            {t('editor.props.bgRemove')}
          </Button>
        )}
      </Space>
      {current !== null && (
        <>
          <Segmented
            size="small"
            aria-label={t('editor.props.bgFit')}
            data-testid="scene-bg-fit"
            value={scene.bgFit === 'cover' ? 'cover' : ''}
            options={[
              { value: '', label: t('editor.props.bgFitContain') },
              { value: 'cover', label: t('editor.props.bgFitCover') },
            ]}
            onChange={(bgFit) => dispatch(a.setBackground({ id, bgFit: String(bgFit) }))}
            style={{ marginBottom: 8 }}
          />
          {blurField}
        </>
      )}
      <DraggablePopup open={picking} title={t('editor.props.bgPickTitle')} footer={null} width={720} onCancel={() => setPicking(false)} destroyOnHidden>
        <div style={{ height: 480, overflow: 'auto' }}>
          <MaterialPanel onPick={pick} />
        </div>
      </DraggablePopup>
    </div>
  );
}
