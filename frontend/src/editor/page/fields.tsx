/** The editor's labelled form fields (property panel, audio, art word, pro sections); a slider drag is one undo step. */
import { InputNumber, Segmented, Slider, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ReactNode } from 'react';
import { useEditorDispatch } from '@/editor/page/useEditor';
import { editorActions as a } from '@/editor/state/editorSlice';

/** A labelled row: the label in a column of `labelWidth` pixels, the field beside it. */
export function Field({ label, children, labelWidth = 84 }: { label: string; children: ReactNode; labelWidth?: number }) {
  return (
    <div style={{ display: 'flex', alignItems: 'center', gap: 8, marginBottom: 8 }}>
      <Typography.Text type="secondary" style={{ width: labelWidth, flex: 'none' }}>
        {label}
      </Typography.Text>
      <div style={{ flex: 1, minWidth: 0 }}>{children}</div>
    </div>
  );
}

/** A seconds (or other unit) field, rounded to hundredths. */
export function NumberField(props: { label: string; value: number; onChange: (v: number) => void; min?: number; max?: number; step?: number; suffix?: string; disabled?: boolean; testId?: string }) {
  const { label, value, onChange, min, max, step = 0.1, suffix, disabled, testId } = props;
  return (
    <Field label={label}>
      <InputNumber
        aria-label={label}
        size="small"
        value={Math.round(value * 100) / 100}
        min={min}
        max={max}
        step={step}
        suffix={suffix}
        disabled={disabled}
        style={{ width: '100%' }}
        onChange={(v) => typeof v === 'number' && onChange(v)}
        data-testid={testId}
      />
    </Field>
  );
}

export function SliderField(props: { label: string; value: number; min: number; max: number; step?: number; onChange: (v: number) => void; after?: ReactNode; disabled?: boolean }) {
  const { label, value, min, max, step = 1, onChange, after, disabled } = props;
  const dispatch = useEditorDispatch();
  return (
    <Field label={label}>
      <div style={{ display: 'flex', alignItems: 'center', gap: 6 }}>
        <Slider
          style={{ flex: 1 }}
          ariaLabelForHandle={label}
          min={min}
          max={max}
          step={step}
          value={value}
          disabled={disabled}
          onChangeComplete={() => dispatch(a.commitGesture())}
          onChange={(v) => {
            dispatch(a.beginGesture());
            onChange(v);
          }}
        />
        {after}
      </div>
    </Field>
  );
}

/** A fill's kind: one colour or a gradient (shapes, art words). */
export function FillKindField({ label, gradient, onChange }: { label: string; gradient: boolean; onChange: (gradient: boolean) => void }) {
  const { t } = useTranslation();
  return (
    <Field label={label}>
      <Segmented
        size="small"
        value={gradient ? 'gradient' : 'color'}
        options={[
          { value: 'color', label: t('editor.props.fillColor') },
          { value: 'gradient', label: t('editor.props.gradient') },
        ]}
        onChange={(v) => onChange(v === 'gradient')}
      />
    </Field>
  );
}
