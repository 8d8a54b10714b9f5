import { DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, Radio, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatEta as formatClock } from '@/components/task/TaskProgress';
import { cutDurationMs, type CutMode, type CutParams, type InputFacts } from '../params';
import { RangeFields } from './RangeFields';

export interface CutOptionsProps {
  value: CutParams;
  onChange: (v: CutParams) => void;
  input: InputFacts;
  currentMs: number;
}

/** fast-video-cut and fast-audio-cut: keep or remove ranges (joined), with the result's length. */
export function CutOptions({ value, onChange, input, currentMs }: CutOptionsProps) {
  const { t } = useTranslation();
  const setRange = (i: number, range: CutParams['ranges'][number]) => onChange({ ...value, ranges: value.ranges.map((r, j) => (j === i ? range : r)) });
  const add = () => {
    const last = value.ranges[value.ranges.length - 1];
    const start = last ? last.endMs : 0;
    const end = input.durationMs > 0 ? Math.min(input.durationMs, start + 1000) : start + 1000;
    onChange({ ...value, ranges: [...value.ranges, { startMs: start, endMs: end }] });
  };
  return (
    <>
      <Form.Item label={t('toolbox.field.mode')}>
        <Radio.Group
          value={value.mode}
          onChange={(e) => onChange({ ...value, mode: e.target.value as CutMode })}
          options={[
            { value: 'keep', label: t('toolbox.options.mode.keep') },
            { value: 'remove', label: t('toolbox.options.mode.remove') },
          ]}
          optionType="button"
          data-testid="option-mode"
        />
      </Form.Item>
      <Form.Item label={t('toolbox.field.ranges')}>
        <Space orientation="vertical" size={8} data-testid="option-ranges">
          {value.ranges.map((range, i) => (
            // Ranges have no identity of their own; a row is its place in the list.
            <Space key={i} wrap size={8} data-testid={`range-${i}`}>
              <Typography.Text type="secondary">{t('toolbox.options.rangeN', { n: i + 1 })}</Typography.Text>
              <RangeFields value={range} onChange={(r) => setRange(i, r)} currentMs={currentMs} id={`range-${i}`} />
              <Button
                icon={<DeleteOutlined />}
                disabled={value.ranges.length === 1}
                onClick={() => onChange({ ...value, ranges: value.ranges.filter((_, j) => j !== i) })}
                aria-label={t('toolbox.options.removeRange', { n: i + 1 })}
              />
            </Space>
          ))}
          <Button icon={<PlusOutlined />} onClick={add} data-testid="range-add">
            {t('toolbox.options.addRange')}
          </Button>
        </Space>
      </Form.Item>
      {input.durationMs > 0 ? (
        <Typography.Text type="secondary" data-testid="estimate">
          {t('toolbox.estimate.duration', { from: formatClock(input.durationMs / 1000), to: formatClock(cutDurationMs(value, input.durationMs) / 1000) })}
        </Typography.Text>
      ) : null}
    </>
  );
}
