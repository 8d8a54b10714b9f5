import { LikeFilled, LikeOutlined, SettingOutlined, TrophyOutlined, UploadOutlined } from '@ant-design/icons';
import { App, Button, Card, Col, Empty, Row, Space, Spin, Tag, Typography } from 'antd';
import dayjs from 'dayjs';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { useContest, useContests, useLikeEntry, useWithdrawEntry, type ContestDto, type EntryDto } from '@/api/contest';
import { useAppSelector } from '@/app/hooks';
import { BackLink } from '@/components/BackLink';
import { DetailFallback } from '@/components/DetailFallback';
import { useWarmTip } from '@/components/WarmTip';
import { useTaskName } from '@/components/task/taskName';
import { contestErrorText } from './contestErrors';
import { ContestFacts } from './ContestFacts';
import { ContestStateTag } from './ContestStateTag';
import { EntryCover, EntryVideoModal } from './EntryMedia';
import { CONTESTS_PATH, contestIdParam, contestPath, MANAGE_CONTESTS_PATH, resultPath, RESULTS_PATH } from './paths';
import { StartFromTemplate } from './StartFromTemplate';
import { SubmitEntryModal } from './SubmitEntryModal';

const PAGE = { maxWidth: 1200, margin: '0 auto' } as const;

/** Template managers keep the contests: they get a way to the manage page. */
function ManageLink() {
  const { t } = useTranslation();
  const manager = useAppSelector((s) => s.user.role === 'TEMPLATE_MANAGER');
  if (!manager) return null;
  return (
    <Link to={MANAGE_CONTESTS_PATH} data-testid="contest-manage">
      <Button icon={<SettingOutlined />}>{t('contest.list.manage')}</Button>
    </Link>
  );
}

function ContestCard({ contest }: { contest: ContestDto }) {
  const { t } = useTranslation();
  return (
    <Card
      hoverable
      style={{ height: '100%' }}
      data-testid={`contest-card-${contest.id}`}
      title={
        <Link to={contestPath(contest.id)} data-testid={`contest-open-${contest.id}`}>
          {contest.title}
        </Link>
      }
      extra={<ContestStateTag state={contest.state} testId={`contest-state-${contest.id}`} />}
      actions={[
        <Link key="open" to={contestPath(contest.id)}>
          {contest.state === 'open' ? t('contest.list.join') : t('contest.list.view')}
        </Link>,
        <Link key="result" to={resultPath(contest.id)} data-testid={`contest-card-result-${contest.id}`}>
          {t('contest.list.result')}
        </Link>,
      ]}
    >
      {contest.theme ? (
        <Typography.Paragraph ellipsis={{ rows: 2, tooltip: contest.theme }} data-testid={`contest-theme-${contest.id}`}>
          {contest.theme}
        </Typography.Paragraph>
      ) : null}
      <ContestFacts contest={contest} suffix={`-${contest.id}`} />
    </Card>
  );
}

/** The tenant's contests as cards, newest start first. */
function ContestList() {
  const { t } = useTranslation();
  const { data, isFetching, isError, error } = useContests();
  let body;
  if (isError)
    body = (
      <Typography.Text type="danger" data-testid="contest-error">
        {contestErrorText(error)}
      </Typography.Text>
    );
  else if (data && data.length === 0) body = <Empty description={t('contest.list.empty')} data-testid="contest-empty" />;
  else
    body = (
      <Spin spinning={isFetching && !data}>
        <Row gutter={[16, 16]}>
          {(data ?? []).map((c) => (
            <Col key={c.id} xs={24} md={12} lg={8}>
              <ContestCard contest={c} />
            </Col>
          ))}
        </Row>
      </Spin>
    );
  return (
    <div style={PAGE} data-testid="contest-list">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Title level={3} style={{ marginTop: 0 }}>
          {t('page.qsCompetitionContent')}
        </Typography.Title>
        <Space>
          <Link to={RESULTS_PATH} data-testid="contest-results">
            <Button icon={<TrophyOutlined />}>{t('page.qsContestResult')}</Button>
          </Link>
          <ManageLink />
        </Space>
      </Space>
      <Typography.Paragraph type="secondary">{t('contest.list.intro')}</Typography.Paragraph>
      {body}
    </div>
  );
}

/** Why an entry cannot be liked now, or null when it can. */
function likeBlock(entry: EntryDto, contest: ContestDto): 'liked' | 'mine' | 'closed' | null {
  if (entry.liked) return 'liked';
  if (entry.mine) return 'mine';
  if (contest.state === 'closed') return 'closed';
  return null;
}

function EntryCard({ entry, contest, onPlay }: { entry: EntryDto; contest: ContestDto; onPlay: (e: EntryDto) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const name = useTaskName();
  const like = useLikeEntry();
  const blocked = likeBlock(entry, contest);
  const liking = like.isPending;
  const send = () => like.mutate(entry.id, { onError: (err) => void message.error(contestErrorText(err)) });
  return (
    <Card size="small" cover={<EntryCover entry={entry} onPlay={onPlay} />} data-testid={`contest-entry-${entry.id}`} styles={{ body: { padding: 10 } }}>
      <Space style={{ width: '100%', justifyContent: 'space-between' }} align="center">
        <Typography.Text strong ellipsis={{ tooltip: entry.taskName }} style={{ maxWidth: 160 }} data-testid={`contest-entry-name-${entry.id}`}>
          {name(entry.taskName)}
        </Typography.Text>
        {entry.mine ? <Tag color="purple">{t('contest.entry.mine')}</Tag> : null}
      </Space>
      <Space style={{ width: '100%', justifyContent: 'space-between', marginTop: 6 }} align="center">
        <Button
          size="small"
          type={entry.liked ? 'primary' : 'default'}
          icon={entry.liked ? <LikeFilled /> : <LikeOutlined />}
          disabled={blocked !== null || liking}
          loading={liking}
          title={blocked ? t(`contest.entry.cannotLike.${blocked}`) : t('contest.entry.like')}
          onClick={send}
          data-testid={`contest-like-${entry.id}`}
        >
          <span data-testid={`contest-likes-${entry.id}`}>{entry.likes}</span>
        </Button>
        {contest.ranking === 'scores' ? (
          <Typography.Text type="secondary" data-testid={`contest-score-${entry.id}`}>
            {entry.score === null ? t('contest.entry.unscored') : t('contest.entry.score', { score: entry.score })}
          </Typography.Text>
        ) : null}
      </Space>
    </Card>
  );
}

/** The caller's own entry, withdrawable while the contest is open. */
function MyEntry({ entry, contest, onPlay }: { entry: EntryDto; contest: ContestDto; onPlay: (e: EntryDto) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const warmTip = useWarmTip();
  const name = useTaskName();
  const withdraw = useWithdrawEntry();
  const ask = () =>
    warmTip({
      content: t('contest.mine.withdrawConfirm', { name: name(entry.taskName) }),
      okButtonProps: { danger: true, 'data-testid': 'confirm-withdraw' },
      onOk: () =>
        withdraw.mutate(entry.id, {
          onSuccess: () => void message.success(t('contest.mine.withdrawn')),
          onError: (err) => void message.error(contestErrorText(err)),
        }),
    });
  return (
    <Card size="small" title={t('contest.mine.title')} style={{ marginBottom: 16 }} data-testid="contest-my-entry">
      <Space align="start" size={16} wrap>
        <EntryCover entry={entry} onPlay={onPlay} width={200} />
        <Space orientation="vertical" size={4}>
          <Typography.Text strong>{name(entry.taskName)}</Typography.Text>
          <Typography.Text type="secondary">{t('contest.mine.submitted', { time: dayjs(entry.submittedMs).format('YYYY-MM-DD HH:mm') })}</Typography.Text>
          <Typography.Text type="secondary">{t('contest.mine.likes', { count: entry.likes })}</Typography.Text>
          {contest.state === 'open' ? (
            <Button danger size="small" loading={withdraw.isPending} onClick={ask} data-testid="contest-withdraw">
              {t('contest.mine.withdraw')}
            </Button>
          ) : null}
        </Space>
      </Space>
    </Card>
  );
}

/** One contest: theme, rules, dates, ways to take part, the caller's entry and every entry. */
function ContestView({ id }: { id: number }) {
  const { t } = useTranslation();
  const { data, isPending, isError, error } = useContest(id);
  const [submitting, setSubmitting] = useState(false);
  const [playing, setPlaying] = useState<EntryDto | null>(null);
  const back = (
    <BackLink to={CONTESTS_PATH} testId="contest-back">
      {t('contest.detail.back')}
    </BackLink>
  );
  if (isPending || isError) return <DetailFallback refusal={isError ? contestErrorText(error) : null} back={back} style={PAGE} testId="contest-error" />;
  const { contest, entries } = data;
  const mine = entries.find((e) => e.mine);
  const open = contest.state === 'open';
  return (
    <div style={PAGE} data-testid="contest-detail">
      {back}
      <Card style={{ marginBottom: 16 }}>
        <Space align="center" wrap>
          <Typography.Title level={3} style={{ margin: 0 }} data-testid="contest-title">
            {contest.title}
          </Typography.Title>
          <ContestStateTag state={contest.state} testId="contest-state" />
        </Space>
        <div style={{ margin: '8px 0 16px' }}>
          <ContestFacts contest={contest} />
        </div>
        {contest.theme ? (
          <>
            <Typography.Title level={5}>{t('contest.detail.theme')}</Typography.Title>
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }} data-testid="contest-theme">
              {contest.theme}
            </Typography.Paragraph>
          </>
        ) : null}
        {contest.rules ? (
          <>
            <Typography.Title level={5}>{t('contest.detail.rules')}</Typography.Title>
            <Typography.Paragraph style={{ whiteSpace: 'pre-wrap' }} data-testid="contest-rules">
              {contest.rules}
            </Typography.Paragraph>
          </>
        ) : null}
        <Typography.Paragraph type="secondary" data-testid="contest-how">
          {t(`contest.detail.how.${contest.ranking}`)}
        </Typography.Paragraph>
        <Space wrap>
          {open && !mine ? (
            <Button type="primary" icon={<UploadOutlined />} onClick={() => setSubmitting(true)} data-testid="contest-submit">
              {t('contest.detail.submit')}
            </Button>
          ) : null}
          {contest.templateId > 0 ? <StartFromTemplate templateId={contest.templateId} /> : null}
          <Link to={resultPath(contest.id)} data-testid="contest-result-link">
            <Button icon={<TrophyOutlined />}>{contest.state === 'closed' ? t('contest.detail.result') : t('contest.detail.resultLater')}</Button>
          </Link>
        </Space>
        {contest.state === 'upcoming' ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }} data-testid="contest-not-open">
            {t('contest.detail.opensAt', { time: contest.startTime })}
          </Typography.Paragraph>
        ) : null}
        {contest.state === 'closed' ? (
          <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }} data-testid="contest-closed">
            {t('contest.detail.closedAt', { time: contest.endTime })}
          </Typography.Paragraph>
        ) : null}
      </Card>
      {mine ? <MyEntry entry={mine} contest={contest} onPlay={setPlaying} /> : null}
      <Card title={t('contest.detail.entries', { count: entries.length })} data-testid="contest-entries">
        {entries.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('contest.detail.noEntries')} data-testid="contest-no-entries" />
        ) : (
          <Row gutter={[16, 16]}>
            {entries.map((entry) => (
              <Col key={entry.id} xs={24} sm={12} md={8} lg={6}>
                <EntryCard entry={entry} contest={contest} onPlay={setPlaying} />
              </Col>
            ))}
          </Row>
        )}
      </Card>
      <SubmitEntryModal contest={contest} open={submitting} onClose={() => setSubmitting(false)} />
      <EntryVideoModal entry={playing} onClose={() => setPlaying(null)} />
    </div>
  );
}

/**
 * /qs/competition-content: the tenant's contests as cards; `?id=N` one contest, where a user enters a
 * rendered work while it is open, withdraws it, plays and likes the entries, and finds the result.
 */
export function CompetitionContentPage() {
  const [params] = useSearchParams();
  const id = contestIdParam(params);
  return id === null ? <ContestList /> : <ContestView key={id} id={id} />;
}
