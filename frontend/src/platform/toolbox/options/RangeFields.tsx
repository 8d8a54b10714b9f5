import { AimOutlined } from '@ant-design/icons';
import { Button, InputNumber, Space, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TimeRange } from '../params';

/** Seconds shown for ms (one decimal). */
export const toSeconds = (ms: number): number => Math.round(ms / 100) / 10;
/** Ms for seconds typed in. */
export const toMs = (seconds: number | null): number => Math.round((seconds ?? 0) * 1000);

export interface RangeFieldsProps {
  value: TimeRange;
  onChange: (range: TimeRange) => void;
  /** The preview's playhead, ms: the buttons set an end to it. */
  currentMs: number;
  /** Test ids' prefix (`gif`, `range-0`). */
  id: string;
}

/** A stretch of the input: start and end in seconds, each settable from the preview's playhead. */
export function RangeFields({ value, onChange, currentMs, id }: RangeFieldsProps) {
  const { t } = useTranslation();
  const end = (which: 'startMs' | 'endMs') => (
    <Space.Compact>
      <InputNumber<number>
        min={0}
        step={0.1}
        precision={1}
        value={toSeconds(value[which])}
        onChange={(s) => onChange({ ...value, [which]: toMs(s) })}
        prefix={t(which === 'startMs' ? 'toolbox.options.start' : 'toolbox.options.end')}
        suffix={t('toolbox.options.secondsUnit')}
        style={{ width: 170 }}
        data-testid={`${id}-${which === 'startMs' ? 'start' : 'end'}`}
      />
      <Tooltip title={t('toolbox.options.fromPlayhead')}>
        <Button icon={<AimOutlined />} onClick={() => onChange({ ...value, [which]: Math.round(currentMs) })} aria-label={t('toolbox.options.fromPlayhead')} />
      </Tooltip>
    </Space.Compact>
  );
  return (
    <Space wrap size={8}>
      {end('startMs')}
      {end('endMs')}
    </Space>
  );
}
