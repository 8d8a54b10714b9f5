import { CheckOutlined, CloseOutlined } from '@ant-design/icons';
import { Alert, App, Button, Image, Segmented, Space, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { Navigate, useNavigate, useParams } from 'react-router';
import { errorText } from '@/api/errors';
import type { Material } from '@/api/material';
import { EmptyState } from '@/components/EmptyState';
import { RejectModal } from './components/RejectModal';
import { MANAGE_PAGE_SIZE, REVIEW_STATES, useDecide, useReviewQueue, type ReviewQueue, type ReviewState } from './manageApi';

/** The page title key of each queue. */
const TITLES: Record<ReviewQueue, string> = { chartlet: 'page.checkChartlet', artfont: 'page.checkArtfont', dynamicword: 'page.checkDynamicword' };

function isReviewState(value: string | undefined): value is ReviewState {
  return (REVIEW_STATES as readonly string[]).includes(value ?? '');
}

function Preview({ m }: { m: Material }) {
  const src = m.coverUrl || m.url;
  return <Image src={src} width={72} height={72} style={{ objectFit: 'contain', background: 'repeating-conic-gradient(#eee 0 25%, #fff 0 50%) 0 0 / 16px 16px' }} alt={m.materialName} />;
}

function Queue({ queue, state }: { queue: ReviewQueue; state: ReviewState }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const [pageNum, setPageNum] = useState(1);
  const [selected, setSelected] = useState<string[]>([]);
  const [rejecting, setRejecting] = useState<string[] | null>(null);
  const { data, isFetching, isError, error } = useReviewQueue(queue, state, pageNum);
  const decide = useDecide();
  const send = (materialIds: string[], approve: boolean, reason?: string) =>
    decide.mutate(
      { materialIds, approve, reason },
      {
        onSuccess: () => {
          void message.success(approve ? t('manageArea.review.approved', { count: materialIds.length }) : t('manageArea.review.rejected', { count: materialIds.length }));
          setSelected([]);
          setRejecting(null);
        },
        onError: (err) => void message.error(errorText(err)),
      },
    );

  const columns: TableColumnsType<Material> = [
    { title: t('manageArea.review.preview'), key: 'preview', width: 100, render: (_, m) => <Preview m={m} /> },
    { title: t('manageArea.review.name'), dataIndex: 'materialName', key: 'name', render: (name: string, m) => <span data-testid={`review-name-${m.id}`}>{name}</span> },
    { title: t('manageArea.review.size'), key: 'size', render: (_, m) => (m.width > 0 ? `${m.width}×${m.height}` : '—') },
    { title: t('manageArea.review.submitted'), dataIndex: 'createTime', key: 'time', render: (v: string) => (v ? new Date(v).toLocaleString() : '') },
    ...(state === 'rejected'
      ? [{ title: t('manageArea.review.reason'), dataIndex: 'reasonsForFailureOfAudit', key: 'reason', render: (r: string) => <Tag color="error">{r}</Tag> }]
      : []),
    {
      title: t('manageArea.review.actions'),
      key: 'actions',
      render: (_, m) => (
        <Space>
          {state !== 'passed' ? (
            <Button size="small" type="primary" icon={<CheckOutlined />} loading={decide.isPending} onClick={() => send([m.id], true)} data-testid={`approve-${m.id}`}>
              {t('manageArea.review.approve')}
            </Button>
          ) : null}
          {state !== 'rejected' ? (
            <Button size="small" danger icon={<CloseOutlined />} onClick={() => setRejecting([m.id])} data-testid={`reject-${m.id}`}>
              {t('manageArea.review.reject')}
            </Button>
          ) : null}
        </Space>
      ),
    },
  ];

  if (isError) return <Typography.Text type="danger">{errorText(error)}</Typography.Text>;
  const rows = data?.dataList ?? [];
  return (
    <>
      <Space style={{ marginBottom: 12 }}>
        <Typography.Text type="secondary">{t('manageArea.review.selected', { count: selected.length })}</Typography.Text>
        {state !== 'passed' ? (
          <Button disabled={selected.length === 0} onClick={() => send(selected, true)} loading={decide.isPending} data-testid="approve-selected">
            {t('manageArea.review.approveSelected')}
          </Button>
        ) : null}
        {state !== 'rejected' ? (
          <Button danger disabled={selected.length === 0} onClick={() => setRejecting(selected)} data-testid="reject-selected">
            {t('manageArea.review.rejectSelected')}
          </Button>
        ) : null}
      </Space>
      {!isFetching && rows.length === 0 ? (
        <EmptyState />
      ) : (
        <Table<Material>
          rowKey="id"
          loading={isFetching && !data}
          columns={columns}
          dataSource={rows}
          rowSelection={{ selectedRowKeys: selected, onChange: (keys) => setSelected(keys.map(String)) }}
          pagination={{ current: pageNum, pageSize: MANAGE_PAGE_SIZE, total: data?.total ?? 0, showSizeChanger: false, onChange: setPageNum }}
        />
      )}
      <RejectModal open={rejecting !== null} pending={decide.isPending} onCancel={() => setRejecting(null)} onReject={(reason) => rejecting && send(rejecting, false, reason)} />
    </>
  );
}

/** /manage/check-chartlet|check-artfont|check-dynamicword/:type: users' submissions to the tenant's library by audit state; approve, or reject with a reason the owner reads; batch actions. */
export function ReviewQueuePage({ queue }: { queue: ReviewQueue }) {
  const { t } = useTranslation();
  const navigate = useNavigate();
  const { type } = useParams();
  const base = `/manage/check-${queue}`;
  if (!isReviewState(type)) return <Navigate to={`${base}/pending`} replace />;
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid={`review-${queue}`}>
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t(TITLES[queue])}
      </Typography.Title>
      {queue !== 'chartlet' ? <Alert type="info" showIcon style={{ marginBottom: 12 }} message={t('manageArea.review.noSource')} /> : null}
      <Segmented
        style={{ marginBottom: 16 }}
        value={type}
        onChange={(s) => void navigate(`${base}/${s}`)}
        options={REVIEW_STATES.map((s) => ({ value: s, label: <span data-testid={`state-${s}`}>{t(`manageArea.review.state.${s}`)}</span> }))}
      />
      <Queue key={`${queue}-${type}`} queue={queue} state={type} />
    </div>
  );
}
