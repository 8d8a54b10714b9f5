import { PlusOutlined } from '@ant-design/icons';
import { App, Button, Drawer, Empty, InputNumber, Space, Spin, Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { SCORE_MAX, SCORE_MIN, useContest, useContests, useDeleteContest, useScoreEntry, type ContestDto, type EntryDto } from '@/api/contest';
import { useWarmTip } from '@/components/WarmTip';
import { useTaskName } from '@/components/task/taskName';
import { contestErrorText } from './contestErrors';
import { ContestFormModal } from './ContestFormModal';
import { ContestStateTag } from './ContestStateTag';
import { EntryCover, EntryVideoModal } from './EntryMedia';
import { contestPath } from './paths';

/** One entry's score: a whole number 0–100, saved on its own. */
function ScoreRow({ entry, onPlay }: { entry: EntryDto; onPlay: (e: EntryDto) => void }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const name = useTaskName();
  const score = useScoreEntry();
  const [value, setValue] = useState<number | null>(entry.score);
  const changed = value !== null && value !== entry.score;
  const saveScore = () => {
    if (value === null) return;
    score.mutate(
      { entryId: entry.id, score: value },
      { onSuccess: () => void message.success(t('contest.scores.saved')), onError: (err) => void message.error(contestErrorText(err)) },
    );
  };
  return (
    <Space align="center" size={12} style={{ width: '100%' }} data-testid={`contest-score-row-${entry.id}`}>
      <EntryCover entry={entry} onPlay={onPlay} width={120} />
      <Space orientation="vertical" size={2} style={{ minWidth: 140 }}>
        <Typography.Text strong>{name(entry.taskName)}</Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid={`contest-score-current-${entry.id}`}>
          {entry.score === null ? t('contest.entry.unscored') : t('contest.entry.score', { score: entry.score })}
        </Typography.Text>
      </Space>
      <InputNumber
        min={SCORE_MIN}
        max={SCORE_MAX}
        precision={0}
        value={value}
        onChange={(v) => setValue(typeof v === 'number' ? v : null)}
        aria-label={t('contest.scores.input', { name: name(entry.taskName) })}
        data-testid={`contest-score-input-${entry.id}`}
      />
      <Button type="primary" size="small" disabled={!changed} loading={score.isPending} onClick={saveScore} data-testid={`contest-score-save-${entry.id}`}>
        {t('contest.scores.save')}
      </Button>
    </Space>
  );
}

/** The entries of a scores contest, each with its score. */
function ScoresDrawer({ contest, onClose }: { contest: ContestDto | null; onClose: () => void }) {
  const { t } = useTranslation();
  const { data, isFetching, isError, error } = useContest(contest?.id ?? null);
  const [playing, setPlaying] = useState<EntryDto | null>(null);
  const entries = data?.entries ?? [];
  return (
    <Drawer open={contest !== null} title={contest ? t('contest.scores.title', { title: contest.title }) : null} size={640} onClose={onClose} destroyOnHidden>
      <div data-testid="contest-scores">
        <Typography.Paragraph type="secondary">{t('contest.scores.hint', { min: SCORE_MIN, max: SCORE_MAX })}</Typography.Paragraph>
        {isError ? (
          <Typography.Text type="danger">{contestErrorText(error)}</Typography.Text>
        ) : (
          <Spin spinning={isFetching && !data}>
            {data && entries.length === 0 ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('contest.detail.noEntries')} /> : null}
            <Space orientation="vertical" size={12} style={{ width: '100%' }}>
              {entries.map((entry) => (
                <ScoreRow key={`${entry.id}:${entry.score ?? ''}`} entry={entry} onPlay={setPlaying} />
              ))}
            </Space>
          </Spin>
        )}
      </div>
      <EntryVideoModal entry={playing} onClose={() => setPlaying(null)} />
    </Drawer>
  );
}

type Editing = { contest: ContestDto | null } | null;

/**
 * /manage/contest: the tenant's contests with their state, dates, ranking and entries; new and edit
 * in a form, delete (asked first; one with entries is refused), and the judges' scores of a scores
 * contest.
 */
export function ManageContestPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const warmTip = useWarmTip();
  const { data, isFetching, isError, error } = useContests();
  const remove = useDeleteContest();
  const [editing, setEditing] = useState<Editing>(null);
  const [scoring, setScoring] = useState<ContestDto | null>(null);

  const confirmDelete = (c: ContestDto) =>
    warmTip({
      content: t('contest.manage.deleteConfirm', { title: c.title }),
      okButtonProps: { danger: true, 'data-testid': 'confirm-delete' },
      onOk: () =>
        remove.mutate(c.id, {
          onSuccess: () => void message.success(t('contest.manage.deleted')),
          onError: (err) => void message.error(contestErrorText(err)),
        }),
    });

  const columns: TableColumnsType<ContestDto> = [
    {
      title: t('contest.form.title'),
      key: 'title',
      render: (_, c) => (
        <Space orientation="vertical" size={0}>
          <Link to={contestPath(c.id)} data-testid={`contest-name-${c.id}`}>
            {c.title}
          </Link>
          {c.theme ? (
            <Typography.Text type="secondary" ellipsis={{ tooltip: c.theme }} style={{ maxWidth: 320, fontSize: 12 }}>
              {c.theme}
            </Typography.Text>
          ) : null}
        </Space>
      ),
    },
    { title: t('contest.manage.state'), key: 'state', width: 96, render: (_, c) => <ContestStateTag state={c.state} testId={`contest-state-${c.id}`} /> },
    {
      title: t('contest.manage.time'),
      key: 'time',
      width: 200,
      render: (_, c) => (
        <Space orientation="vertical" size={0} style={{ fontSize: 12 }}>
          <span>{c.startTime}</span>
          <span>{c.endTime}</span>
        </Space>
      ),
    },
    { title: t('contest.form.ranking'), key: 'ranking', width: 110, render: (_, c) => t(`contest.ranking.${c.ranking}`) },
    { title: t('contest.result.entries'), key: 'entries', width: 80, render: (_, c) => <span data-testid={`contest-entry-count-${c.id}`}>{c.entryCount}</span> },
    {
      title: t('contest.manage.actions'),
      key: 'actions',
      width: 220,
      render: (_, c) => (
        <Space size={2} wrap>
          <Button size="small" type="link" onClick={() => setEditing({ contest: c })} data-testid={`contest-edit-${c.id}`}>
            {t('contest.manage.edit')}
          </Button>
          {c.ranking === 'scores' ? (
            <Button size="small" type="link" onClick={() => setScoring(c)} data-testid={`contest-scores-${c.id}`}>
              {t('contest.manage.scores')}
            </Button>
          ) : null}
          <Button size="small" type="link" danger onClick={() => confirmDelete(c)} data-testid={`contest-delete-${c.id}`}>
            {t('contest.manage.delete')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="manage-contest">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.manageContest')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('contest.manage.intro')}</Typography.Paragraph>
      <Button type="primary" icon={<PlusOutlined />} style={{ marginBottom: 12 }} onClick={() => setEditing({ contest: null })} data-testid="contest-new">
        {t('contest.manage.new')}
      </Button>
      {isError ? (
        <Typography.Text type="danger" data-testid="contest-error">
          {contestErrorText(error)}
        </Typography.Text>
      ) : (
        <Table<ContestDto>
          rowKey="id"
          loading={isFetching && !data}
          dataSource={data ?? []}
          columns={columns}
          pagination={false}
          locale={{ emptyText: <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('contest.list.empty')} /> }}
          onRow={(c) => ({ 'data-testid': `contest-row-${c.id}` }) as React.HTMLAttributes<HTMLElement>}
        />
      )}
      <ContestFormModal
        key={editing?.contest?.id ?? 'new'}
        contest={editing?.contest ?? null}
        open={editing !== null}
        onClose={() => setEditing(null)}
        onSaved={() => {
          void message.success(t('contest.manage.saved'));
          setEditing(null);
        }}
      />
      <ScoresDrawer contest={scoring} onClose={() => setScoring(null)} />
    </div>
  );
}
