import { TrophyFilled } from '@ant-design/icons';
import { Alert, Card, Empty, Space, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useContest, useContests, type ContestDto, type EntryDto } from '@/api/contest';
import { BackLink } from '@/components/BackLink';
import { DetailFallback } from '@/components/DetailFallback';
import { useTaskName } from '@/components/task/taskName';
import { contestErrorText } from './contestErrors';
import { ContestFacts } from './ContestFacts';
import { ContestStateTag } from './ContestStateTag';
import { EntryCover, EntryVideoModal } from './EntryMedia';
import { contestIdParam, contestPath, resultPath, RESULTS_PATH } from './paths';

const PAGE = { maxWidth: 1100, margin: '0 auto' } as const;
const MEDALS = ['#f5b400', '#a0a8b4', '#c47a3a'];

/** The entries by rank (ties keep the server's order; unranked last). */
export function byRank(entries: readonly EntryDto[]): EntryDto[] {
  return entries
    .map((entry, i) => ({ entry, i }))
    .sort((a, b) => (a.entry.rank ?? Infinity) - (b.entry.rank ?? Infinity) || a.i - b.i)
    .map(({ entry }) => entry);
}

function RankCell({ rank }: { rank: number | null }) {
  if (rank === null) return <>–</>;
  const medal = MEDALS[rank - 1];
  return (
    <Space size={4}>
      {medal ? <TrophyFilled style={{ color: medal }} /> : null}
      <Typography.Text strong>{rank}</Typography.Text>
    </Space>
  );
}

/** The closed contests, to pick one's result. */
function ClosedContests() {
  const { t } = useTranslation();
  const { data, isFetching, isError, error } = useContests();
  const closed = (data ?? []).filter((c) => c.state === 'closed');
  const columns: TableColumnsType<ContestDto> = [
    {
      title: t('contest.result.contest'),
      key: 'title',
      render: (_, c) => (
        <Link to={resultPath(c.id)} data-testid={`contest-result-pick-${c.id}`}>
          {c.title}
        </Link>
      ),
    },
    { title: t('contest.form.end'), dataIndex: 'endTime', key: 'end', width: 190 },
    { title: t('contest.form.ranking'), key: 'ranking', width: 140, render: (_, c) => t(`contest.ranking.${c.ranking}`) },
    { title: t('contest.result.entries'), dataIndex: 'entryCount', key: 'entries', width: 100 },
  ];
  return (
    <div style={PAGE} data-testid="contest-results-list">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.qsContestResult')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('contest.result.pick')}</Typography.Paragraph>
      {isError ? (
        <Typography.Text type="danger" data-testid="contest-error">
          {contestErrorText(error)}
        </Typography.Text>
      ) : (
        <Table<ContestDto>
          rowKey="id"
          loading={isFetching && !data}
          dataSource={closed}
          columns={columns}
          pagination={false}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('contest.result.noneClosed')} data-testid="contest-results-empty" /> }}
          onRow={(c) => ({ 'data-testid': `contest-result-row-${c.id}` }) as React.HTMLAttributes<HTMLElement>}
        />
      )}
    </div>
  );
}

/** One contest's result: the ranking once it has closed, else when it will be published. */
function ContestResult({ id }: { id: number }) {
  const { t } = useTranslation();
  const name = useTaskName();
  const { data, isPending, isError, error } = useContest(id);
  const [playing, setPlaying] = useState<EntryDto | null>(null);
  const back = (
    <BackLink to={RESULTS_PATH} testId="contest-result-back">
      {t('contest.result.back')}
    </BackLink>
  );
  if (isPending || isError) return <DetailFallback refusal={isError ? contestErrorText(error) : null} back={back} style={PAGE} testId="contest-error" />;
  const { contest, entries } = data;
  const scores = contest.ranking === 'scores';
  const columns: TableColumnsType<EntryDto> = [
    { title: t('contest.result.rank'), key: 'rank', width: 90, render: (_, e) => <span data-testid={`contest-rank-${e.id}`}><RankCell rank={e.rank} /></span> },
    { title: t('contest.result.cover'), key: 'cover', width: 180, render: (_, e) => <EntryCover entry={e} onPlay={setPlaying} width={160} /> },
    {
      title: t('contest.result.work'),
      key: 'work',
      render: (_, e) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong data-testid={`contest-rank-name-${e.id}`}>
            {name(e.taskName)}
          </Typography.Text>
          {e.mine ? <Typography.Text type="secondary">{t('contest.entry.mine')}</Typography.Text> : null}
        </Space>
      ),
    },
    {
      title: scores ? t('contest.result.score') : t('contest.result.likes'),
      key: 'value',
      width: 120,
      render: (_, e) => <span data-testid={`contest-rank-value-${e.id}`}>{scores ? (e.score ?? '–') : e.likes}</span>,
    },
  ];
  return (
    <div style={PAGE} data-testid="contest-result">
      {back}
      <Card style={{ marginBottom: 16 }}>
        <Space align="center" wrap>
          <Typography.Title level={3} style={{ margin: 0 }} data-testid="contest-title">
            {t('contest.result.title', { title: contest.title })}
          </Typography.Title>
          <ContestStateTag state={contest.state} testId="contest-state" />
        </Space>
        <div style={{ marginTop: 8 }}>
          <ContestFacts contest={contest} />
        </div>
        <Link to={contestPath(contest.id)} style={{ display: 'inline-block', marginTop: 8 }} data-testid="contest-result-contest">
          {t('contest.result.toContest')}
        </Link>
      </Card>
      {contest.state === 'closed' ? (
        <Card title={t('contest.result.ranking')}>
          <Table<EntryDto>
            rowKey="id"
            dataSource={byRank(entries)}
            columns={columns}
            pagination={false}
            locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('contest.result.noEntries')} /> }}
            onRow={(e) => ({ 'data-testid': `contest-rank-row-${e.id}` }) as React.HTMLAttributes<HTMLElement>}
          />
        </Card>
      ) : (
        <Alert
          type="info"
          showIcon
          title={t('contest.result.later', { time: contest.endTime })}
          description={t('contest.entryCount', { count: contest.entryCount })}
          data-testid="contest-result-pending"
        />
      )}
      <EntryVideoModal entry={playing} onClose={() => setPlaying(null)} />
    </div>
  );
}

/** /qs/contest-result: `?id=N` a contest's ranking (or when it will be published); else the closed contests to pick from. */
export function ContestResultPage() {
  const [params] = useSearchParams();
  const id = contestIdParam(params);
  return id === null ? <ClosedContests /> : <ContestResult key={id} id={id} />;
}
