import { CloseCircleOutlined, DeleteOutlined, EyeOutlined } from '@ant-design/icons';
import { Button, Modal, Popconfirm, Select, Space, Table, Typography, type TableColumnsType } from 'antd';
import dayjs from 'dayjs';
import type { TFunction } from 'i18next';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { TOOL_RUNS_PAGE_SIZE, useCancelToolRun, useDeleteToolRun, useMyToolRuns, useToolTypes, type ToolRun, type ToolType } from '@/api/toolbox';
import { isActive, TaskStatus, useTaskState } from '@/api/videoTask';
import { EmptyState } from '@/components/EmptyState';
import { LiveTaskProgress } from '@/components/task/LiveTaskProgress';
import { TaskProgress } from '@/components/task/TaskProgress';
import { TaskStatusTag } from '@/components/task/TaskStatusTag';
import { ToolOutputs } from './ToolOutputs';
import { runState } from './ToolRunView';
import { typeName } from './toolText';

/** A run's status as last heard from the farm's stream, else as listed (the list is asked again a little later). */
function useRunStatus(run: ToolRun): { status: number; reason: string } {
  const { data } = useTaskState(run.id);
  return { status: data?.status ?? run.status, reason: data?.reason || run.reason };
}

/** A run's status, with why it failed. */
function StatusCell({ run }: { run: ToolRun }) {
  const { status, reason } = useRunStatus(run);
  return (
    <Space orientation="vertical" size={2}>
      <TaskStatusTag status={status} />
      {status === TaskStatus.error && reason ? (
        <Typography.Text type="danger" style={{ fontSize: 12, maxWidth: 200 }} ellipsis={{ tooltip: reason }} data-testid="run-reason">
          {reason}
        </Typography.Text>
      ) : null}
    </Space>
  );
}

/** Live progress of a run that is queued or running; the bar as listed otherwise. */
function ProgressCell({ run }: { run: ToolRun }) {
  return isActive(run.status) ? <LiveTaskProgress taskId={run.id} active /> : <TaskProgress state={runState(run)} />;
}

/** Result, cancel and delete of one run. */
function RunActions({ run, onResult }: { run: ToolRun; onResult: (run: ToolRun) => void }) {
  const { t } = useTranslation();
  const cancel = useCancelToolRun();
  const remove = useDeleteToolRun();
  const { status } = useRunStatus(run);
  return (
    <Space size={4} wrap>
      {status === TaskStatus.success && run.outputs.length > 0 ? (
        <Button size="small" type="primary" ghost icon={<EyeOutlined />} onClick={() => onResult(run)} data-testid={`result-${run.id}`}>
          {t('toolbox.mine.result')}
        </Button>
      ) : null}
      {isActive(status) ? (
        <Popconfirm title={t('tasks.cancelConfirm')} okText={t('tasks.yes')} cancelText={t('tasks.no')} onConfirm={() => cancel.mutate(run.id)}>
          <Button size="small" danger icon={<CloseCircleOutlined />} loading={cancel.isPending} data-testid={`cancel-${run.id}`}>
            {t('tasks.cancel')}
          </Button>
        </Popconfirm>
      ) : (
        <Popconfirm title={t('toolbox.mine.deleteConfirm')} okText={t('tasks.yes')} cancelText={t('tasks.no')} onConfirm={() => remove.mutate(run.id)}>
          <Button size="small" icon={<DeleteOutlined />} loading={remove.isPending} data-testid={`delete-${run.id}`}>
            {t('material.delete')}
          </Button>
        </Popconfirm>
      )}
    </Space>
  );
}

/** The type filter's choices: every tool the server lists as shown. */
function typeOptions(t: TFunction, types: readonly ToolType[]) {
  return [{ value: '', label: t('toolbox.mine.allTypes') }, ...types.filter((x) => x.shown).map((x) => ({ value: x.type, label: typeName(t, types, x.type) }))];
}

/** /my-tool and /qs/my-tools: my tool runs with type filter, state, progress, result (preview, download, use in the editor), cancel and delete. */
export function MyToolsPage() {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const [type, setType] = useState('');
  const [result, setResult] = useState<ToolRun | null>(null);
  const types = useToolTypes();
  const known = types.data ?? [];
  const runs = useMyToolRuns({ pageNum, pageSize: TOOL_RUNS_PAGE_SIZE, type });

  const columns: TableColumnsType<ToolRun> = [
    {
      title: t('toolbox.mine.tool'),
      key: 'tool',
      render: (_, run) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text strong>{typeName(t, known, run.type)}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12, maxWidth: 240 }} ellipsis={{ tooltip: run.name }}>
            {run.name}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('tasks.statusTitle'), key: 'status', width: 160, render: (_, run) => <StatusCell run={run} /> },
    { title: t('tasks.progress'), key: 'progress', width: 300, render: (_, run) => <ProgressCell run={run} /> },
    { title: t('toolbox.mine.created'), key: 'created', width: 170, render: (_, run) => (run.createdMs > 0 ? dayjs(run.createdMs).format('YYYY-MM-DD HH:mm') : '—') },
    { title: t('tasks.actions'), key: 'actions', render: (_, run) => <RunActions run={run} onResult={setResult} /> },
  ];

  const empty = !runs.isFetching && !runs.isError && type === '' && (runs.data?.total ?? 0) === 0;
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="my-tools">
      <Typography.Title level={3}>{t('page.myTool')}</Typography.Title>
      <Select
        value={type}
        onChange={(next) => {
          setType(next);
          setPageNum(1);
        }}
        options={typeOptions(t, known)}
        style={{ minWidth: 200, marginBottom: 12 }}
        aria-label={t('toolbox.mine.typeFilter')}
        data-testid="my-tools-type"
      />
      {empty ? (
        <EmptyState createPath="/tools-index" />
      ) : (
        <Table<ToolRun>
          rowKey="id"
          columns={columns}
          dataSource={runs.data?.dataList ?? []}
          loading={runs.isFetching && !runs.data}
          locale={runs.isError ? { emptyText: t('toolbox.mine.loadFailed') } : undefined}
          scroll={{ x: 'max-content' }}
          pagination={{
            current: pageNum,
            pageSize: TOOL_RUNS_PAGE_SIZE,
            total: runs.data?.total ?? 0,
            showSizeChanger: false,
            showTotal: (total) => t('toolbox.mine.total', { total }),
            onChange: setPageNum,
          }}
        />
      )}
      <Modal open={result !== null} onCancel={() => setResult(null)} footer={null} title={result ? typeName(t, known, result.type) : ''} width={800} destroyOnHidden centered>
        {result ? <ToolOutputs run={result} /> : null}
      </Modal>
    </div>
  );
}
