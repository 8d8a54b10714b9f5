import { Card, Result, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { isActive, useTask, type TaskSummary } from '@/api/videoTask';
import { editorLinkFor } from '@/app/editor';
import { LiveTaskCover } from '@/components/task/LiveTaskCover';
import { LiveTaskProgress } from '@/components/task/LiveTaskProgress';
import { LiveTaskStatus } from '@/components/task/LiveTaskStatus';
import { TaskActions, useLiveStatus } from '@/components/task/TaskActions';
import { TaskPreviewModal } from '@/components/task/TaskPreviewModal';

function CardTask({ task }: { task: TaskSummary }) {
  const { t } = useTranslation();
  const status = useLiveStatus(task);
  const [preview, setPreview] = useState<TaskSummary | null>(null);
  return (
    <Card title={task.taskName || t('tasks.untitled')} style={{ maxWidth: 520 }} data-testid="card-detail">
      <Space orientation="vertical" style={{ width: '100%' }}>
        <LiveTaskCover task={task} width="100%" height={240} />
        <LiveTaskStatus task={task} />
        <LiveTaskProgress taskId={task.id} active={isActive(status)} />
        <TaskActions task={task} onPreview={setPreview} />
        <Link to={editorLinkFor(task.id)}>{t('works.open')}</Link>
      </Space>
      <TaskPreviewModal task={preview} onClose={() => setPreview(null)} />
    </Card>
  );
}

/** /tools/business-card/detail/:id: one card task with its live render state, run, preview and download. */
export function CardDetailPage() {
  const { t } = useTranslation();
  const { id } = useParams();
  const taskId = Number(id);
  const valid = Number.isInteger(taskId) && taskId > 0;
  const task = useTask(valid ? taskId : null);
  let body;
  if (!valid || task.isError) body = <Result status="404" title={t('card.notFound')} />;
  else if (task.isPending) body = <Spin style={{ display: 'block', margin: '60px auto' }} />;
  else body = <CardTask task={task.data} />;
  return (
    <Space orientation="vertical" style={{ width: '100%' }}>
      <Link to="/tools/business-card/list">{t('card.myCards')}</Link>
      <Typography.Title level={3} style={{ margin: 0 }}>
        {t('page.businessCardDetail')}
      </Typography.Title>
      {body}
    </Space>
  );
}
