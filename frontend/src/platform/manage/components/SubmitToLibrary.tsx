import { CloudUploadOutlined, RollbackOutlined } from '@ant-design/icons';
import { App, Button, Tag, Tooltip } from 'antd';
import { useTranslation } from 'react-i18next';
import { errorText } from '@/api/errors';
import type { Material } from '@/api/material';
import { OpenState, useSubmitMaterials } from '../manageApi';

/** The kinds a user may submit to the tenant's public library: stickers (the review queue check-chartlet). */
const SUBMITTABLE = ['picture', 'gif'];

/** Whether the owner may submit this material to the public library. */
function submittable(m: Material): boolean {
  return SUBMITTABLE.includes(m.type) && m.state === 'ready';
}

const COLOURS: Record<number, string> = { [OpenState.approved]: 'success', [OpenState.submitted]: 'processing', [OpenState.rejected]: 'error' };

/** The owner's view of the review: in review, approved, or rejected with the reviewer's reason. */
export function ReviewVerdict({ material: m }: { material: Material }) {
  const { t } = useTranslation();
  if (m.openState === OpenState.private || !COLOURS[m.openState]) return null;
  const label =
    m.openState === OpenState.rejected && m.reasonsForFailureOfAudit ? t('manageArea.submit.reason', { reason: m.reasonsForFailureOfAudit }) : t(`manageArea.submit.state.${m.openState}`);
  return (
    <Tooltip title={label}>
      <Tag color={COLOURS[m.openState]} style={{ maxWidth: 140, overflow: 'hidden', textOverflow: 'ellipsis' }} data-testid={`verdict-${m.id}`}>
        {label}
      </Tag>
    </Tooltip>
  );
}

/** Submits a sticker to the public library for review, or withdraws a submission still in review. */
export function SubmitToLibrary({ material: m }: { material: Material }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const submit = useSubmitMaterials();
  if (!submittable(m) || m.openState === OpenState.approved) return null;
  const inReview = m.openState === OpenState.submitted;
  const label = inReview ? t('manageArea.submit.withdraw') : t('manageArea.submit.submit');
  return (
    <Tooltip title={label}>
      <Button
        type="text"
        size="small"
        icon={inReview ? <RollbackOutlined /> : <CloudUploadOutlined />}
        aria-label={label}
        loading={submit.isPending}
        data-testid={`${inReview ? 'withdraw' : 'submit'}-${m.id}`}
        onClick={() =>
          submit.mutate(
            { materialIds: [m.id], submit: !inReview },
            { onSuccess: () => void message.success(inReview ? t('manageArea.submit.withdrawn') : t('manageArea.submit.submitted')), onError: (err) => void message.error(errorText(err)) },
          )
        }
      />
    </Tooltip>
  );
}
