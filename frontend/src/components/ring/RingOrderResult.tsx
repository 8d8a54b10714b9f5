import { Button, Result, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { RingState, type RingOrder } from '@/api/ring';
import { RingStateTag } from './RingStateTag';

/** Where "my ringtones" lists the caller's orders. */
export const MY_RINGTONES_PATH = '/mydiyring?tab=ringtones';

/** The order after submit: waiting while the platform sets it, set, or failed with the platform's reason. */
export function RingOrderResult({ order, onClose }: { order: RingOrder; onClose: () => void }) {
  const { t } = useTranslation();
  const failed = order.state === RingState.error || order.state === RingState.notJoin;
  const status = order.state === RingState.success ? 'success' : failed ? 'error' : 'info';
  const key = order.state === RingState.success ? 'done' : failed ? 'failed' : 'waiting';
  // antd's Result does not pass data-* attributes on: the wrapper carries the test id.
  return (
    <div data-testid="ring-result">
      <Result
        status={status}
        title={<span data-testid="ring-result-title">{t(`ring.result.${key}`)}</span>}
        subTitle={
          <Space orientation="vertical" size={4}>
            <Space>
              <RingStateTag state={order.state} />
              <Typography.Text>{order.phone}</Typography.Text>
            </Space>
            {failed && order.reason ? (
              <Typography.Text type="danger" data-testid="ring-result-reason">
                {t('ring.reason', { reason: order.reason })}
              </Typography.Text>
            ) : null}
          </Space>
        }
        extra={
          <Space>
            <Link to={MY_RINGTONES_PATH} onClick={onClose} data-testid="ring-to-mine">
              {t('ring.toMine')}
            </Link>
            <Button onClick={onClose} data-testid="ring-close">
              {t('ring.close')}
            </Button>
          </Space>
        }
      />
    </div>
  );
}
