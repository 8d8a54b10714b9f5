import { Form, InputNumber, Switch, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatFileSize } from '@/api/material';
import { gifHeight, gifSizeEstimate, LIMITS, type GifParams, type InputFacts } from '../params';
import { RangeFields } from './RangeFields';

export interface GifOptionsProps {
  value: GifParams;
  onChange: (v: GifParams) => void;
  input: InputFacts;
  currentMs: number;
}

/** video-to-gif: the stretch, frame rate, width and loop, with the GIF's size to expect. */
export function GifOptions({ value, onChange, input, currentMs }: GifOptionsProps) {
  const { t } = useTranslation();
  const { fps, width } = LIMITS.gif;
  return (
    <>
      <Form.Item label={t('toolbox.options.stretch')}>
        <RangeFields value={value} onChange={(range) => onChange({ ...value, ...range })} currentMs={currentMs} id="gif" />
      </Form.Item>
      <Form.Item label={t('toolbox.field.fps')} extra={t('toolbox.options.between', fps)}>
        <InputNumber<number> min={fps.min} max={fps.max} precision={0} value={value.fps} onChange={(v) => onChange({ ...value, fps: v ?? 0 })} data-testid="option-fps" />
      </Form.Item>
      <Form.Item label={t('toolbox.field.width')} extra={t('toolbox.options.between', width)}>
        <InputNumber<number>
          min={width.min}
          max={width.max}
          precision={0}
          value={value.width}
          onChange={(v) => onChange({ ...value, width: v ?? 0 })}
          suffix="px"
          data-testid="option-width"
        />
      </Form.Item>
      <Form.Item label={t('toolbox.field.loop')}>
        <Switch checked={value.loop} onChange={(loop) => onChange({ ...value, loop })} data-testid="option-loop" />
      </Form.Item>
      {value.endMs > value.startMs && value.fps > 0 && value.width > 0 ? (
        <Typography.Text type="secondary" data-testid="estimate">
          {t('toolbox.estimate.gif', {
            size: formatFileSize(gifSizeEstimate(value, input)),
            width: value.width,
            height: gifHeight(value.width, input),
            frames: Math.ceil(((value.endMs - value.startMs) / 1000) * value.fps),
          })}
        </Typography.Text>
      ) : null}
    </>
  );
}
