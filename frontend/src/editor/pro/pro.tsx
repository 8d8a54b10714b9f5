/**
 * `/editor-pro`: the same editor with an advanced section for each layer (its id and material id,
 * its z and its start and end within the scene as numbers), for users who place things exactly.
 * Everything else is the `/diy` editor; the header says "pro".
 */
import { InputNumber, Typography } from 'antd';
import type { TFunction } from 'i18next';
import { createContext, useContext, type ReactNode } from 'react';
import type { Layer } from '@/editor/model/gen/Layer';
import type { LayerPatch } from '@/editor/state/editorSlice';
import { Field } from '@/editor/page/fields';

const ProContext = createContext(false);

/** Marks the editor below as the pro editor. */
export function EditorPro({ on, children }: { on: boolean; children: ReactNode }) {
  return <ProContext.Provider value={on}>{children}</ProContext.Provider>;
}

/** Whether the editor is the pro editor (`/editor-pro`). */
export function useEditorPro(): boolean {
  return useContext(ProContext);
}

/** The advanced section of a layer in the pro editor; its times stay within the scene and end after they start. */
export function advancedSection(layer: Layer, sceneLength: number, set: (c: LayerPatch) => void, t: TFunction) {
  const num = (label: string, value: number, min: number, max: number, onChange: (v: number) => void, testId: string) => (
    <Field label={label}>
      <InputNumber size="small" aria-label={label} data-testid={testId} value={value} min={min} max={max} step={0.1} style={{ width: '100%' }} onChange={(v) => typeof v === 'number' && onChange(v)} />
    </Field>
  );
  return {
    key: 'advanced',
    label: t('editorPro.advanced'),
    children: (
      <div data-testid="advanced-section">
        <Field label={t('editorPro.id')}>
          <Typography.Text code data-testid="advanced-id">
            {String(layer.id)}
            {layer.materialId !== undefined && layer.materialId !== '' ? ` · ${t('editorPro.material')} ${String(layer.materialId)}` : ''}
          </Typography.Text>
        </Field>
        {num(t('editorPro.z'), layer.z, 0, 100000, (z) => set({ z: Math.round(z) }), 'advanced-z')}
        {num(t('editorPro.start'), layer.startTime, 0, Math.max(0, layer.endTime - 0.1), (startTime) => set({ startTime }), 'advanced-start')}
        {num(t('editorPro.end'), layer.endTime, layer.startTime + 0.1, sceneLength, (endTime) => set({ endTime }), 'advanced-end')}
      </div>
    ),
  };
}
