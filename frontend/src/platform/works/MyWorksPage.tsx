import { AppstoreAddOutlined, CopyOutlined, DeleteOutlined, EditOutlined, FormOutlined } from '@ant-design/icons';
import { App, Button, Card, Col, Input, Pagination, Row, Space, Spin, Tooltip, Typography } from 'antd';
import { useEffect, useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useSearchParams } from 'react-router';
import { editorLinkFor, EDITOR_PATH, EDITOR_READY } from '@/app/editor';
import { isActive, TASKS_PAGE_SIZE, useDeleteTask, useDuplicateTask, useMyTasks, useRenameTask, type TaskSummary } from '@/api/videoTask';
import { EmptyState } from '@/components/EmptyState';
import { RenameModal } from '@/components/RenameModal';
import { useWarmTip } from '@/components/WarmTip';
import { SetRingButton } from '@/components/ring/SetRingButton';
import { LiveTaskCover } from '@/components/task/LiveTaskCover';
import { LiveTaskProgress } from '@/components/task/LiveTaskProgress';
import { LiveTaskStatus } from '@/components/task/LiveTaskStatus';
import { TaskActions, useLiveStatus } from '@/components/task/TaskActions';
import { TaskPreviewModal } from '@/components/task/TaskPreviewModal';
import { useTaskName } from '@/components/task/taskName';
import { useListCatchesUp } from '@/components/task/useListCatchesUp';
import { SubmitTemplateModal } from '@/platform/templates/components/SubmitTemplateModal';
import { formatEta as formatClock } from '@/components/task/TaskProgress';

function OpenInEditor({ task }: { task: TaskSummary }) {
  const { t } = useTranslation();
  if (!EDITOR_READY) {
    return (
      <Tooltip title={t('works.editorNotReady')}>
        <Button size="small" icon={<FormOutlined />} disabled data-testid={`edit-${task.id}`}>
          {t('works.open')}
        </Button>
      </Tooltip>
    );
  }
  return (
    <Link to={editorLinkFor(task.id)}>
      <Button size="small" icon={<FormOutlined />} data-testid={`edit-${task.id}`}>
        {t('works.open')}
      </Button>
    </Link>
  );
}

interface WorkCardProps {
  task: TaskSummary;
  onPreview: (task: TaskSummary) => void;
  onRename: (task: TaskSummary) => void;
  onSubmitTemplate: (task: TaskSummary) => void;
}

function WorkCard({ task, onPreview, onRename, onSubmitTemplate }: WorkCardProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const status = useLiveStatus(task);
  const shown = useTaskName();
  useListCatchesUp(task);
  const remove = useDeleteTask();
  const duplicate = useDuplicateTask();
  const warmTip = useWarmTip();
  const askDelete = () =>
    warmTip({
      content: t('works.deleteConfirm'),
      okButtonProps: { danger: true },
      onOk: () => remove.mutate(task.id, { onSuccess: () => void message.success(t('works.deleted')) }),
    });
  return (
    <Card size="small" cover={<LiveTaskCover task={task} width="100%" height={150} />} data-testid={`work-${task.id}`}>
      <Space orientation="vertical" size={6} style={{ width: '100%' }}>
        <Space style={{ width: '100%', justifyContent: 'space-between' }}>
          <Typography.Text strong ellipsis={{ tooltip: shown(task.taskName) }} style={{ maxWidth: 180 }} data-testid="work-name">
            {shown(task.taskName)}
          </Typography.Text>
          {task.duration ? (
            <Typography.Text type="secondary" style={{ fontSize: 12 }} data-testid="work-duration">
              {formatClock(task.duration)}
            </Typography.Text>
          ) : null}
        </Space>
        <LiveTaskStatus task={task} />
        <LiveTaskProgress taskId={task.id} active={isActive(status)} />
        <TaskActions task={task} onPreview={onPreview} />
        <SetRingButton work={task} status={status} type="primary" />
        <Space size={4} wrap>
          <OpenInEditor task={task} />
          <Button size="small" icon={<EditOutlined />} onClick={() => onRename(task)} data-testid={`rename-${task.id}`}>
            {t('works.rename')}
          </Button>
          <Button
            size="small"
            icon={<CopyOutlined />}
            loading={duplicate.isPending}
            onClick={() => duplicate.mutate(task.id, { onSuccess: () => void message.success(t('works.duplicated')) })}
            data-testid={`duplicate-${task.id}`}
          >
            {t('works.duplicate')}
          </Button>
          <Button size="small" icon={<AppstoreAddOutlined />} onClick={() => onSubmitTemplate(task)} data-testid={`submit-template-${task.id}`}>
            {t('tpl.submitAction')}
          </Button>
          <Button size="small" danger icon={<DeleteOutlined />} loading={remove.isPending} onClick={askDelete} data-testid={`delete-${task.id}`}>
            {t('works.delete')}
          </Button>
        </Space>
      </Space>
    </Card>
  );
}

export interface MyWorksPageProps {
  /** Only works of this use ('' for DIY works, /mydiyring); every work when absent. */
  usedFor?: string;
  /** Locale key of the title; null for none (a page around it names it). */
  titleKey?: string | null;
  /** Where the empty state's 'go create' leads. */
  createPath?: string;
}

/**
 * /my-works (and /mydiyring with `usedFor` ''): my works as cards with live state, play, download,
 * rename, copy, delete, submit as template, set as a video ringtone (a finished one) and a name search.
 */
export function MyWorksPage({ usedFor, titleKey = 'works.title', createPath = EDITOR_PATH }: MyWorksPageProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [pageNum, setPageNum] = useState(1);
  const [name, setName] = useState('');
  const [preview, setPreview] = useState<TaskSummary | null>(null);
  const [renaming, setRenaming] = useState<TaskSummary | null>(null);
  const [offering, setOffering] = useState<TaskSummary | null>(null);
  const { data, isFetching, isError } = useMyTasks(pageNum, TASKS_PAGE_SIZE, name, usedFor ?? null);
  const rename = useRenameTask();
  // `?preview=ID` (a work just delivered to the user, the newest of the first page) opens its player once.
  const [params, setParams] = useSearchParams();
  const wanted = Number(params.get('preview') ?? 0);
  useEffect(() => {
    if (!(wanted > 0) || !data) return;
    const found = data.list.find((task) => task.id === wanted);
    if (found) setPreview(found);
    const rest = new URLSearchParams(params);
    rest.delete('preview');
    setParams(rest, { replace: true });
  }, [data, params, setParams, wanted]);

  const onRename = (newName: string) => {
    if (!renaming) return;
    rename.mutate(
      { id: renaming.id, name: newName },
      {
        onSuccess: () => {
          setRenaming(null);
          void message.success(t('works.renamed'));
        },
      },
    );
  };

  const total = data?.total ?? 0;
  const empty = !isFetching && !isError && total === 0;

  return (
    <div style={titleKey !== null ? { maxWidth: 1200, margin: '0 auto' } : undefined} data-testid="my-works">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        {titleKey !== null ? (
          <Typography.Title level={3} style={{ marginTop: 0 }}>
            {t(titleKey)}
          </Typography.Title>
        ) : (
          <span />
        )}
        <Input.Search
          allowClear
          placeholder={t('works.search')}
          aria-label={t('works.search')}
          onSearch={(value) => {
            setName(value.trim());
            setPageNum(1);
          }}
          style={{ width: 260 }}
          data-testid="works-search"
        />
      </Space>
      {empty ? (
        <EmptyState createPath={createPath} />
      ) : isError ? (
        <Typography.Text type="danger">{t('tasks.loadFailed')}</Typography.Text>
      ) : (
        <Spin spinning={isFetching && !data}>
          <Row gutter={[16, 16]}>
            {(data?.list ?? []).map((task) => (
              <Col key={task.id} xs={24} sm={12} md={8} lg={6}>
                <WorkCard task={task} onPreview={setPreview} onRename={setRenaming} onSubmitTemplate={setOffering} />
              </Col>
            ))}
          </Row>
          <Pagination
            style={{ marginTop: 16, justifyContent: 'flex-end' }}
            current={pageNum}
            pageSize={TASKS_PAGE_SIZE}
            total={total}
            showSizeChanger={false}
            showTotal={(n) => t('works.total', { total: n })}
            onChange={setPageNum}
            hideOnSinglePage={false}
          />
        </Spin>
      )}
      <TaskPreviewModal task={preview} onClose={() => setPreview(null)} />
      <SubmitTemplateModal task={offering} onClose={() => setOffering(null)} />
      <RenameModal name={renaming ? renaming.taskName : null} onCancel={() => setRenaming(null)} onSubmit={onRename} pending={rename.isPending} />
    </div>
  );
}
