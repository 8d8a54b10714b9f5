import { Button, Image, Select, Space, Table, Typography } from 'antd';
import dayjs from 'dayjs';
import { useTranslation } from 'react-i18next';
import { RingState, ringStateName, type RingOrder, type RingOrderPage } from '@/api/ring';
import { useWarmTip } from '@/components/WarmTip';
import { useTaskName } from '@/components/task/taskName';
import { RingStateTag } from './RingStateTag';

/** The states the filter offers, in the spec's order. */
const FILTER_STATES = [RingState.setting, RingState.success, RingState.error, RingState.notJoin, RingState.notSet, RingState.cancelSetting];

/** Writes an order's time in the page's locale; a text dayjs cannot read shows as it is. */
function when(text: string): string {
  const d = dayjs(text);
  return d.isValid() ? d.format('YYYY-MM-DD HH:mm') : text;
}

export interface RingOrderFilterSelectProps {
  value: number | undefined;
  onChange: (state: number | undefined) => void;
}

/** Filters an order list by state (all when cleared). */
export function RingStateFilter({ value, onChange }: RingOrderFilterSelectProps) {
  const { t } = useTranslation();
  return (
    <Select
      allowClear
      placeholder={t('ring.orders.allStates')}
      value={value}
      onChange={(v?: number) => onChange(v)}
      options={FILTER_STATES.map((s) => ({ value: s, label: t(`ring.state.${ringStateName(s) ?? 'notSet'}`) }))}
      style={{ width: 180 }}
      data-testid="ring-state-filter"
    />
  );
}

export interface RingOrderTableProps {
  data: RingOrderPage | undefined;
  loading: boolean;
  page: number;
  pageSize: number;
  onPage: (page: number) => void;
  /** Cancels a set ringtone (after a confirmation); no cancel column without it. */
  onCancel?: (order: RingOrder) => void;
  /** The order whose cancel is running. */
  cancelling?: number | null;
}

/** Ring orders: cover, work, masked number, state (with the reason of a failure), time, and cancel of a set one. */
export function RingOrderTable({ data, loading, page, pageSize, onPage, onCancel, cancelling = null }: RingOrderTableProps) {
  const { t } = useTranslation();
  const warmTip = useWarmTip();
  const shown = useTaskName();
  const total = data?.total ?? 0;
  return (
    <Table<RingOrder>
      rowKey="id"
      size="middle"
      loading={loading}
      dataSource={data?.list ?? []}
      onRow={(order) => ({ 'data-testid': `ring-order-${order.id}` }) as React.HTMLAttributes<HTMLElement>}
      pagination={{ current: page, pageSize, total, onChange: onPage, showSizeChanger: false, showTotal: (n) => t('ring.orders.total', { count: n }) }}
      locale={{ emptyText: t('ring.orders.empty') }}
      columns={[
        {
          title: t('ring.orders.cover'),
          dataIndex: 'cover',
          width: 80,
          render: (cover: string) => (cover ? <Image src={cover} width={48} height={64} style={{ objectFit: 'cover' }} preview={false} alt="" /> : null),
        },
        { title: t('ring.orders.work'), dataIndex: 'taskName', render: (name: string) => <Typography.Text data-testid="ring-order-name">{shown(name)}</Typography.Text> },
        { title: t('ring.orders.phone'), dataIndex: 'phone', render: (phone: string) => <span data-testid="ring-order-phone">{phone}</span> },
        {
          title: t('ring.orders.state'),
          dataIndex: 'state',
          render: (state: number, order) => (
            <Space orientation="vertical" size={2}>
              <RingStateTag state={state} />
              {(state === RingState.error || state === RingState.notJoin) && order.reason ? (
                <Typography.Text type="danger" style={{ fontSize: 12 }} data-testid="ring-order-reason">
                  {order.reason}
                </Typography.Text>
              ) : null}
            </Space>
          ),
        },
        { title: t('ring.orders.time'), key: 'time', render: (_: unknown, order) => when(order.updatedAt || order.createdAt) },
        ...(onCancel
          ? [
              {
                title: '',
                key: 'actions',
                render: (_: unknown, order: RingOrder) =>
                  order.state === RingState.success ? (
                    <Button
                      size="small"
                      danger
                      loading={cancelling === order.id}
                      onClick={() =>
                        warmTip({ content: t('ring.orders.cancelConfirm'), okText: t('tasks.yes'), cancelText: t('tasks.no'), okButtonProps: { danger: true }, onOk: () => onCancel(order) })
                      }
                      data-testid={`ring-cancel-${order.id}`}
                    >
                      {t('ring.orders.cancel')}
                    </Button>
                  ) : null,
              },
            ]
          : []),
      ]}
    />
  );
}
