import { AppstoreAddOutlined, FileImageOutlined, PictureOutlined, PlusOutlined } from '@ant-design/icons';
import { useQuery } from '@tanstack/react-query';
import { Button, Card, Col, Empty, Flex, Progress, Row, Space, Spin, Typography } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { api } from '@/api/client';
import { queryKeys } from '@/api/keys';
import { ALL_CATEGORIES, useMaterials, type MaterialFilter } from '@/api/material';
import { useMaterialQuota } from '@/api/materialQuota';
import { quotaPercent, quotaUsageText } from '@/api/quotaUsage';
import { useMyToolRuns, useToolTypes } from '@/api/toolbox';
import { isActive, TaskStatus, useMyTasks, type TaskPage, type TaskSummary } from '@/api/videoTask';
import { editorLinkFor } from '@/app/editor';
import { BeginnerTip } from '@/components/BeginnerTip';
import { MaterialCard } from '@/components/material/MaterialCard';
import { LiveTaskProgress } from '@/components/task/LiveTaskProgress';
import { LiveTaskStatus } from '@/components/task/LiveTaskStatus';
import { useTaskName } from '@/components/task/taskName';
import { typeName } from '@/platform/toolbox/toolText';

/** How many recent materials the overview shows. */
export const RECENT_MATERIALS = 6;
/** How many recent works the overview shows. */
export const RECENT_WORKS = 5;
/** How often the running list is asked again while something runs, ms. */
export const RUNNING_POLL_MS = 5_000;

/** The states of a render that is queued or running (GET /videotask/mine `taskState`). */
export const RUNNING_STATES = `${TaskStatus.wait},${TaskStatus.executing}`;

/** My renders that are queued or running, asked again while there are any; my tasks' changes reload it. */
function useRunningTasks() {
  return useQuery({
    queryKey: [...queryKeys.videoTask.mine.all, 'running'],
    queryFn: async () => {
      const data = await api.get<TaskPage | undefined>('/videotask/mine', { pageNum: 1, pageSize: 10, taskState: RUNNING_STATES });
      return Array.isArray(data?.list) ? data.list : [];
    },
    refetchInterval: (query) => ((query.state.data?.length ?? 0) > 0 ? RUNNING_POLL_MS : false),
  });
}

function StorageCard() {
  const { t } = useTranslation();
  const quota = useMaterialQuota();
  return (
    <Card title={t('workbench.storage')} extra={<Link to="/workbench/my-material">{t('workbench.toMaterials')}</Link>} data-testid="workbench-storage">
      {quota.data ? (
        <>
          <Progress percent={quotaPercent(quota.data)} status={quotaPercent(quota.data) >= 100 ? 'exception' : 'normal'} />
          <Typography.Text data-testid="workbench-storage-text">{quotaUsageText(quota.data)}</Typography.Text>
        </>
      ) : quota.isError ? (
        <Typography.Text type="danger">{t('workbench.loadFailed')}</Typography.Text>
      ) : (
        <Spin />
      )}
    </Card>
  );
}

function StartCard() {
  const { t } = useTranslation();
  return (
    <Card title={t('workbench.start')}>
      <Space wrap>
        <Link to="/new-task">
          <Button type="primary" icon={<PlusOutlined />} data-testid="workbench-new-task">
            {t('page.newTask')}
          </Button>
        </Link>
        <Link to="/put-image">
          <Button icon={<PictureOutlined />}>{t('page.putImage')}</Button>
        </Link>
        <Link to="/template-select">
          <Button icon={<AppstoreAddOutlined />}>{t('workbench.fromTemplate')}</Button>
        </Link>
        <Link to="/workbench/my-material">
          <Button icon={<FileImageOutlined />}>{t('workbench.pickMaterials')}</Button>
        </Link>
      </Space>
    </Card>
  );
}

function RecentMaterials() {
  const { t } = useTranslation();
  const filter = useMemo<MaterialFilter>(() => ({ source: 'user', categoryId: ALL_CATEGORIES, orderType: 'newest', pageSize: RECENT_MATERIALS }), []);
  const list = useMaterials(filter);
  const items = (list.data?.pages[0]?.dataList ?? []).slice(0, RECENT_MATERIALS);
  return (
    <Card title={t('workbench.recentMaterials')} extra={<Link to="/workbench/my-material">{t('workbench.all')}</Link>} data-testid="workbench-materials">
      <Spin spinning={list.isLoading}>
        {!list.isLoading && items.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workbench.noMaterials')} />
        ) : (
          <Row gutter={[8, 8]}>
            {items.map((m) => (
              <Col key={m.id} xs={12} sm={8} md={4}>
                <Link to="/workbench/my-material" data-testid={`workbench-material-${m.id}`}>
                  <MaterialCard material={m} compact />
                </Link>
              </Col>
            ))}
          </Row>
        )}
      </Spin>
    </Card>
  );
}

function WorkRow({ task }: { task: TaskSummary }) {
  const named = useTaskName();
  return (
    <Flex justify="space-between" align="center" style={{ padding: '8px 0', borderBottom: '1px solid #f0f0f0' }}>
      <Link to={editorLinkFor(task.id)} data-testid={`workbench-work-${task.id}`}>
        {named(task.taskName)}
      </Link>
      <LiveTaskStatus task={task} />
    </Flex>
  );
}

function RecentWorks() {
  const { t } = useTranslation();
  const works = useMyTasks(1, RECENT_WORKS);
  const list = works.data?.list ?? [];
  return (
    <Card title={t('workbench.recentWorks')} extra={<Link to="/my-works">{t('workbench.all')}</Link>} data-testid="workbench-works">
      <Spin spinning={works.isLoading}>
        {!works.isLoading && list.length === 0 ? (
          <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t(works.isError ? 'workbench.loadFailed' : 'workbench.noWorks')} />
        ) : (
          list.map((task) => <WorkRow key={task.id} task={task} />)
        )}
      </Spin>
    </Card>
  );
}

function Running() {
  const { t } = useTranslation();
  const renders = useRunningTasks();
  const tools = useMyToolRuns({ pageNum: 1, pageSize: 20, type: '' });
  const types = useToolTypes();
  const named = useTaskName();
  const runs = (tools.data?.dataList ?? []).filter((r) => isActive(r.status));
  const list = renders.data ?? [];
  const nothing = !renders.isLoading && !tools.isLoading && list.length === 0 && runs.length === 0;
  return (
    <Card title={t('workbench.running')} data-testid="workbench-running">
      {nothing ? <Empty image={Empty.PRESENTED_IMAGE_SIMPLE} description={t('workbench.nothingRunning')} /> : null}
      {list.map((task) => (
        <div key={`task-${task.id}`} style={{ marginBottom: 12 }} data-testid={`workbench-render-${task.id}`}>
          <Link to="/workbench/my-task">{named(task.taskName)}</Link>
          <LiveTaskProgress taskId={task.id} active />
        </div>
      ))}
      {runs.map((run) => (
        <div key={`run-${run.id}`} style={{ marginBottom: 12 }} data-testid={`workbench-tool-${run.id}`}>
          <Link to="/my-tool">{typeName(t, types.data ?? [], run.type)}</Link>
          <LiveTaskProgress taskId={run.id} active />
        </div>
      ))}
    </Card>
  );
}

/** `/workbench`: storage against the quota, ways to start, recent materials and works, and what is rendering now. */
export function WorkbenchHomePage() {
  const { t } = useTranslation();
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="workbench-home">
      <Typography.Title level={3}>{t('page.workbench')}</Typography.Title>
      <Row gutter={[16, 16]}>
        <Col xs={24} md={12}>
          <StorageCard />
        </Col>
        <Col xs={24} md={12}>
          <StartCard />
        </Col>
        <Col span={24}>
          <RecentMaterials />
        </Col>
        <Col xs={24} md={12}>
          <RecentWorks />
        </Col>
        <Col xs={24} md={12}>
          <Running />
        </Col>
      </Row>
      <BeginnerTip tip="workbench" />
    </div>
  );
}
