import { AimOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, InputNumber, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatEta as formatClock } from '@/components/task/TaskProgress';
import { splitPieces, type InputFacts, type SplitParams } from '../params';
import { toMs, toSeconds } from './RangeFields';

export interface SplitOptionsProps {
  value: SplitParams;
  onChange: (v: SplitParams) => void;
  input: InputFacts;
  currentMs: number;
}

/** video-separation: the split points (seconds, each settable from the playhead), with the clips they make. */
export function SplitOptions({ value, onChange, input, currentMs }: SplitOptionsProps) {
  const { t } = useTranslation();
  const set = (i: number, ms: number) => onChange({ times: value.times.map((x, j) => (j === i ? ms : x)) });
  const add = () => {
    const last = value.times[value.times.length - 1] ?? 0;
    const next = input.durationMs > 0 ? Math.round((last + input.durationMs) / 2) : last + 1000;
    onChange({ times: [...value.times, next] });
  };
  const pieces = input.durationMs > 0 ? splitPieces(value, input.durationMs) : [];
  return (
    <>
      <Form.Item label={t('toolbox.field.times')}>
        <Space orientation="vertical" size={8} data-testid="option-times">
          {value.times.map((ms, i) => (
            // Split points have no identity of their own; a row is its place in the list.
            <Space key={i} wrap size={8} data-testid={`time-${i}`}>
              <Space.Compact>
                <InputNumber<number>
                  min={0}
                  step={0.1}
                  precision={1}
                  value={toSeconds(ms)}
                  onChange={(s) => set(i, toMs(s))}
                  prefix={t('toolbox.options.splitN', { n: i + 1 })}
                  suffix={t('toolbox.options.secondsUnit')}
                  style={{ width: 190 }}
                  data-testid={`time-${i}-at`}
                />
                <Tooltip title={t('toolbox.options.fromPlayhead')}>
                  <Button icon={<AimOutlined />} onClick={() => set(i, Math.round(currentMs))} aria-label={t('toolbox.options.fromPlayhead')} />
                </Tooltip>
              </Space.Compact>
              <Button
                icon={<DeleteOutlined />}
                disabled={value.times.length === 1}
                onClick={() => onChange({ times: value.times.filter((_, j) => j !== i) })}
                aria-label={t('toolbox.options.removeSplit', { n: i + 1 })}
              />
            </Space>
          ))}
          <Button icon={<PlusOutlined />} onClick={add} data-testid="time-add">
            {t('toolbox.options.addSplit')}
          </Button>
        </Space>
      </Form.Item>
      {pieces.length > 0 ? (
        <Typography.Text type="secondary" data-testid="estimate">
          {t('toolbox.estimate.pieces', { n: pieces.length, lengths: pieces.map((p) => formatClock((p.endMs - p.startMs) / 1000)).join(' / ') })}
        </Typography.Text>
      ) : null}
    </>
  );
}
