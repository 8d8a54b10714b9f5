import { AimOutlined, DeleteOutlined, PlusOutlined } from '@ant-design/icons';
import { Button, Form, InputNumber, Radio, Space, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { formatEta as formatClock } from '@/components/task/TaskProgress';
import { byScenes, DEFAULT_DETECT, LIMITS, splitPieces, type InputFacts, type SplitParams, type SplitTimesParams } from '../params';
import { toMs, toSeconds } from './RangeFields';
import { SceneDetectFields } from './SceneOptions';

export interface SplitOptionsProps {
  value: SplitParams;
  onChange: (v: SplitParams) => void;
  input: InputFacts;
  currentMs: number;
}

/** video-separation: by times or by detected scenes. */
export function SplitOptions({ value, onChange, input, currentMs }: SplitOptionsProps) {
  const { t } = useTranslation();
  const half = input.durationMs > 0 ? Math.round(input.durationMs / 2) : 1_000;
  return (
    <>
      <Form.Item label={t('toolbox.field.splitMode')}>
        <Radio.Group
          value={byScenes(value) ? 'scenes' : 'times'}
          onChange={(e) => onChange(e.target.value === 'scenes' ? { mode: 'scenes', ...DEFAULT_DETECT } : { times: [half] })}
          options={LIMITS.splitModes.map((m) => ({ value: m, label: t(`toolbox.options.splitMode.${m}`) }))}
          optionType="button"
          data-testid="option-split-mode"
        />
      </Form.Item>
      {byScenes(value) ? (
        <>
          <SceneDetectFields value={value} onChange={onChange} />
          <Typography.Text type="secondary" data-testid="estimate">
            {t('toolbox.estimate.sceneClips')}
          </Typography.Text>
        </>
      ) : (
        <SplitTimes value={value} onChange={onChange} input={input} currentMs={currentMs} />
      )}
    </>
  );
}

/** The split points (seconds, each settable from the playhead), with the clips they make. */
function SplitTimes({ value, onChange, input, currentMs }: { value: SplitTimesParams; onChange: (v: SplitTimesParams) => void; input: InputFacts; currentMs: number }) {
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
