/** The scene strip: select, add, duplicate, delete and reorder scenes, their length and the transition into the next one. */
import { Button, Card, InputNumber, Select, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import { DEFAULT_EFFECT_TIME, MIN_SCENE_LENGTH } from '@/editor/state/defaults';
import { editorActions as a } from '@/editor/state/editorSlice';
import { useEditorDispatch, useEditorSelector } from './useEditor';

export function SceneStrip() {
  const { t, i18n } = useTranslation();
  const dispatch = useEditorDispatch();
  const scenes = useEditorSelector((s) => s.doc.scenes);
  const current = useEditorSelector((s) => s.sceneId);
  const zh = i18n.language.startsWith('zh');
  const transitions = [
    { value: '', label: t('editor.scenes.cut') },
    ...CATALOGUE.transitions.map((tr) => ({ value: tr.key, label: zh ? tr.nameZh : tr.nameEn })),
  ];
  return (
    <div data-testid="scene-strip" style={{ display: 'flex', flex: 'none', gap: 8, padding: 8, overflowX: 'auto', borderTop: '1px solid #f0f0f0', background: '#fafafa' }}>
      {scenes.map((scene, i) => {
        const id = scene.frontendId ?? i;
        const active = id === current;
        return (
          <Card
            key={String(id)}
            size="small"
            data-testid={`scene-${i}`}
            data-active={active}
            onClick={() => !active && dispatch(a.selectScene(id))}
            style={{ width: 220, flex: 'none', cursor: 'pointer', borderColor: active ? '#1677ff' : undefined }}
            title={
              <Space size={4}>
                <span>{t('editor.scenes.name', { n: i + 1 })}</span>
                <Typography.Text type="secondary">{t('editor.scenes.layers', { count: scene.layers.length })}</Typography.Text>
              </Space>
            }
            extra={
              <Space size={0} onClick={(e) => e.stopPropagation()}>
                <Button size="small" type="text" aria-label={t('editor.scenes.left')} disabled={i === 0} onClick={() => dispatch(a.reorderScenes({ from: i, to: i - 1 }))}>
                  ‹
                </Button>
                <Button size="small" type="text" aria-label={t('editor.scenes.right')} disabled={i === scenes.length - 1} onClick={() => dispatch(a.reorderScenes({ from: i, to: i + 1 }))}>
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
                  onChange={(v) => typeof v === 'number' && dispatch(a.setSceneLength({ id, length: v }))}
                  style={{ width: 72 }}
                />
                <Typography.Text type="secondary">s</Typography.Text>
              </Space>
              {i < scenes.length - 1 && (
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
                <Button size="small" onClick={() => dispatch(a.duplicateScene({ id }))}>
                  {t('editor.scenes.duplicate')}
                </Button>
                <Button size="small" danger disabled={scenes.length <= 1} onClick={() => dispatch(a.deleteScene({ id }))}>
                  {t('editor.scenes.delete')}
                </Button>
              </Space>
            </div>
          </Card>
        );
      })}
      <Button type="dashed" style={{ height: 'auto', width: 96, flex: 'none' }} onClick={() => dispatch(a.addScene())} data-testid="add-scene">
        {t('editor.scenes.add')}
      </Button>
    </div>
  );
}
