/**
 * The scene strip: select, add (up to the scene limit), duplicate, delete and reorder scenes (drag a
 * card by its handle, with @dnd-kit, or the arrow buttons), their length and the transition into
 * the next one. A reorder is one undo step.
 */
import { HolderOutlined } from '@ant-design/icons';
import { closestCenter, DndContext, KeyboardSensor, PointerSensor, useSensor, useSensors, type DragEndEvent } from '@dnd-kit/core';
import { horizontalListSortingStrategy, SortableContext, sortableKeyboardCoordinates, useSortable } from '@dnd-kit/sortable';
import { CSS } from '@dnd-kit/utilities';
import { App, Button, Card, InputNumber, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import type { Id } from '@/editor/model/gen/Id';
import type { Scene } from '@/editor/model/gen/Scene';
import { DEFAULT_EFFECT_TIME, MIN_SCENE_LENGTH } from '@/editor/state/defaults';
import { editorActions as a } from '@/editor/state/editorSlice';
import { useEditorDispatch, useEditorSelector } from './useEditor';
import { useSourceDurations } from './useSourceDurations';

/** The sortable key of a scene: its frontendId as text (dnd-kit keys are strings or numbers, unique). */
function keyOf(scene: Scene, i: number): string {
  return String(scene.frontendId ?? `i${i}`);
}

interface SceneCardProps {
  scene: Scene;
  index: number;
  count: number;
  active: boolean;
  transitions: { value: string; label: string }[];
  /** Asks before adding a scene: false (and a message) at the limit. */
  roomForOne: () => boolean;
}

function SceneCard({ scene, index: i, count, active, transitions, roomForOne }: SceneCardProps) {
  const { t } = useTranslation();
  const dispatch = useEditorDispatch();
  const id: Id = scene.frontendId ?? i;
  const sortable = useSortable({ id: keyOf(scene, i) });
  const sources = useSourceDurations();
  return (
    <Card
      ref={sortable.setNodeRef}
      size="small"
      data-testid={`scene-${i}`}
      data-scene-id={String(id)}
      data-active={active}
      onClick={() => !active && dispatch(a.selectScene(id))}
      style={{
        width: 236,
        flex: 'none',
        cursor: 'pointer',
        borderColor: active ? '#1677ff' : undefined,
        transform: CSS.Translate.toString(sortable.transform),
        transition: sortable.transition,
        zIndex: sortable.isDragging ? 1 : undefined,
        opacity: sortable.isDragging ? 0.85 : undefined,
      }}
      title={
        <Space size={4}>
          <span
            {...sortable.attributes}
            {...sortable.listeners}
            data-testid={`scene-handle-${i}`}
            aria-label={t('editor.scenes.drag')}
            title={t('editor.scenes.drag')}
            onClick={(e) => e.stopPropagation()}
            style={{ cursor: 'grab', touchAction: 'none', padding: '0 2px' }}
          >
            <HolderOutlined />
          </span>
          <span>{t('editor.scenes.name', { n: i + 1 })}</span>
          <Typography.Text type="secondary">{t('editor.scenes.layers', { count: scene.layers.length })}</Typography.Text>
        </Space>
      }
      extra={
        <Space size={0} onClick={(e) => e.stopPropagation()}>
          <Button size="small" type="text" aria-label={t('editor.scenes.left')} disabled={i === 0} onClick={() => dispatch(a.reorderScenes({ from: i, to: i - 1 }))}>
            ‹
          </Button>
          <Button size="small" type="text" aria-label={t('editor.scenes.right')} disabled={i === count - 1} onClick={() => dispatch(a.reorderScenes({ from: i, to: i + 1 }))}>
            ›
          </Button>
        </Space>
      }
    >
      <div onClick={(e) => e.stopPropagation()}>
        <Space size={4} style={{ marginBottom: 4 }}>
          <Typography.Text type="secondary">{t('editor.scenes.length')}</Typography.Text>
          <InputNumber
            size="small"
            aria-label={t('editor.scenes.length')}
            min={MIN_SCENE_LENGTH}
            step={0.5}
            value={scene.timeLength}
            onChange={(v) => typeof v === 'number' && dispatch(a.setSceneLength({ id, length: v, sources }))}
            style={{ width: 72 }}
          />
          <Typography.Text type="secondary">s</Typography.Text>
        </Space>
        {i < count - 1 && (
          <Space size={4} style={{ marginBottom: 4 }}>
            <Select
              size="small"
              aria-label={t('editor.scenes.transition')}
              value={scene.effect}
              options={transitions}
              style={{ width: 110 }}
              showSearch={{ optionFilterProp: 'label' }}
              onChange={(effect) => dispatch(a.setTransition({ id, effect }))}
              data-testid={`transition-${i}`}
            />
            <InputNumber
              size="small"
              aria-label={t('editor.scenes.effectTime')}
              min={0.1}
              max={scene.timeLength}
              step={0.1}
              disabled={scene.effect === ''}
              value={scene.effectTime || DEFAULT_EFFECT_TIME}
              onChange={(v) => typeof v === 'number' && dispatch(a.setTransition({ id, effect: scene.effect, effectTime: v }))}
              style={{ width: 64 }}
            />
          </Space>
        )}
        <Space size={4}>
          <Button size="small" onClick={() => roomForOne() && dispatch(a.duplicateScene({ id }))}>
            {t('editor.scenes.duplicate')}
          </Button>
          <Button size="small" danger disabled={count <= 1} onClick={() => dispatch(a.deleteScene({ id }))}>
            {t('editor.scenes.delete')}
          </Button>
        </Space>
      </div>
    </Card>
  );
}

export function SceneStrip() {
  const { t, i18n } = useTranslation();
  const { message } = App.useApp();
  const dispatch = useEditorDispatch();
  const scenes = useEditorSelector((s) => s.doc.scenes);
  const current = useEditorSelector((s) => s.sceneId);
  const maxScenes = useEditorSelector((s) => s.maxScenes);
  // A few pixels of travel before a drag starts, so a press on the handle is still a click.
  const sensors = useSensors(useSensor(PointerSensor, { activationConstraint: { distance: 4 } }), useSensor(KeyboardSensor, { coordinateGetter: sortableKeyboardCoordinates }));
  const zh = i18n.language.startsWith('zh');
  const transitions = [
    { value: '', label: t('editor.scenes.cut') },
    ...CATALOGUE.transitions.map((tr) => ({ value: tr.key, label: zh ? tr.nameZh : tr.nameEn })),
  ];
  const keys = scenes.map(keyOf);
  const roomForOne = () => {
    if (scenes.length < maxScenes) return true;
    void message.warning(t('editor.scenes.limit', { max: maxScenes }));
    return false;
  };
  const onDragEnd = ({ active, over }: DragEndEvent) => {
    if (!over || active.id === over.id) return;
    dispatch(a.reorderScenes({ from: keys.indexOf(String(active.id)), to: keys.indexOf(String(over.id)) }));
  };
  return (
    <div data-testid="scene-strip" style={{ display: 'flex', flex: 'none', gap: 8, padding: 8, overflowX: 'auto', borderTop: '1px solid #f0f0f0', background: '#fafafa' }}>
      <DndContext sensors={sensors} collisionDetection={closestCenter} onDragEnd={onDragEnd}>
        <SortableContext items={keys} strategy={horizontalListSortingStrategy}>
          {scenes.map((scene, i) => (
            <SceneCard key={keys[i]} scene={scene} index={i} count={scenes.length} active={(scene.frontendId ?? i) === current} transitions={transitions} roomForOne={roomForOne} />
          ))}
        </SortableContext>
      </DndContext>
      <Button type="dashed" style={{ height: 'auto', width: 96, flex: 'none' }} onClick={() => roomForOne() && dispatch(a.addScene())} data-testid="add-scene">
        {t('editor.scenes.add')}
      </Button>
    </div>
  );
}
