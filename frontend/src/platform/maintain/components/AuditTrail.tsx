import { Table, Typography, type TableColumnsType } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAudit, type AuditEntry } from '@/api/maintainFarm';

/** The audit trail of one item (who, what, when, before and after), shown on the item. */
export function AuditTrail({ item }: { item: string }) {
  const { t } = useTranslation();
  const { data, isFetching, isError } = useAudit(item);
  const columns: TableColumnsType<AuditEntry> = [
    { title: t('maintainFarm.audit.time'), dataIndex: 'time', key: 'time', width: 170 },
    { title: t('maintainFarm.audit.actor'), dataIndex: 'actor', key: 'actor' },
    { title: t('maintainFarm.audit.action'), dataIndex: 'action', key: 'action' },
    { title: t('maintainFarm.audit.before'), dataIndex: 'before', key: 'before', render: (v: string) => <span style={{ wordBreak: 'break-word' }}>{v}</span> },
    { title: t('maintainFarm.audit.after'), dataIndex: 'after', key: 'after', render: (v: string) => <span style={{ wordBreak: 'break-word' }}>{v}</span> },
  ];
  return (
    <div data-testid={`audit-${item}`}>
      <Typography.Text strong>{t('maintainFarm.audit.title')}</Typography.Text>
      <Table<AuditEntry>
        size="small"
        rowKey={(e) => `${e.time}-${e.action}-${e.after}`}
        columns={columns}
        dataSource={data ?? []}
        loading={isFetching && !data}
        pagination={false}
        locale={{ emptyText: isError ? t('maintainFarm.loadFailed') : t('maintainFarm.audit.empty') }}
      />
    </div>
  );
}
