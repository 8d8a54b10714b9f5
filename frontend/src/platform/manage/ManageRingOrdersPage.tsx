import { Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { RING_PAGE_SIZE, useTenantRingOrders } from '@/api/ring';
import { RingOrderTable, RingStateFilter } from '@/components/ring/RingOrderTable';

/** /manage/ring-orders (TEMPLATE_MANAGER): the tenant's ring orders with their state and a failure's reason. */
export function ManageRingOrdersPage() {
  const { t } = useTranslation();
  const [page, setPage] = useState(1);
  const [state, setState] = useState<number | undefined>(undefined);
  const { data, isFetching, isError } = useTenantRingOrders({ page, size: RING_PAGE_SIZE, ...(state !== undefined ? { state } : {}) });
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="manage-ring-orders">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.manageRingOrders')}
      </Typography.Title>
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
        <RingOrderTable data={data} loading={isFetching && !data} page={page} pageSize={RING_PAGE_SIZE} onPage={setPage} />
      )}
    </div>
  );
}
