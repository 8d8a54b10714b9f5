import { Form, InputNumber, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIMITS, lowBand, type CaptionParams, type EraseMethod, type InputFacts, type PixelBox, type WatermarkParams } from '../params';
import { FrameBox } from './FrameBox';

/** Blur or inpaint, with what each does. */
function MethodField({ value, onChange }: { value: EraseMethod; onChange: (m: EraseMethod) => void }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('toolbox.field.method')} extra={t(`toolbox.options.erase.${value}Help`)}>
      <Radio.Group
        value={value}
        onChange={(e) => onChange(e.target.value as EraseMethod)}
        options={LIMITS.eraseMethods.map((m) => ({ value: m, label: t(`toolbox.options.erase.${m}`) }))}
        optionType="button"
        data-testid="option-method"
      />
    </Form.Item>
  );
}

/** Whole source pixels for some of a box's sides. */
function PixelFields<K extends keyof PixelBox>({ keys, value, onChange }: { keys: readonly K[]; value: Pick<PixelBox, K>; onChange: (v: Pick<PixelBox, K>) => void }) {
  const { t } = useTranslation();
  return (
    <Space wrap>
      {keys.map((k) => (
        <InputNumber<number>
          key={k}
          min={k === 'width' || k === 'height' ? 1 : 0}
          step={1}
          precision={0}
          value={value[k]}
          onChange={(n) => onChange({ ...value, [k]: n ?? 0 })}
          prefix={t(`toolbox.options.box.${k}`)}
          suffix="px"
          style={{ width: 140 }}
          data-testid={`option-box-${k}`}
        />
      ))}
    </Space>
  );
}

const BOX_KEYS = ['x', 'y', 'width', 'height'] as const;
const BAND_KEYS = ['y', 'height'] as const;

export interface EraseOptionsProps<P> {
  value: P;
  onChange: (v: P) => void;
  input: InputFacts;
  /** The chosen video, for the frame the box is drawn on. */
  frameUrl: string;
  currentMs: number;
}

/** smart-watermark-remove: the box drawn on a frame (a drag, or the numbers) and blur or inpaint. */
export function WatermarkOptions({ value, onChange, input, frameUrl, currentMs }: EraseOptionsProps<WatermarkParams>) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={t('toolbox.options.box.label')} extra={t('toolbox.options.box.help')}>
        <Space orientation="vertical" style={{ width: '100%' }}>
          <FrameBox src={frameUrl} input={input} box={value} atMs={currentMs} onDraw={(box) => onChange({ ...value, ...box })} />
          <PixelFields keys={BOX_KEYS} value={value} onChange={(box) => onChange({ ...value, ...box })} />
        </Space>
      </Form.Item>
      <MethodField value={value.method} onChange={(method) => onChange({ ...value, method })} />
    </>
  );
}

/** remove-captions: a band drawn on a frame (rows, the whole width) or found by the server, and blur or inpaint. */
export function CaptionOptions({ value, onChange, input, frameUrl, currentMs }: EraseOptionsProps<CaptionParams>) {
  const { t } = useTranslation();
  const width = input.width;
  const lowerThird = Math.floor(input.height / 3);
  return (
    <>
      <Form.Item label={t('toolbox.options.band.label')} extra={t(`toolbox.options.band.${value.mode}Help`)}>
        <Radio.Group
          value={value.mode}
          onChange={(e) => onChange(e.target.value === 'detect' ? { mode: 'detect', method: value.method } : { mode: 'band', ...lowBand(input), method: value.method })}
          options={LIMITS.bandModes.map((m) => ({ value: m, label: t(`toolbox.options.band.${m}`) }))}
          optionType="button"
          data-testid="option-band-mode"
        />
      </Form.Item>
      {value.mode === 'band' ? (
        <Space orientation="vertical" style={{ width: '100%', marginBottom: 16 }}>
          <FrameBox
            src={frameUrl}
            input={input}
            box={{ x: 0, y: value.y, width, height: value.height }}
            atMs={currentMs}
            onDraw={(box) => onChange({ ...value, y: box.y, height: box.height })}
          />
          <PixelFields keys={BAND_KEYS} value={value} onChange={(band) => onChange({ ...value, ...band })} />
        </Space>
      ) : (
        <Space orientation="vertical" style={{ width: '100%', marginBottom: 16 }}>
          <FrameBox src={frameUrl} input={input} box={{ x: 0, y: input.height - lowerThird, width, height: lowerThird }} atMs={currentMs} tone="search" />
          <Typography.Text type="secondary">{t('toolbox.options.band.searched')}</Typography.Text>
        </Space>
      )}
      <MethodField value={value.method} onChange={(method) => onChange({ ...value, method })} />
    </>
  );
}
