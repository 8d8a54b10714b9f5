/** The caller's rendered works to pick one (radio buttons) or several up to a limit (checkboxes): a contest entry, a delivery, a service's samples. */
import { Checkbox, Empty, Pagination, Radio, Space, Spin, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { TaskStatus, useMyTasks, type TaskSummary } from '@/api/videoTask';
import { LiveTaskCover } from '@/components/task/LiveTaskCover';
import { useTaskName } from '@/components/task/taskName';
import { errorText } from '@/api/errors';

/** My rendered works, asked for a page at a time. */
const PICK_PAGE_SIZE = 20;
const RENDERED = [TaskStatus.success];

/** A work can be entered, delivered or shown as a sample once its render is done and it has a video. */
export function isRendered(task: TaskSummary): boolean {
  return task.status === TaskStatus.success && task.videoUrl !== '';
}

export interface WorksPickerProps {
  /** The works chosen, in the order they were chosen. */
  value: number[];
  onChange: (taskIds: number[]) => void;
  /** Checkboxes up to `max` works; without it, one work with radio buttons. */
  max?: number;
  /** The test id of a work's checkbox or radio button. */
  testId: (taskId: number) => string;
}

function WorkLabel({ task }: { task: TaskSummary }) {
  const name = useTaskName();
  return (
    <Space>
      <LiveTaskCover task={task} />
      <Space orientation="vertical" size={0}>
        <Typography.Text strong>{name(task.taskName)}</Typography.Text>
        {task.updateTime ? (
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {task.updateTime}
          </Typography.Text>
        ) : null}
      </Space>
    </Space>
  );
}

/** Lists the caller's rendered works (those with a video) to pick one, or several up to `max`. */
export function WorksPicker({ value, onChange, max, testId }: WorksPickerProps) {
  const { t } = useTranslation();
  const [pageNum, setPageNum] = useState(1);
  const { data, isFetching, isError, error } = useMyTasks(pageNum, PICK_PAGE_SIZE, '', null, RENDERED);
  if (isError) return <Typography.Text type="danger">{errorText(error)}</Typography.Text>;
  const works = (data?.list ?? []).filter(isRendered);
  const total = data?.total ?? 0;
  const multiple = max !== undefined;
  const full = multiple && value.length >= max;
  const toggle = (taskId: number, on: boolean) => {
    if (!multiple) onChange([taskId]);
    else onChange(on ? [...value.filter((id) => id !== taskId), taskId] : value.filter((id) => id !== taskId));
  };
  return (
    <Spin spinning={isFetching && !data}>
      {multiple ? (
        <Typography.Paragraph type="secondary" data-testid="works-picked-count">
          {t('worksPicker.picked', { count: value.length, max })}
        </Typography.Paragraph>
      ) : null}
      {data && works.length === 0 ? (
        <Empty
          image={Empty.PRESENTED_IMAGE_SIMPLE}
          description={
            <>
              {t('worksPicker.none')} <Link to="/qs/mydiy">{t('worksPicker.toWorks')}</Link>
            </>
          }
          data-testid="works-pick-empty"
        />
      ) : (
        <Space orientation="vertical" size={10} style={{ width: '100%', maxHeight: 420, overflowY: 'auto' }}>
          {works.map((task) => {
            const checked = value.includes(task.id);
            return multiple ? (
              <Checkbox
                key={task.id}
                checked={checked}
                disabled={full && !checked}
                onChange={(e) => toggle(task.id, e.target.checked)}
                style={{ alignItems: 'center' }}
                data-testid={testId(task.id)}
              >
                <WorkLabel task={task} />
              </Checkbox>
            ) : (
              <Radio key={task.id} checked={checked} onChange={() => toggle(task.id, true)} style={{ alignItems: 'center' }} data-testid={testId(task.id)}>
                <WorkLabel task={task} />
              </Radio>
            );
          })}
        </Space>
      )}
      {total > PICK_PAGE_SIZE ? (
        <Pagination
          size="small"
          style={{ marginTop: 12, justifyContent: 'flex-end' }}
          current={pageNum}
          pageSize={PICK_PAGE_SIZE}
          total={total}
          showSizeChanger={false}
          onChange={setPageNum}
        />
      ) : null}
    </Spin>
  );
}
