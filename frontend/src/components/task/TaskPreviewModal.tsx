import { Modal, Spin, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useMediaTicket, withTicket, type TaskSummary } from '@/api/videoTask';
import { useTaskName } from './taskName';

export interface TaskPreviewModalProps {
  task: TaskSummary | null;
  onClose: () => void;
}

/** Plays a finished task's video; the player fetches it with a media ticket, never a token. */
export function TaskPreviewModal({ task, onClose }: TaskPreviewModalProps) {
  const { t } = useTranslation();
  const ticket = useMediaTicket(task?.id ?? -1, task !== null);
  const shown = useTaskName();
  return (
    <Modal open={task !== null} onCancel={onClose} footer={null} title={task?.taskName ? shown(task.taskName) : t('tasks.preview')} width={800} destroyOnHidden centered>
      <div data-testid="task-preview" style={{ background: '#000', borderRadius: 8, minHeight: 240, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>
        {ticket.data && task ? (
          <video
            controls
            autoPlay
            src={withTicket(task.videoUrl, ticket.data.ticket)}
            poster={task.coverUrl ? withTicket(task.coverUrl, ticket.data.ticket) : undefined}
            style={{ width: '100%', maxHeight: '70vh', display: 'block', borderRadius: 8 }}
            data-testid="task-video"
          />
        ) : ticket.isError ? (
          <Typography.Text style={{ color: '#fff' }}>{t('tasks.mediaFailed')}</Typography.Text>
        ) : (
          <Spin />
        )}
      </div>
    </Modal>
  );
}
