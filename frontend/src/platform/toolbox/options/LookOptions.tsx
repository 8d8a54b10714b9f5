import { Alert, Form, InputNumber, Radio, Slider, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIMITS, upscaleSize, type BeautyParams, type InputFacts, type SlidesParams, type UpscaleParams, type UpscaleTarget } from '../params';

/** ppt: seconds a page shows, the crossfade into the next page, the frame; what the tool does (LibreOffice prints the pages). */
export function SlidesOptions({ value, onChange }: { value: SlidesParams; onChange: (v: SlidesParams) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Form.Item label={t('toolboxLooks.field.secondsPerPage')}>
        <InputNumber<number>
          min={LIMITS.pageSeconds.min}
          max={LIMITS.pageSeconds.max}
          step={0.5}
          value={value.secondsPerPage}
          onChange={(secondsPerPage) => onChange({ ...value, secondsPerPage: secondsPerPage ?? 0 })}
          suffix={t('toolbox.options.secondsUnit')}
          data-testid="option-seconds-per-page"
        />
      </Form.Item>
      <Form.Item label={t('toolboxLooks.field.crossfadeMs')} extra={t('toolboxLooks.options.crossfadeHelp')}>
        <Space wrap>
          <Slider
            min={LIMITS.crossfadeMs.min}
            max={LIMITS.crossfadeMs.max}
            step={100}
            value={value.crossfadeMs}
            onChange={(crossfadeMs) => onChange({ ...value, crossfadeMs })}
            style={{ width: 240 }}
          />
          <InputNumber<number>
            min={LIMITS.crossfadeMs.min}
            max={LIMITS.crossfadeMs.max}
            step={100}
            value={value.crossfadeMs}
            onChange={(crossfadeMs) => onChange({ ...value, crossfadeMs: crossfadeMs ?? 0 })}
            suffix="ms"
            data-testid="option-crossfade"
          />
        </Space>
      </Form.Item>
      <Form.Item label={t('toolboxLooks.field.resolution')} extra={t('toolboxLooks.options.fitted')}>
        <Radio.Group
          value={value.resolution}
          onChange={(e) => onChange({ ...value, resolution: e.target.value as SlidesParams['resolution'] })}
          options={LIMITS.slideResolutions.map((r) => ({ value: r, label: r }))}
          optionType="button"
          data-testid="option-resolution"
        />
      </Form.Item>
      <Typography.Text type="secondary" data-testid="tool-method">
        {t('toolboxLooks.options.slidesMethod')}
      </Typography.Text>
    </>
  );
}

/** A slider and a number box for one whole-number option. */
function Amount({ label, value, range, onChange, testId }: { label: string; value: number; range: { min: number; max: number }; onChange: (v: number) => void; testId: string }) {
  return (
    <Form.Item label={label}>
      <Space wrap>
        <Slider min={range.min} max={range.max} value={value} onChange={onChange} style={{ width: 240 }} />
        <InputNumber<number> min={range.min} max={range.max} precision={0} value={value} onChange={(v) => onChange(v ?? 0)} data-testid={testId} />
      </Space>
    </Form.Item>
  );
}

/** intelligent-beauty: smoothing strength and the skin's tone, with the method said (no model). */
export function BeautyOptions({ value, onChange }: { value: BeautyParams; onChange: (v: BeautyParams) => void }) {
  const { t } = useTranslation();
  return (
    <>
      <Alert type="info" showIcon title={t('toolboxLooks.options.beautyMethod')} style={{ marginBottom: 12 }} data-testid="tool-method" />
      <Amount label={t('toolboxLooks.field.strength')} value={value.strength} range={LIMITS.strength} onChange={(strength) => onChange({ ...value, strength })} testId="option-strength" />
      <Amount label={t('toolboxLooks.field.brightness')} value={value.brightness} range={LIMITS.tone} onChange={(brightness) => onChange({ ...value, brightness })} testId="option-brightness" />
      <Amount label={t('toolboxLooks.field.warmth')} value={value.warmth} range={LIMITS.tone} onChange={(warmth) => onChange({ ...value, warmth })} testId="option-warmth" />
    </>
  );
}

/** ai-recover-video: the output's size and the sharpening, with the method said (a classical upscale, no model). */
export function UpscaleOptions({ value, onChange, input }: { value: UpscaleParams; onChange: (v: UpscaleParams) => void; input: InputFacts }) {
  const { t } = useTranslation();
  const size = upscaleSize(value.target, input);
  return (
    <>
      <Alert type="info" showIcon title={t('toolboxLooks.options.upscaleMethod')} style={{ marginBottom: 12 }} data-testid="tool-method" />
      <Form.Item label={t('toolboxLooks.field.target')}>
        <Radio.Group
          value={value.target}
          onChange={(e) => onChange({ ...value, target: e.target.value as UpscaleTarget })}
          options={LIMITS.upscaleTargets.map((x) => ({ value: x, label: t(`toolboxLooks.options.target.${x}`) }))}
          optionType="button"
          data-testid="option-target"
        />
      </Form.Item>
      <Amount label={t('toolboxLooks.field.sharpen')} value={value.sharpen} range={LIMITS.sharpen} onChange={(sharpen) => onChange({ ...value, sharpen })} testId="option-sharpen" />
      {size ? (
        <Typography.Text type="secondary" data-testid="estimate">
          {t('toolbox.estimate.frame', { from: `${input.width}×${input.height}`, to: `${size.width}×${size.height}` })}
        </Typography.Text>
      ) : null}
    </>
  );
}
