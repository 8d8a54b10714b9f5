import { App, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RING_PAGE_SIZE, useCancelRing, useMyRingOrders } from '@/api/ring';
import { RingOrderTable, RingStateFilter } from '@/components/ring/RingOrderTable';

/**
 * "我的彩铃": the caller's ring orders (GET /ring/orders), asked again every few seconds while one is
 * being set; a set ringtone can be cancelled after a confirmation.
 */
export function MyRingtones() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<number | undefined>(undefined);
  const { data, isFetching, isError } = useMyRingOrders({ page, size: RING_PAGE_SIZE, ...(state !== undefined ? { state } : {}) });
  const cancel = useCancelRing();
  return (
    <div data-testid="my-ringtones">
      <Space style={{ marginBottom: 12 }} wrap>
        <RingStateFilter
          value={state}
          onChange={(s) => {
            setState(s);
            setPage(1);
          }}
        />
      </Space>
      {isError ? (
        <Typography.Text type="danger">{t('ring.orders.loadFailed')}</Typography.Text>
      ) : (
        <RingOrderTable
          data={data}
          loading={isFetching && !data}
          page={page}
          pageSize={RING_PAGE_SIZE}
          onPage={setPage}
          cancelling={cancel.isPending ? (cancel.variables ?? null) : null}
          onCancel={(order) => cancel.mutate(order.id, { onSuccess: () => void message.success(t('ring.orders.cancelled')) })}
        />
      )}
    </div>
  );
}
