import { Alert, App, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSubmitEntry, type ContestDto } from '@/api/contest';
import { WorksPicker } from '@/components/task/WorksPicker';
import { contestErrorText } from './contestErrors';

export interface SubmitEntryModalProps {
  contest: ContestDto;
  open: boolean;
  onClose: () => void;
}

/** Picks one of the caller's rendered works and enters it in the contest. */
export function SubmitEntryModal({ contest, open, onClose }: SubmitEntryModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [taskId, setTaskId] = useState<number | null>(null);
  const submit = useSubmitEntry();
  const close = () => {
    submit.reset();
    setTaskId(null);
    onClose();
  };
  const send = () => {
    if (taskId === null) return;
    submit.mutate(
      { contestId: contest.id, taskId },
      {
        onSuccess: () => {
          void message.success(t('contest.submit.done'));
          close();
        },
      },
    );
  };
  return (
    <Modal
      open={open}
      title={t('contest.submit.title', { title: contest.title })}
      okText={t('contest.submit.ok')}
      okButtonProps={{ disabled: taskId === null, loading: submit.isPending, 'data-testid': 'contest-submit-ok' }}
      onOk={send}
      onCancel={close}
      destroyOnHidden
      data-testid="contest-submit-modal"
    >
      <Typography.Paragraph type="secondary">{t('contest.submit.hint')}</Typography.Paragraph>
      {open ? <WorksPicker value={taskId === null ? [] : [taskId]} onChange={(ids) => setTaskId(ids[0] ?? null)} testId={(id) => `contest-pick-${id}`} /> : null}
      {submit.isError ? <Alert type="error" showIcon style={{ marginTop: 12 }} title={contestErrorText(submit.error)} data-testid="contest-submit-error" /> : null}
    </Modal>
  );
}
