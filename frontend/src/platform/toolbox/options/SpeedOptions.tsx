import { Form, InputNumber, Slider, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatEta as formatClock } from '@/components/task/TaskProgress';
import { LIMITS, speedDurationMs, type InputFacts, type SpeedParams } from '../params';

const MARKS = { 0.25: '0.25×', 0.5: '0.5×', 1: '1×', 2: '2×', 4: '4×' };

/** speed-video: the factor (pitch is kept), with the result's length. */
export function SpeedOptions({ value, onChange, input }: { value: SpeedParams; onChange: (v: SpeedParams) => void; input: InputFacts }) {
  const { t } = useTranslation();
  const { min, max } = LIMITS.speed;
  return (
    <>
      <Form.Item label={t('toolbox.field.speed')} extra={t('toolbox.options.pitchKept')}>
        <Space wrap>
          <Slider min={min} max={max} step={0.05} marks={MARKS} value={value.speed} onChange={(speed) => onChange({ speed })} style={{ width: 280 }} />
          <InputNumber<number> min={min} max={max} step={0.05} value={value.speed} onChange={(speed) => onChange({ speed: speed ?? 0 })} suffix="×" data-testid="option-speed" />
        </Space>
      </Form.Item>
      {input.durationMs > 0 && value.speed > 0 ? (
        <Typography.Text type="secondary" data-testid="estimate">
          {t('toolbox.estimate.duration', { from: formatClock(input.durationMs / 1000), to: formatClock(speedDurationMs(input.durationMs, value.speed) / 1000) })}
        </Typography.Text>
      ) : null}
    </>
  );
}
