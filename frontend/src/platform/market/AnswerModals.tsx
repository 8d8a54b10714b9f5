import { Alert, App, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MARKET_LIMITS, useDeclineRequest, useDeliverRequest, type RequestDto } from '@/api/market';
import { marketErrorText } from './marketErrors';
import { WorksPicker } from '@/components/task/WorksPicker';

export interface AnswerModalProps {
  /** The request answered; closed while null. */
  request: RequestDto | null;
  onClose: () => void;
}

/** Delivers one of the provider's rendered works for an open request: it is copied into the requester's works. */
export function DeliverModal({ request, onClose }: AnswerModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [picked, setPicked] = useState<number[]>([]);
  const deliver = useDeliverRequest();
  const taskId = picked[0] ?? null;
  const close = () => {
    deliver.reset();
    setPicked([]);
    onClose();
  };
  const send = () => {
    if (request === null || taskId === null) return;
    deliver.mutate(
      { requestId: request.id, taskId },
      {
        onSuccess: () => {
          void message.success(t('market.deliver.done'));
          close();
        },
      },
    );
  };
  return (
    <Modal
      open={request !== null}
      title={t('market.deliver.title', { title: request?.serviceTitle ?? '' })}
      okText={t('market.deliver.ok')}
      okButtonProps={{ disabled: taskId === null, loading: deliver.isPending, 'data-testid': 'market-deliver-ok' }}
      onOk={send}
      onCancel={close}
      destroyOnHidden
      data-testid="market-deliver-modal"
    >
      {request ? (
        <>
          <Typography.Paragraph type="secondary" style={{ whiteSpace: 'pre-wrap' }}>
            {t('market.deliver.note', { note: request.note })}
          </Typography.Paragraph>
          <Typography.Paragraph type="secondary">{t('market.deliver.hint')}</Typography.Paragraph>
          <WorksPicker value={picked} onChange={setPicked} testId={(id) => `market-deliver-pick-${id}`} />
        </>
      ) : null}
      {deliver.isError ? <Alert type="error" showIcon style={{ marginTop: 12 }} title={marketErrorText(deliver.error)} data-testid="market-deliver-error" /> : null}
    </Modal>
  );
}

/** Declines an open request, with a reason the requester reads. */
export function DeclineModal({ request, onClose }: AnswerModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [reason, setReason] = useState('');
  const decline = useDeclineRequest();
  const close = () => {
    decline.reset();
    setReason('');
    onClose();
  };
  const send = () => {
    const text = reason.trim();
    if (request === null || text === '') return;
    decline.mutate(
      { requestId: request.id, reason: text },
      {
        onSuccess: () => {
          void message.success(t('market.decline.done'));
          close();
        },
      },
    );
  };
  return (
    <Modal
      open={request !== null}
      title={t('market.decline.title')}
      okText={t('market.decline.ok')}
      okButtonProps={{ danger: true, disabled: reason.trim() === '', loading: decline.isPending, 'data-testid': 'market-decline-ok' }}
      onOk={send}
      onCancel={close}
      destroyOnHidden
      data-testid="market-decline-modal"
    >
      <Typography.Paragraph type="secondary">{t('market.decline.hint')}</Typography.Paragraph>
      <Input.TextArea
        value={reason}
        onChange={(e) => setReason(e.target.value)}
        maxLength={MARKET_LIMITS.reason}
        showCount
        autoSize={{ minRows: 3, maxRows: 8 }}
        aria-label={t('market.decline.reason')}
        placeholder={t('market.decline.placeholder')}
        data-testid="market-decline-reason"
      />
      {decline.isError ? <Alert type="error" showIcon style={{ marginTop: 24 }} title={marketErrorText(decline.error)} data-testid="market-decline-error" /> : null}
    </Modal>
  );
}
