import { Alert, App, Input, Modal, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { MARKET_LIMITS, useRequestService, type ServiceDto } from '@/api/market';
import { marketErrorText } from './marketErrors';

export interface RequestModalProps {
  service: ServiceDto;
  open: boolean;
  onClose: () => void;
}

/** Places a request to a service: what the caller needs, in a note. */
export function RequestModal({ service, open, onClose }: RequestModalProps) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [note, setNote] = useState('');
  const request = useRequestService();
  const close = () => {
    request.reset();
    setNote('');
    onClose();
  };
  const send = () => {
    const text = note.trim();
    if (text === '') return;
    request.mutate(
      { serviceId: service.id, note: text },
      {
        onSuccess: () => {
          void message.success(t('market.request.done'));
          close();
        },
      },
    );
  };
  return (
    <Modal
      open={open}
      title={t('market.request.title', { title: service.title })}
      okText={t('market.request.ok')}
      okButtonProps={{ disabled: note.trim() === '', loading: request.isPending, 'data-testid': 'market-request-ok' }}
      onOk={send}
      onCancel={close}
      destroyOnHidden
      data-testid="market-request-modal"
    >
      <Typography.Paragraph type="secondary">{t('market.request.hint', { max: MARKET_LIMITS.note })}</Typography.Paragraph>
      <Input.TextArea
        value={note}
        onChange={(e) => setNote(e.target.value)}
        maxLength={MARKET_LIMITS.note}
        showCount
        autoSize={{ minRows: 4, maxRows: 10 }}
        placeholder={t('market.request.placeholder')}
        aria-label={t('market.request.note')}
        data-testid="market-request-note"
      />
      {request.isError ? <Alert type="error" showIcon style={{ marginTop: 24 }} title={marketErrorText(request.error)} data-testid="market-request-error" /> : null}
    </Modal>
  );
}
