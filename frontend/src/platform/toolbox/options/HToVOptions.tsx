import { Form, Radio, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { followWindow, hToVSize, LIMITS, type Aspect, type HToVParams, type InputFacts, type Reframe } from '../params';

/**
 * change-screen: 9:16 or 1:1, and how the picture goes into it (across the frame over a blurred
 * fill, or a full-height window that pans to follow the subject), with the output's size.
 */
export function HToVOptions({ value, onChange, input }: { value: HToVParams; onChange: (v: HToVParams) => void; input: InputFacts }) {
  const { t } = useTranslation();
  const size = hToVSize(value.aspect, input);
  const crop = followWindow(value.aspect, input);
  const known = input.width > 0 && input.height > 0;
  return (
    <>
      <Form.Item label={t('toolbox.field.aspect')}>
        <Radio.Group
          value={value.aspect}
          onChange={(e) => onChange({ ...value, aspect: e.target.value as Aspect })}
          options={LIMITS.aspects.map((a) => ({ value: a, label: t(`toolbox.options.aspect.${a === '9:16' ? 'portrait' : 'square'}`) }))}
          optionType="button"
          data-testid="option-aspect"
        />
      </Form.Item>
      <Form.Item label={t('toolbox.field.reframe')} extra={<span data-testid="reframe-help">{t(`toolbox.options.reframe.${value.mode}Help`)}</span>}>
        <Radio.Group
          value={value.mode}
          onChange={(e) => onChange({ ...value, mode: e.target.value as Reframe })}
          options={LIMITS.reframes.map((m) => ({ value: m, label: t(`toolbox.options.reframe.${m}`) }))}
          optionType="button"
          data-testid="option-reframe"
        />
      </Form.Item>
      {known ? (
        <Typography.Text type="secondary" data-testid="estimate">
          {t('toolbox.estimate.frame', { from: `${input.width}×${input.height}`, to: `${size.width}×${size.height}` })}
        </Typography.Text>
      ) : null}
      {known && value.mode === 'follow' ? (
        <div>
          <Typography.Text type="secondary" data-testid="follow-window">
            {t('toolbox.options.reframe.window', { window: `${crop.width}×${crop.height}`, to: `${size.width}×${size.height}` })}
          </Typography.Text>
        </div>
      ) : null}
    </>
  );
}
