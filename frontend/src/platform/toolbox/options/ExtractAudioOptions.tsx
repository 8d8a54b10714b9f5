import { Form, Radio } from 'antd';
import { useTranslation } from 'react-i18next';
import { LIMITS, type AudioFormat, type ExtractAudioParams } from '../params';

/** extract-audio: the sound's format. */
export function ExtractAudioOptions({ value, onChange }: { value: ExtractAudioParams; onChange: (v: ExtractAudioParams) => void }) {
  const { t } = useTranslation();
  return (
    <Form.Item label={t('toolbox.field.format')}>
      <Radio.Group
        value={value.format}
        onChange={(e) => onChange({ format: e.target.value as AudioFormat })}
        options={LIMITS.audioFormats.map((f) => ({ value: f, label: t(`toolbox.options.format.${f}`) }))}
        optionType="button"
        data-testid="option-format"
      />
    </Form.Item>
  );
}
