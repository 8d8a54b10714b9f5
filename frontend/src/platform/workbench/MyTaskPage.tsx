import { Table, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { isActive, TASKS_PAGE_SIZE, useMyTasks, type TaskSummary } from '@/api/videoTask';
import { EmptyState } from '@/components/EmptyState';
import { LiveTaskProgress } from '@/components/task/LiveTaskProgress';
import { TaskActions, useLiveStatus } from '@/components/task/TaskActions';
import { LiveTaskCover } from '@/components/task/LiveTaskCover';
import { LiveTaskStatus } from '@/components/task/LiveTaskStatus';
import { TaskPreviewModal } from '@/components/task/TaskPreviewModal';
import { useTaskName } from '@/components/task/taskName';
import { useListCatchesUp } from '@/components/task/useListCatchesUp';
import { formatEta as formatClock } from '@/components/task/TaskProgress';

function TaskName({ name }: { name: string }) {
  const shown = useTaskName()(name);
  return (
    <Typography.Text strong ellipsis style={{ maxWidth: 240 }} title={shown}>
      {shown}
    </Typography.Text>
  );
}

function ProgressCell({ task }: { task: TaskSummary }) {
  useListCatchesUp(task);
  return <LiveTaskProgress taskId={task.id} active={isActive(useLiveStatus(task))} />;
}

/** The video's length and, once rendered with sound, its measured loudness. */
function LengthCell({ task }: { task: TaskSummary }) {
  const { t } = useTranslation();
  const loudness = task.loudness;
  return (
    <Typography.Text type="secondary">
      <span data-testid="task-duration">{task.duration ? formatClock(task.duration) : '—'}</span>
      {typeof loudness === 'number' ? (
        <span data-testid="task-loudness" title={t('tasks.loudnessHint')}>
          {' · '}
          {t('tasks.loudnessValue', { lufs: loudness.toFixed(1) })}
        </span>
      ) : null}
    </Typography.Text>
  );
}

/** /workbench/my-task: my render tasks with status, live progress, run, cancel, preview and download. */
export function MyTaskPage() {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const [preview, setPreview] = useState<TaskSummary | null>(null);
  const { data, isFetching, isError } = useMyTasks(pageNum);

  const columns: TableColumnsType<TaskSummary> = [
    { title: t('tasks.cover'), key: 'cover', width: 112, render: (_, task) => <LiveTaskCover task={task} /> },
    { title: t('tasks.name'), key: 'name', render: (_, task) => <TaskName name={task.taskName} /> },
    { title: t('tasks.statusTitle'), key: 'status', width: 140, render: (_, task) => <LiveTaskStatus task={task} /> },
    { title: t('tasks.length'), key: 'length', width: 150, render: (_, task) => <LengthCell task={task} /> },
    { title: t('tasks.progress'), key: 'progress', width: 300, render: (_, task) => <ProgressCell task={task} /> },
    { title: t('tasks.actions'), key: 'actions', render: (_, task) => <TaskActions task={task} onPreview={setPreview} /> },
  ];

  const empty = !isFetching && !isError && (data?.total ?? 0) === 0;

  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="my-task">
      <Typography.Title level={3}>{t('tasks.title')}</Typography.Title>
      {empty ? (
        <EmptyState createPath="/diy" />
      ) : (
        <Table<TaskSummary>
          rowKey="id"
          columns={columns}
          dataSource={data?.list ?? []}
          loading={isFetching && !data}
          locale={isError ? { emptyText: t('tasks.loadFailed') } : undefined}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: pageNum,
            pageSize: TASKS_PAGE_SIZE,
            total: data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (total) => t('tasks.total', { total }),
            onChange: setPageNum,
          }}
        />
      )}
      <TaskPreviewModal task={preview} onClose={() => setPreview(null)} />
    </div>
  );
}
