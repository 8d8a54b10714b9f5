import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { ringStateName, type RingStateName } from '@/api/ring';

const COLOURS: Record<RingStateName, string> = {
  notJoin: 'warning',
  error: 'error',
  notSet: 'default',
  success: 'success',
  setting: 'processing',
  cancelSetting: 'default',
};

/** A ring order's state as a coloured tag (spec platform §4 states, in the page's language). */
export function RingStateTag({ state }: { state: number }) {
  const { t } = useTranslation();
  const name = ringStateName(state);
  return (
    <Tag color={name ? COLOURS[name] : 'default'} data-testid="ring-state" data-state={state} style={{ marginInlineEnd: 0 }}>
      {name ? t(`ring.state.${name}`) : t('ring.state.unknown', { code: state })}
    </Tag>
  );
}
