import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ContestState } from '@/api/contest';

const COLOURS: Record<ContestState, string> = { upcoming: 'blue', open: 'green', closed: 'default' };

/** A contest's state (未开始 / 进行中 / 已结束) as a coloured tag. */
export function ContestStateTag({ state, testId }: { state: ContestState; testId?: string }) {
  const { t } = useTranslation();
  return (
    <Tag color={COLOURS[state]} data-testid={testId} data-state={state}>
      {t(`contest.state.${state}`)}
    </Tag>
  );
}
