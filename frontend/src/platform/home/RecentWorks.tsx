import { Button, Card, Col, Row, Skeleton, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { EDITOR_PATH } from '@/app/editor';
import { TASKS_PAGE_SIZE, useMyTasks, type TaskSummary } from '@/api/videoTask';
import { EmptyState } from '@/components/EmptyState';
import { LiveTaskCover } from '@/components/task/LiveTaskCover';
import { LiveTaskStatus } from '@/components/task/LiveTaskStatus';
import { useTaskName } from '@/components/task/taskName';
import { HomeSection } from './HomeSection';

export interface RecentWorksProps {
  /** How many of the latest works are shown. */
  limit?: number;
  /** The editor's address that a work opens in ('/diy', or the portal's '/qs/diy'). */
  editorPath?: string;
  /** Where 'all my works' leads. */
  moreTo: string;
}

function RecentWork({ task, editorPath }: { task: TaskSummary; editorPath: string }) {
  const shown = useTaskName();
  return (
    <Link to={`${editorPath}?taskId=${task.id}`} data-testid={`recent-work-${task.id}`}>
      <Card size="small" hoverable cover={<LiveTaskCover task={task} width="100%" height={120} />}>
        <Typography.Text strong ellipsis={{ tooltip: shown(task.taskName) }} style={{ display: 'block' }}>
          {shown(task.taskName)}
        </Typography.Text>
        <LiveTaskStatus task={task} />
      </Card>
    </Link>
  );
}

/**
 * 'Continue where you left off': the caller's latest works, each opening the editor. It asks the
 * works page's own first page, so the two share one cached answer.
 */
export function RecentWorks({ limit = 4, editorPath = EDITOR_PATH, moreTo }: RecentWorksProps) {
  const { t } = useTranslation();
  const { data, isPending, isError } = useMyTasks(1, TASKS_PAGE_SIZE);
  const works = (data?.list ?? []).slice(0, limit);
  let body;
  if (isPending) body = <Skeleton active paragraph={{ rows: 3 }} />;
  else if (isError) body = <Typography.Text type="danger">{t('tasks.loadFailed')}</Typography.Text>;
  else if (works.length === 0) body = <EmptyState createPath={editorPath} />;
  else
    body = (
      <Row gutter={[16, 16]}>
        {works.map((task) => (
          <Col key={task.id} xs={24} sm={12} lg={6}>
            <RecentWork task={task} editorPath={editorPath} />
          </Col>
        ))}
      </Row>
    );
  return (
    <HomeSection
      title={t('portal.recent.title')}
      testId="recent-works"
      extra={
        <Link to={moreTo}>
          <Button type="link">{t('portal.recent.more')}</Button>
        </Link>
      }
    >
      {body}
    </HomeSection>
  );
}
