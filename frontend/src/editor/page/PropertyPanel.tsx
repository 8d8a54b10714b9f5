/**
 * The property panel: the selected layer's box and, by kind, its look (picture: opacity, filter,
 * blur, mirror, border, radius, mask, crop; video: volume, mute, cut, reverse, crop,
 * brightness/contrast/saturation; shape: fill or gradient, stroke, radius, shadow; text: content,
 * colour, font, size, style, spacing, outline, background), or the scene's background (colour,
 * picture or video with its fit and blur) when nothing is selected.
 */
import { Checkbox, Collapse, Empty, Input, Segmented, Select, Space, Typography } from 'antd';
import { useDeferredValue, type ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { useMaterialInfo, useMaterials } from '@/api/material';
import { MASK_CATEGORY } from '@/editor/materials/library';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import type { Id } from '@/editor/model/gen/Id';
import type { Layer } from '@/editor/model/gen/Layer';
import type { PictureLayer } from '@/editor/model/gen/PictureLayer';
import type { ShapeLayer } from '@/editor/model/gen/ShapeLayer';
import type { TextLayer } from '@/editor/model/gen/TextLayer';
import type { VideoLayer } from '@/editor/model/gen/VideoLayer';
import { SelectedAudioProps, selectAudioIndex } from '@/editor/audio/AudioItemProps';
import { AnimationFields } from '@/editor/panels/AnimationFields';
import { SceneFilterField, TransitionField } from '@/editor/panels/CataloguePicker';
import { MIN_FONT_SIZE, MIN_SCENE_LENGTH } from '@/editor/state/defaults';
import { clipCut, heldSeconds } from '@/editor/state/timing';
import { editorActions as a, type LayerPatch } from '@/editor/state/editorSlice';
import { selectCurrentScene, selectSelectedLayers } from '@/editor/state/selectors';
import { artWordSection } from '@/editor/artword/ArtWordLook';
import { CropButton } from '@/editor/crop/CropButton';
import { VideoCropField } from '@/editor/crop/VideoCropField';
import { ReverseField } from '@/editor/reverse/ReverseField';
import { SaveAsMaterial } from '@/editor/reverse/SaveAsMaterial';
import { clipVideo } from '@/api/materialEdits';
import { slotSection } from '@/editor/modes/SlotFields';
import { advancedSection, useEditorPro } from '@/editor/pro/pro';
import { modeOf } from '@/editor/modes/modes';
import { ColorField } from './ColorField';
import { FontPicker, GlyphWarning } from './FontField';
import { BackgroundMaterialField } from './SceneBackground';
import { useEditorDispatch, useEditorSelector } from './useEditor';
import { useSourceDurations } from './useSourceDurations';
import { useTextFit } from './useTextFit';
import { FillKindField, Field as Row, NumberField, SliderField } from './fields';

/** A layer's font id as the font library names it. */
function fontIdOf(id: Id | undefined): string | undefined {
  return id === undefined || id === '' ? undefined : String(id);
}

type Set = (changes: LayerPatch) => void;

/** A number field, in whole steps unless told. */
function Num(props: { label: string; value: number; onChange: (v: number) => void; min?: number; max?: number; step?: number; disabled?: boolean }) {
  return <NumberField step={1} {...props} />;
}


function Colour({ label, value, onChange, clearable }: { label: string; value: string; onChange: (hex: string) => void; clearable?: boolean }) {
  return (
    <Row label={label}>
      <ColorField aria-label={label} value={value} onChange={onChange} clearable={clearable} />
    </Row>
  );
}

function MaskSelect({ layer, set }: { layer: PictureLayer; set: Set }) {
  const { t } = useTranslation();
  const masks = useMaterials({ source: 'default', categoryId: MASK_CATEGORY });
  // maskClip names the mask material by a numeric id (-1 for none), as the renderer reads it.
  const list = (masks.data?.pages.flatMap((p) => p.dataList) ?? []).filter((m) => /^\d+$/.test(m.id));
  return (
    <Select
      size="small"
      aria-label={t('editor.props.mask')}
      data-testid="mask-select"
      style={{ width: '100%' }}
      loading={masks.isLoading}
      value={layer.maskClip > 0 ? String(layer.maskClip) : ''}
      options={[{ value: '', label: t('editor.props.none') }, ...list.map((m) => ({ value: m.id, label: m.materialName || m.id }))]}
      onChange={(id: string) => set({ maskClip: id === '' ? -1 : Number(id) })}
    />
  );
}

function PictureLook({ layer, set, gif }: { layer: PictureLayer; set: Set; gif: boolean }) {
  const { t, i18n } = useTranslation();
  const zh = i18n.language.startsWith('zh');
  return (
    <>
      <SliderField label={t('editor.props.opacity')} value={layer.opacity} min={0} max={1} step={0.01} onChange={(v) => set({ opacity: v })} />
      <Row label={t('editor.props.filter')}>
        <Select
          size="small"
          aria-label={t('editor.props.filter')}
          style={{ width: '100%' }}
          value={layer.filter}
          showSearch={{ optionFilterProp: 'label' }}
          options={[{ value: '', label: t('editor.props.none') }, ...CATALOGUE.filters.map((f) => ({ value: f.key, label: zh ? f.nameZh : f.nameEn }))]}
          onChange={(filter: string) => set({ filter })}
        />
      </Row>
      <SliderField label={t('editor.props.blur')} value={layer.blur} min={0} max={50} onChange={(v) => set({ blur: v })} />
      <Checkbox checked={layer.mirror} onChange={(e) => set({ mirror: e.target.checked })} style={{ marginBottom: 8 }}>
        {t('editor.props.mirror')}
      </Checkbox>
      <Num label={t('editor.props.borderWidth')} value={layer.borderWidth} min={0} onChange={(v) => set({ borderWidth: v })} />
      <Colour label={t('editor.props.borderColor')} value={layer.borderColor} onChange={(c) => set({ borderColor: c })} clearable />
      <Num label={t('editor.props.radius')} value={layer.borderRadius} min={0} onChange={(v) => set({ borderRadius: v })} />
      <Row label={t('editor.props.mask')}>
        <MaskSelect layer={layer} set={set} />
      </Row>
      {layer.maskClip > 0 && <SliderField label={t('editor.props.maskBlur')} value={layer.maskBlur} min={0} max={50} onChange={(v) => set({ maskBlur: v })} />}
      <CropButton layer={layer} gif={gif} />
    </>
  );
}

/**
 * A clip's in and out points: one thing with its bar (changing them changes the bar's length),
 * never past the source's end; a bar longer than its clip holds the last frame, and says so.
 */
function ClipCut({ layer }: { layer: VideoLayer }) {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const sceneLength = useEditorSelector(selectCurrentScene).timeLength;
  const materialId = layer.materialId === undefined || layer.materialId === '' ? null : String(layer.materialId);
  const info = useMaterialInfo(materialId).data;
  const source = info?.duration && info.duration > 0 ? info.duration : undefined;
  const cut = clipCut(layer, source);
  const held = heldSeconds({ ...layer, cutInfo: cut }, sceneLength);
  return (
    <>
      <NumberField label={t('editor.props.cutIn')} value={cut.start} min={0} max={source} step={0.1} testId="cut-in" onChange={(v) => dispatch(a.setVideoCut({ id: layer.id, start: v, source }))} />
      <NumberField label={t('editor.props.cutOut')} value={cut.end} min={0} max={source} step={0.1} testId="cut-out" onChange={(v) => dispatch(a.setVideoCut({ id: layer.id, end: v, source }))} />
      <SaveAsMaterial testId="save-clip" disabled={materialId === null || cut.end <= cut.start} start={() => clipVideo(materialId ?? '', cut.start * 1000, cut.end * 1000)} />
      {held > 0 && (
        <Typography.Paragraph type="secondary" style={{ fontSize: 12 }} data-testid="cut-held">
          {source !== undefined ? t('editor.props.heldFrame', { source: Math.round(source * 100) / 100, held }) : t('editor.props.heldFrameUnknown', { held })}
        </Typography.Paragraph>
      )}
    </>
  );
}

function VideoLook({ layer, set }: { layer: VideoLayer; set: Set }) {
  const { t } = useTranslation();
  return (
    <>
      <SliderField label={t('editor.props.volume')} value={layer.volume} min={0} max={200} onChange={(v) => set({ volume: v })} />
      <Checkbox checked={layer.noAudio} onChange={(e) => set({ noAudio: e.target.checked })} style={{ marginBottom: 8 }}>
        {t('editor.props.mute')}
      </Checkbox>
      <ClipCut layer={layer} />
      <ReverseField layer={layer} set={set} />
      <VideoCropField layer={layer} set={set} />
      <SliderField label={t('editor.props.brightness')} value={layer.brightness} min={0} max={200} onChange={(v) => set({ brightness: v })} />
      <SliderField label={t('editor.props.contrast')} value={layer.contrast} min={0} max={200} onChange={(v) => set({ contrast: v })} />
      <SliderField label={t('editor.props.saturation')} value={layer.saturation} min={0} max={200} onChange={(v) => set({ saturation: v })} />
    </>
  );
}

function ShapeLook({ layer, set }: { layer: ShapeLayer; set: Set }) {
  const { t } = useTranslation();
  const gradient = layer.fillType === 'gradient';
  const [from = '#4096ff', to = '#ffffff'] = layer.gradientColors;
  return (
    <>
      <FillKindField label={t('editor.props.fillType')} gradient={gradient} onChange={(g) => set(g ? { fillType: 'gradient', gradientColors: [layer.fill || from, to] } : { fillType: 'color' })} />
      {gradient ? (
        <>
          <Colour label={t('editor.props.gradientFrom')} value={from} onChange={(c) => set({ gradientColors: [c, to] })} />
          <Colour label={t('editor.props.gradientTo')} value={to} onChange={(c) => set({ gradientColors: [from, c] })} />
        </>
      ) : (
        <Colour label={t('editor.props.fill')} value={layer.fill} onChange={(c) => set({ fill: c })} />
      )}
      <Colour label={t('editor.props.stroke')} value={layer.stroke} onChange={(c) => set({ stroke: c })} clearable />
      <Num label={t('editor.props.strokeWidth')} value={layer.strokeWidth} min={0} onChange={(v) => set({ strokeWidth: v })} />
      <Num label={t('editor.props.radius')} value={layer.borderRadius} min={0} onChange={(v) => set({ borderRadius: v })} />
      <Colour label={t('editor.props.shadowColor')} value={layer.shadowColor} onChange={(c) => set({ shadowColor: c })} clearable />
      {layer.shadowColor !== '' && (
        <>
          <Num label={t('editor.props.shadowX')} value={layer.shadowSetX} onChange={(v) => set({ shadowSetX: v })} />
          <Num label={t('editor.props.shadowY')} value={layer.shadowSetY} onChange={(v) => set({ shadowSetY: v })} />
          <Num label={t('editor.props.shadowBlur')} value={layer.shadowBlur} min={0} onChange={(v) => set({ shadowBlur: v })} />
        </>
      )}
    </>
  );
}

function TextLook({ layer, set }: { layer: TextLayer; set: Set }) {
  const { t } = useTranslation();
  const fontId = fontIdOf(layer.fontId);
  return (
    <>
      <Input.TextArea
        aria-label={t('editor.props.content')}
        autoSize={{ minRows: 2, maxRows: 6 }}
        value={layer.content}
        onChange={(e) => set({ content: e.target.value, showContent: e.target.value })}
        style={{ marginBottom: 8 }}
      />
      <Colour label={t('editor.props.color')} value={layer.color} onChange={(c) => set({ color: c })} />
      <Row label={t('editor.props.fontFamily')}>
        <FontPicker fontId={fontId} fontFamily={layer.fontFamily} onChange={set} />
      </Row>
      <Num label={t('editor.props.fontSize')} value={layer.fontSize} min={MIN_FONT_SIZE} onChange={(v) => set({ fontSize: v })} />
      <Space wrap size={[8, 0]} style={{ marginBottom: 8 }}>
        <Checkbox checked={layer.bold} onChange={(e) => set({ bold: e.target.checked })}>
          {t('editor.props.bold')}
        </Checkbox>
        <Checkbox checked={layer.italic} onChange={(e) => set({ italic: e.target.checked })}>
          {t('editor.props.italic')}
        </Checkbox>
        <Checkbox checked={layer.underline} onChange={(e) => set({ underline: e.target.checked })}>
          {t('editor.props.underline')}
        </Checkbox>
        <Checkbox checked={layer.strikeThrough} onChange={(e) => set({ strikeThrough: e.target.checked })}>
          {t('editor.props.strikeThrough')}
        </Checkbox>
      </Space>
      <Row label={t('editor.props.align')}>
        <Segmented
          size="small"
          value={layer.textAlign || 'center'}
          options={(['left', 'center', 'right'] as const).map((v) => ({ value: v, label: t(`editor.props.align_${v}`) }))}
          onChange={(v) => set({ textAlign: v })}
        />
      </Row>
      <Num label={t('editor.props.letterSpacing')} value={layer.letterSpacing} step={0.5} onChange={(v) => set({ letterSpacing: v })} />
      <Num label={t('editor.props.lineHeight')} value={layer.lineHeight} min={0.5} max={5} step={0.1} onChange={(v) => set({ lineHeight: v })} />
      <Num label={t('editor.props.outlineWidth')} value={layer.borderWidth} min={0} onChange={(v) => set({ borderWidth: v })} />
      <Colour label={t('editor.props.outlineColor')} value={layer.borderColor} onChange={(c) => set({ borderColor: c })} clearable />
      <Colour label={t('editor.props.textBackground')} value={layer.bgFillColor} onChange={(c) => set({ bgFillColor: c })} clearable />
      <GlyphWarning fontId={fontId} text={layer.content} />
    </>
  );
}

function LayerProps({ layer }: { layer: Layer }) {
  const { t } = useTranslation();
  const mode = modeOf(useEditorSelector((s) => s.usedFor));
  const pro = useEditorPro();
  const sceneLength = useEditorSelector(selectCurrentScene).timeLength;
  // A text's box grows to hold its text when its words or font change.
  const { edit } = useTextFit();
  const set: Set = (changes) => edit(layer, changes);
  const box = (key: 'x' | 'y' | 'w' | 'h' | 'rotate', min?: number) => (
    <Num label={t(`editor.props.${key}`)} value={layer[key]} min={min} disabled={layer.isLock} onChange={(v) => set({ [key]: v })} />
  );
  const items = [
    {
      key: 'box',
      label: t('editor.props.box'),
      children: (
        <>
          {box('x')}
          {box('y')}
          {box('w', 1)}
          {box('h', 1)}
          {box('rotate')}
          <Checkbox checked={layer.isLock} onChange={(e) => set({ isLock: e.target.checked })}>
            {t('editor.props.lock')}
          </Checkbox>
        </>
      ),
    },
  ];
  const look = (children: ReactNode) => items.push({ key: 'look', label: t('editor.props.look'), children: <>{children}</> });
  if (layer.type === 'picture' || layer.type === 'gif') look(<PictureLook layer={layer} set={set} gif={layer.type === 'gif'} />);
  if (layer.type === 'video') look(<VideoLook layer={layer} set={set} />);
  if (layer.type === 'shape') look(<ShapeLook layer={layer} set={set} />);
  if (layer.type === 'word' || layer.type === 'dynamicWord' || layer.type === 'artWord') items.push({ key: 'text', label: t('editor.props.text'), children: <TextLook layer={layer} set={set} /> });
  const art = artWordSection(layer, set, t);
  if (art) items.push(art);
  items.push({ key: 'animation', label: t('editor.anim.section'), children: <AnimationFields layer={layer} set={set} /> });
  const slot = slotSection(layer, mode, set, t);
  if (slot) items.push(slot);
  if (pro) items.push(advancedSection(layer, sceneLength, set, t));
  return <Collapse size="small" defaultActiveKey={items.map((i) => i.key)} items={items} />;
}

/** The scene's length, and whether a new length stretches the layers that fill the scene (default on). */
function SceneLengthField({ id, length }: { id: Id; length: number }) {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const stretch = useEditorSelector((s) => s.stretchLayers);
  const sources = useSourceDurations();
  return (
    <>
      <NumberField label={t('editor.scenes.length')} value={length} min={MIN_SCENE_LENGTH} step={0.5} suffix="s" testId="scene-length" onChange={(v) => dispatch(a.setSceneLength({ id, length: v, sources }))} />
      <Checkbox checked={stretch} onChange={(e) => dispatch(a.setStretchLayers(e.target.checked))} style={{ marginBottom: 8 }} data-testid="stretch-layers">
        {t('editor.props.stretchLayers')}
      </Checkbox>
    </>
  );
}

function SceneProps() {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const scene = useEditorSelector(selectCurrentScene);
  const id = useEditorSelector((s) => s.sceneId);
  const last = useEditorSelector((s) => s.doc.scenes[s.doc.scenes.length - 1]?.frontendId === s.sceneId);
  return (
    <Collapse
      size="small"
      defaultActiveKey={['scene', 'transition', 'filter']}
      items={[
        {
          key: 'scene',
          label: t('editor.props.scene'),
          children: (
            <>
              <SceneLengthField id={id} length={scene.timeLength} />
              <Row label={t('editor.props.background')}>
                <ColorField data-testid="scene-bg" value={scene.bgColor} onChange={(bgColor) => dispatch(a.setBackground({ id, bgColor }))} />
              </Row>
              <Row label={t('editor.props.bgMaterial')}>
                <BackgroundMaterialField
                  scene={scene}
                  blurField={<SliderField label={t('editor.props.bgBlur')} value={scene.bgBlur} min={0} max={50} onChange={(bgBlur) => dispatch(a.setBackground({ id, bgBlur }))} />}
                />
              </Row>
            </>
          ),
        },
        { key: 'transition', label: t('editor.pickers.transition'), children: <TransitionField scene={scene} last={last} /> },
        { key: 'filter', label: t('editor.pickers.filter'), children: <SceneFilterField scene={scene} /> },
      ]}
    />
  );
}

export function PropertyPanel() {
  const { t } = useTranslation();
  // The panel follows the selection a moment after the stage (a deferred render React may split
  // and interrupt): a new layer shows on the stage without waiting for its property fields.
  const selected = useDeferredValue(useEditorSelector(selectSelectedLayers));
  const audio = useEditorSelector(selectAudioIndex);
  return (
    <div data-testid="property-panel" style={{ padding: 8, overflow: 'auto', height: '100%' }}>
      {selected.length === 1 && selected[0] ? (
        <LayerProps key={String(selected[0].id)} layer={selected[0]} />
      ) : selected.length > 1 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('editor.props.many', { count: selected.length })} />
      ) : audio !== null ? (
        <SelectedAudioProps />
      ) : (
        <SceneProps />
      )}
    </div>
  );
}
