import { Form, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIMITS, type PictureVideoParams, type Visual } from '../params';

/** audio-to-video: a picture (chosen as the second material) or the sound's waveform, and the frame's size. */
export function PictureVideoOptions({ value, onChange }: { value: PictureVideoParams; onChange: (v: PictureVideoParams) => void }) {
  const { t } = useTranslation();
  const size = `${value.width}x${value.height}`;
  return (
    <>
      <Form.Item label={t('toolbox.field.visual')}>
        <Radio.Group
          value={value.visual}
          onChange={(e) => onChange({ ...value, visual: e.target.value as Visual })}
          options={LIMITS.visuals.map((v) => ({ value: v, label: t(`toolbox.options.visual.${v}`) }))}
          optionType="button"
          data-testid="option-visual"
        />
      </Form.Item>
      <Form.Item label={t('toolbox.field.size')}>
        <Radio.Group
          value={size}
          onChange={(e) => {
            const [width, height] = String(e.target.value).split('x').map(Number);
            onChange({ ...value, width: width ?? value.width, height: height ?? value.height });
          }}
          options={LIMITS.videoSizes.map((s) => ({ value: `${s.width}x${s.height}`, label: `${s.width}×${s.height}` }))}
          data-testid="option-size"
        />
      </Form.Item>
    </>
  );
}
