import { App, Button, Drawer, Input, Select, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { FAILED, TASK_STATUSES, useAdminTasks, useAttempts, useRequeue, type AdminTask, type Attempt } from '@/api/maintainFarm';
import { AuditTrail } from './components/AuditTrail';
import { maintainErrorText } from './maintainErrors';

const PAGE_SIZE = 20;

function Attempts({ task }: { task: AdminTask }) {
  const { t } = useTranslation();
  const { data, isFetching, isError } = useAttempts(task.id);
  const columns: TableColumnsType<Attempt> = [
    { title: t('maintainFarm.task.attempt'), key: 'attempt', render: (_, a) => `${a.jobId.slice(0, 8)} #${a.attempt}` },
    { title: t('maintainFarm.task.state'), key: 'state', render: (_, a) => <Tag data-testid={`attempt-state-${a.jobId}`}>{t(`maintainFarm.attemptState.${a.state}`, { defaultValue: a.state })}</Tag> },
    { title: t('maintainFarm.task.queued'), dataIndex: 'queuedTime', key: 'queued' },
    { title: t('maintainFarm.task.started'), key: 'started', render: (_, a) => a.startedTime || '—' },
    { title: t('maintainFarm.task.ended'), key: 'ended', render: (_, a) => a.endedTime || '—' },
    { title: t('maintainFarm.task.error'), key: 'error', render: (_, a) => <span style={{ wordBreak: 'break-word' }}>{a.error || '—'}</span> },
  ];
  return (
    <Space orientation="vertical" style={{ width: '100%' }} size="large">
      <Typography.Paragraph type="secondary" style={{ marginBottom: 0 }}>
        {t('maintainFarm.task.workerNote')}
      </Typography.Paragraph>
      <Table<Attempt>
        size="small"
        rowKey={(a) => `${a.jobId}:${a.attempt}`}
        columns={columns}
        dataSource={data ?? []}
        loading={isFetching && !data}
        pagination={false}
        data-testid="attempts"
        locale={{ emptyText: isError ? t('maintainFarm.loadFailed') : t('maintainFarm.task.noAttempts') }}
      />
      <AuditTrail item={`task:${task.id}`} />
    </Space>
  );
}

/** /eb-maintain/task: search the tenant's tasks by id, user or state, see a task's render attempts, requeue a failed render. */
export function TaskPage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [taskId, setTaskId] = useState('');
  const [userId, setUserId] = useState('');
  const [status, setStatus] = useState<number | undefined>(undefined);
  const [pageNum, setPageNum] = useState(1);
  const [shown, setShown] = useState<AdminTask | null>(null);
  const { data, isFetching, isError, error } = useAdminTasks({ taskId, userId, status, pageNum, pageSize: PAGE_SIZE });
  const requeue = useRequeue();

  const statusName = (s: number) => t(`maintainFarm.status.${s}`, { defaultValue: String(s) });
  const onRequeue = (task: AdminTask) =>
    requeue.mutate(task.id, {
      onSuccess: () => void message.success(t('maintainFarm.task.requeued', { id: task.id })),
      onError: (e) => void message.error(maintainErrorText(e)),
    });

  const columns: TableColumnsType<AdminTask> = [
    { title: t('maintainFarm.task.id'), dataIndex: 'id', key: 'id', width: 90 },
    { title: t('maintainFarm.task.name'), key: 'name', render: (_, x) => (x.toolType ? `${x.taskName} · ${x.toolType}` : x.taskName) },
    { title: t('maintainFarm.task.user'), dataIndex: 'userId', key: 'user' },
    {
      title: t('maintainFarm.task.state'),
      key: 'status',
      render: (_, x) => (
        <Space orientation="vertical" size={0}>
          <Tag color={x.status === FAILED ? 'red' : x.status === 10 ? 'green' : undefined} data-testid={`status-${x.id}`}>
            {statusName(x.status)}
          </Tag>
          {x.reason ? <Typography.Text type="secondary" style={{ fontSize: 12 }}>{x.reason}</Typography.Text> : null}
        </Space>
      ),
    },
    { title: t('maintainFarm.task.updated'), dataIndex: 'updateTime', key: 'updated', responsive: ['md'] },
    {
      title: t('maintainFarm.task.actions'),
      key: 'actions',
      render: (_, x) => (
        <Space>
          <Button size="small" onClick={() => setShown(x)} data-testid={`attempts-${x.id}`}>
            {t('maintainFarm.task.attempts')}
          </Button>
          <Button
            size="small"
            type="primary"
            disabled={x.status !== FAILED || Boolean(x.toolType)}
            title={x.status !== FAILED ? t('maintainFarm.task.onlyFailed') : undefined}
            loading={requeue.isPending && requeue.variables === x.id}
            onClick={() => onRequeue(x)}
            data-testid={`requeue-${x.id}`}
          >
            {t('maintainFarm.task.requeue')}
          </Button>
        </Space>
      ),
    },
  ];

  return (
    <div style={{ maxWidth: 1120, margin: '0 auto' }} data-testid="maintain-task">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('maintainFarm.task.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('maintainFarm.task.intro')}</Typography.Paragraph>
      <Space wrap style={{ marginBottom: 16 }}>
        <Input.Search
          allowClear
          placeholder={t('maintainFarm.task.byId')}
          style={{ width: 180 }}
          data-testid="task-search-id"
          onSearch={(v) => {
            setTaskId(v.trim());
            setPageNum(1);
          }}
        />
        <Input.Search
          allowClear
          placeholder={t('maintainFarm.task.byUser')}
          style={{ width: 260 }}
          data-testid="task-search-user"
          onSearch={(v) => {
            setUserId(v.trim());
            setPageNum(1);
          }}
        />
        <Select<number | undefined>
          allowClear
          placeholder={t('maintainFarm.task.byState')}
          style={{ width: 160 }}
          value={status}
          data-testid="task-search-state"
          onChange={(v) => {
            setStatus(v);
            setPageNum(1);
          }}
          options={TASK_STATUSES.map((s) => ({ value: s, label: statusName(s) }))}
        />
      </Space>
      <Table<AdminTask>
        rowKey="id"
        columns={columns}
        dataSource={data?.list ?? []}
        loading={isFetching}
        scroll={{ x: 'max-content' }}
        locale={isError ? { emptyText: maintainErrorText(error) } : undefined}
        pagination={{
          current: pageNum,
          pageSize: PAGE_SIZE,
          total: data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('maintainFarm.task.total', { total }),
          onChange: setPageNum,
        }}
      />
      <Drawer
        open={shown !== null}
        size={760}
        title={shown ? t('maintainFarm.task.attemptsOf', { id: shown.id, name: shown.taskName }) : ''}
        onClose={() => setShown(null)}
        destroyOnHidden
      >
        {shown ? <Attempts task={shown} /> : null}
      </Drawer>
    </div>
  );
}
