import { Alert, App, Card, Descriptions, Popconfirm, Space, Statistic, Switch, Table, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { byService, useFarm, useMigrations, useSetMaintenance, type ServiceMigrations } from '@/api/maintainFarm';
import { AuditTrail } from './components/AuditTrail';
import { maintainErrorText } from './maintainErrors';

/** /eb-maintain/upgrade: the running version and the maintenance switch that drains the tenant's farm. */
export function UpgradePage() {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const { data: farm, isError, error } = useFarm();
  const setMaintenance = useSetMaintenance();
  const toggle = (on: boolean) =>
    setMaintenance.mutate(on, {
      onSuccess: () => void message.success(on ? t('maintainFarm.upgrade.turnedOn') : t('maintainFarm.upgrade.turnedOff')),
      onError: (e) => void message.error(maintainErrorText(e)),
    });
  const draining = farm ? farm.queued + farm.running : 0;
  return (
    <div style={{ maxWidth: 1120, margin: '0 auto' }} data-testid="maintain-upgrade">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('maintainFarm.upgrade.title')}
      </Typography.Title>
      {isError ? <Alert type="error" showIcon title={maintainErrorText(error)} style={{ marginBottom: 16 }} /> : null}
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        <Card title={t('maintainFarm.upgrade.version')}>
          <Descriptions column={1}>
            <Descriptions.Item label={t('maintainFarm.upgrade.running')}>
              <span data-testid="farm-version">{farm?.version ?? '—'}</span>
            </Descriptions.Item>
          </Descriptions>
          <MigrationTable />
        </Card>
        <Card title={t('maintainFarm.upgrade.maintenance')}>
          <Typography.Paragraph type="secondary">{t('maintainFarm.upgrade.intro')}</Typography.Paragraph>
          <Space size="large" align="center" wrap>
            <Popconfirm
              title={farm?.maintenance ? t('maintainFarm.upgrade.confirmOff') : t('maintainFarm.upgrade.confirmOn')}
              onConfirm={() => toggle(!farm?.maintenance)}
              okText={t('maintainFarm.ok')}
              cancelText={t('maintainFarm.cancel')}
            >
              <Switch checked={farm?.maintenance ?? false} loading={setMaintenance.isPending} disabled={!farm} data-testid="maintenance-switch" />
            </Popconfirm>
            <Typography.Text strong data-testid="maintenance-state">
              {farm?.maintenance ? t('maintainFarm.upgrade.on') : t('maintainFarm.upgrade.off')}
            </Typography.Text>
            <Statistic title={t('maintainFarm.upgrade.queued')} value={farm?.queued ?? 0} />
            <Statistic title={t('maintainFarm.upgrade.runningJobs')} value={farm?.running ?? 0} />
          </Space>
          {farm?.maintenance ? (
            <Alert
              style={{ marginTop: 16 }}
              type={draining > 0 ? 'warning' : 'success'}
              showIcon
              data-testid="drain-state"
              title={draining > 0 ? t('maintainFarm.upgrade.draining', { count: draining }) : t('maintainFarm.upgrade.drained')}
            />
          ) : null}
          {farm?.changedTime ? (
            <Typography.Paragraph type="secondary" style={{ marginTop: 12, marginBottom: 0 }}>
              {t('maintainFarm.upgrade.changed', { who: farm.changedBy, when: farm.changedTime })}
            </Typography.Paragraph>
          ) : null}
        </Card>
        <AuditTrail item="farm:maintenance" />
      </Space>
    </div>
  );
}

/** Each service's database migrations: how many the build carries, the last applied, and any pending or newer than the build. */
function MigrationTable() {
  const { t } = useTranslation();
  const { data, isLoading, isError, error } = useMigrations();
  if (isError) return <Alert type="error" showIcon title={maintainErrorText(error)} />;
  const rows = byService(data ?? []);
  return (
    <>
      <Typography.Title level={5}>{t('maintainFarm.upgrade.migrations')}</Typography.Title>
      <Table<ServiceMigrations>
        size="small"
        rowKey="service"
        loading={isLoading}
        pagination={false}
        dataSource={rows}
        data-testid="migrations"
        columns={[
          { title: t('maintainFarm.upgrade.service'), dataIndex: 'service' },
          { title: t('maintainFarm.upgrade.carried'), dataIndex: 'total' },
          { title: t('maintainFarm.upgrade.lastApplied'), render: (_, r) => (r.last ? `${r.last.name} · ${r.last.appliedTime}` : '—') },
          {
            title: t('maintainFarm.upgrade.state'),
            render: (_, r) => (
              <Space wrap size={4} data-testid={`migration-state-${r.service}`}>
                {r.pending.length === 0 ? <Tag color="success">{t('maintainFarm.upgrade.upToDate')}</Tag> : <Tag color="warning">{t('maintainFarm.upgrade.pending', { names: r.pending.join(', ') })}</Tag>}
                {r.newer.length > 0 ? <Tag color="error">{t('maintainFarm.upgrade.newer', { names: r.newer.join(', ') })}</Tag> : null}
              </Space>
            ),
          },
        ]}
      />
      <Typography.Paragraph type="secondary" style={{ marginTop: 8, marginBottom: 0 }}>
        {t('maintainFarm.upgrade.migrationsNote')}
      </Typography.Paragraph>
    </>
  );
}
