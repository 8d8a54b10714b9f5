import { Alert, Space, Table, Tag } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import type { CardBatchReport } from '@/api/template';

interface Row {
  row: number;
  taskId?: number;
  reason?: string;
}

/** The per-row report of a card batch: made rows link to their task, failed rows say why. */
export function CardReport({ report }: { report: CardBatchReport }) {
  const { t } = useTranslation();
  const rows: Row[] = [...report.made.map((m) => ({ row: m.row, taskId: m.taskId })), ...report.failed.map((f) => ({ row: f.row, reason: f.reason }))].sort(
    (a, b) => a.row - b.row,
  );
  return (
    <Space orientation="vertical" style={{ width: '100%' }} data-testid="card-report">
      <Alert
        type={report.failed.length > 0 ? 'warning' : 'success'}
        title={t('card.reportSummary', { made: report.made.length, failed: report.failed.length })}
        data-testid="card-report-summary"
      />
      <Table<Row>
        size="small"
        rowKey="row"
        pagination={rows.length > 20 ? { pageSize: 20 } : false}
        dataSource={rows}
        columns={[
          { title: t('card.row'), dataIndex: 'row' },
          {
            title: t('card.result'),
            key: 'result',
            render: (_: unknown, r) =>
              r.taskId !== undefined ? (
                <Space>
                  <Tag color="success">{t('card.made')}</Tag>
                  <Link to={`/tools/business-card/detail/${r.taskId}`}>{t('card.viewTask', { id: r.taskId })}</Link>
                </Space>
              ) : (
                <Space data-testid={`card-failed-${r.row}`}>
                  <Tag color="error">{t('card.failed')}</Tag>
                  {r.reason}
                </Space>
              ),
          },
        ]}
      />
    </Space>
  );
}
