import { AppstoreAddOutlined } from '@ant-design/icons';
import { Button, Card, Col, Pagination, Row, Spin, Tabs, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link, Outlet, useLocation } from 'react-router';
import { TASKS_PAGE_SIZE, useMyTasks, type TaskSummary } from '@/api/videoTask';
import { EmptyState } from '@/components/EmptyState';
import { LiveTaskCover } from '@/components/task/LiveTaskCover';
import { LiveTaskStatus } from '@/components/task/LiveTaskStatus';
import { useTaskName } from '@/components/task/taskName';
import { SubmitTemplateModal } from '@/platform/templates/components/SubmitTemplateModal';
import { QS_EDITOR } from './QsLayout';

const TABS = [
  { key: '/qs/template-page/select', label: 'portal.templatePage.select' },
  { key: '/qs/template-page/my-template', label: 'portal.templatePage.mine' },
] as const;

/**
 * /qs/template-page: the template creators' area of the portal: offer a work as a template (`select`)
 * and follow the offered ones through review (`my-template`).
 */
export function QsTemplateArea() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="qs-template-area">
      <Tabs
        activeKey={pathname}
        items={TABS.map((tab) => ({ key: tab.key, label: <Link to={tab.key}>{t(tab.label)}</Link> }))}
      />
      <Outlet />
    </div>
  );
}

function OfferCard({ task, onOffer }: { task: TaskSummary; onOffer: (task: TaskSummary) => void }) {
  const { t } = useTranslation();
  const shown = useTaskName();
  return (
    <Card
      size="small"
      cover={<LiveTaskCover task={task} width="100%" height={140} />}
      actions={[
        <Button key="offer" type="link" icon={<AppstoreAddOutlined />} onClick={() => onOffer(task)} data-testid={`offer-${task.id}`}>
          {t('tpl.submitAction')}
        </Button>,
      ]}
      data-testid={`offer-work-${task.id}`}
    >
      <Typography.Text strong ellipsis={{ tooltip: shown(task.taskName) }} style={{ display: 'block' }}>
        {shown(task.taskName)}
      </Typography.Text>
      <LiveTaskStatus task={task} />
    </Card>
  );
}

/**
 * /qs/template-page/select: pick one of the caller's works to offer as a template (kind and
 * categories, then pending review); the offered ones are on `my-template`.
 */
export function QsMakeTemplatePage() {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const [offering, setOffering] = useState<TaskSummary | null>(null);
  const { data, isFetching, isError } = useMyTasks(pageNum, TASKS_PAGE_SIZE);
  const total = data?.total ?? 0;
  let body;
  if (isError) body = <Typography.Text type="danger">{t('tasks.loadFailed')}</Typography.Text>;
  else if (!isFetching && total === 0) body = <EmptyState createPath={QS_EDITOR} />;
  else
    body = (
      <Spin spinning={isFetching && !data}>
        <Row gutter={[16, 16]}>
          {(data?.list ?? []).map((task) => (
            <Col key={task.id} xs={24} sm={12} md={8} lg={6}>
              <OfferCard task={task} onOffer={setOffering} />
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
        />
      </Spin>
    );
  return (
    <div data-testid="qs-make-template">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('portal.templatePage.selectTitle')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('portal.templatePage.selectHint')}</Typography.Paragraph>
      {body}
      <SubmitTemplateModal task={offering} onClose={() => setOffering(null)} />
    </div>
  );
}
