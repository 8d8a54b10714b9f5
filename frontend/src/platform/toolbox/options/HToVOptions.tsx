import { Form, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { hToVSize, LIMITS, type Aspect, type HToVParams, type InputFacts } from '../params';

/** change-screen: 9:16 or 1:1, with the output's size (the picture across, a blurred fill above and below). */
export function HToVOptions({ value, onChange, input }: { value: HToVParams; onChange: (v: HToVParams) => void; input: InputFacts }) {
  const { t } = useTranslation();
  const size = hToVSize(value.aspect, input);
  return (
    <>
      <Form.Item label={t('toolbox.field.aspect')} extra={t('toolbox.options.blurFill')}>
        <Radio.Group
          value={value.aspect}
          onChange={(e) => onChange({ aspect: e.target.value as Aspect })}
          options={LIMITS.aspects.map((a) => ({ value: a, label: t(`toolbox.options.aspect.${a === '9:16' ? 'portrait' : 'square'}`) }))}
          optionType="button"
          data-testid="option-aspect"
        />
      </Form.Item>
      {input.width > 0 && input.height > 0 ? (
        <Typography.Text type="secondary" data-testid="estimate">
          {t('toolbox.estimate.frame', { from: `${input.width}×${input.height}`, to: `${size.width}×${size.height}` })}
        </Typography.Text>
      ) : null}
    </>
  );
}
