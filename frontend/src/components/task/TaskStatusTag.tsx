import { Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { statusName, type TaskStatusName } from '@/api/videoTask';

const COLOURS: Record<TaskStatusName, string> = {
  new: 'default',
  wait: 'gold',
  executing: 'processing',
  error: 'error',
  success: 'success',
  cancelled: 'default',
};

/** A task's status as a coloured tag (new, wait, executing, error, success, cancelled). */
export function TaskStatusTag({ status }: { status: number }) {
  const { t } = useTranslation();
  const name = statusName(status);
  return (
    <Tag color={name ? COLOURS[name] : 'default'} data-testid="task-status" data-status={status} style={{ marginInlineEnd: 0 }}>
      {name ? t(`tasks.status.${name}`) : t('tasks.status.unknown', { code: status })}
    </Tag>
  );
}
