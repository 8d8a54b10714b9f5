/** The property panel: the selected layer's box, look and text, or the scene's background when nothing is selected. */
import { Checkbox, Collapse, ColorPicker, Empty, Input, InputNumber, Slider, Space, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import type { Id } from '@/editor/model/gen/Id';
import type { Layer } from '@/editor/model/gen/Layer';
import { MIN_FONT_SIZE } from '@/editor/state/defaults';
import { editorActions as a, type LayerPatch } from '@/editor/state/editorSlice';
import { selectCurrentScene, selectSelectedLayers } from '@/editor/state/selectors';
import { FontPicker, GlyphWarning } from './FontField';
import { useEditorDispatch, useEditorSelector } from './useEditor';

/** A layer's font id as the font library names it. */
function fontIdOf(id: Id | undefined): string | undefined {
  return id === undefined || id === '' ? undefined : String(id);
}

function Row({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 8 }}>
      <Typography.Text type="secondary" style={{ width: 72, flex: 'none' }}>
        {label}
      </Typography.Text>
      <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
    </div>
  );
}

function hex(value: { toHexString: () => string }): string {
  return value.toHexString().slice(0, 7);
}

function LayerProps({ layer }: { layer: Layer }) {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const set = (changes: LayerPatch) => dispatch(a.updateLayer({ id: layer.id, changes }));
  const num = (label: string, key: 'x' | 'y' | 'w' | 'h' | 'rotate', min?: number) => (
    <Row label={label}>
      <InputNumber
        aria-label={label}
        size="small"
        value={Math.round(layer[key] * 10) / 10}
        min={min}
        style={{ width: '100%' }}
        disabled={layer.isLock}
        onChange={(v) => typeof v === 'number' && set({ [key]: v })}
      />
    </Row>
  );
  const text = layer.type === 'word' || layer.type === 'dynamicWord' ? layer : undefined;
  const picture = layer.type === 'picture' || layer.type === 'gif' ? layer : undefined;
  const shape = layer.type === 'shape' ? layer : undefined;
  const items = [
    {
      key: 'box',
      label: t('editor.props.box'),
      children: (
        <>
          {num(t('editor.props.x'), 'x')}
          {num(t('editor.props.y'), 'y')}
          {num(t('editor.props.w'), 'w', 1)}
          {num(t('editor.props.h'), 'h', 1)}
          {num(t('editor.props.rotate'), 'rotate')}
          <Checkbox checked={layer.isLock} onChange={(e) => set({ isLock: e.target.checked })}>
            {t('editor.props.lock')}
          </Checkbox>
        </>
      ),
    },
  ];
  if (picture) {
    items.push({
      key: 'look',
      label: t('editor.props.look'),
      children: (
        <Row label={t('editor.props.opacity')}>
          <Slider
            min={0}
            max={1}
            step={0.01}
            value={picture.opacity}
            onChangeComplete={() => dispatch(a.commitGesture())}
            onChange={(v) => {
              dispatch(a.beginGesture());
              set({ opacity: v });
            }}
          />
        </Row>
      ),
    });
  }
  if (shape) {
    items.push({
      key: 'look',
      label: t('editor.props.look'),
      children: (
        <>
          <Row label={t('editor.props.fill')}>
            <ColorPicker size="small" value={shape.fill || '#000000'} onChangeComplete={(c) => set({ fill: hex(c) })} showText />
          </Row>
          <Row label={t('editor.props.stroke')}>
            <ColorPicker size="small" value={shape.stroke || '#000000'} onChangeComplete={(c) => set({ stroke: hex(c) })} showText />
          </Row>
          <Row label={t('editor.props.strokeWidth')}>
            <InputNumber size="small" min={0} value={shape.strokeWidth} onChange={(v) => typeof v === 'number' && set({ strokeWidth: v })} />
          </Row>
        </>
      ),
    });
  }
  if (text) {
    items.push({
      key: 'text',
      label: t('editor.props.text'),
      children: (
        <>
          <Input.TextArea
            aria-label={t('editor.props.content')}
            autoSize={{ minRows: 2, maxRows: 6 }}
            value={text.content}
            onChange={(e) => set({ content: e.target.value, showContent: e.target.value })}
            style={{ marginBottom: 8 }}
          />
          <Row label={t('editor.props.color')}>
            <ColorPicker size="small" value={text.color} onChangeComplete={(c) => set({ color: hex(c) })} showText />
          </Row>
          <Row label={t('editor.props.fontSize')}>
            <InputNumber aria-label={t('editor.props.fontSize')} size="small" min={MIN_FONT_SIZE} value={text.fontSize} onChange={(v) => typeof v === 'number' && set({ fontSize: v })} />
          </Row>
          <Row label={t('editor.props.fontFamily')}>
            <FontPicker fontId={fontIdOf(text.fontId)} fontFamily={text.fontFamily} onChange={set} />
          </Row>
          <Space>
            <Checkbox checked={text.bold} onChange={(e) => set({ bold: e.target.checked })}>
              {t('editor.props.bold')}
            </Checkbox>
            <Checkbox checked={text.italic} onChange={(e) => set({ italic: e.target.checked })}>
              {t('editor.props.italic')}
            </Checkbox>
          </Space>
          <GlyphWarning fontId={fontIdOf(text.fontId)} text={text.content} />
        </>
      ),
    });
  }
  return <Collapse size="small" defaultActiveKey={items.map((i) => i.key)} items={items} />;
}

function SceneProps() {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const scene = useEditorSelector(selectCurrentScene);
  const id = useEditorSelector((s) => s.sceneId);
  return (
    <Collapse
      size="small"
      defaultActiveKey={['scene']}
      items={[
        {
          key: 'scene',
          label: t('editor.props.scene'),
          children: (
            <Row label={t('editor.props.background')}>
              <ColorPicker data-testid="scene-bg" size="small" value={scene.bgColor} onChangeComplete={(c) => dispatch(a.setBackground({ id, bgColor: hex(c) }))} showText />
            </Row>
          ),
        },
      ]}
    />
  );
}

export function PropertyPanel() {
  const { t } = useTranslation();
  const selected = useEditorSelector(selectSelectedLayers);
  return (
    <div data-testid="property-panel" style={{ padding: 8, overflow: 'auto', height: '100%' }}>
      {selected.length === 1 && selected[0] ? (
        <LayerProps key={String(selected[0].id)} layer={selected[0]} />
      ) : selected.length > 1 ? (
        <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('editor.props.many', { count: selected.length })} />
      ) : (
        <SceneProps />
      )}
    </div>
  );
}
