import { CalendarOutlined, TeamOutlined, TrophyOutlined } from '@ant-design/icons';
import { Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { ContestDto } from '@/api/contest';

/** A contest's dates (test ids `contest-dates{suffix}`…), how it ranks and how many works are entered, on one wrapping line. */
export function ContestFacts({ contest, suffix = '' }: { contest: ContestDto; suffix?: string }) {
  const { t } = useTranslation();
  return (
    <Space size={[16, 4]} wrap>
      <Typography.Text type="secondary" data-testid={`contest-dates${suffix}`}>
        <CalendarOutlined /> {t('contest.dates', { start: contest.startTime, end: contest.endTime })}
      </Typography.Text>
      <Typography.Text type="secondary" data-testid={`contest-ranking${suffix}`}>
        <TrophyOutlined /> {t(`contest.ranking.${contest.ranking}`)}
      </Typography.Text>
      <Typography.Text type="secondary" data-testid={`contest-entries${suffix}`}>
        <TeamOutlined /> {t('contest.entryCount', { count: contest.entryCount })}
      </Typography.Text>
    </Space>
  );
}
