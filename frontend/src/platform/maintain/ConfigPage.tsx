import { App, Button, Card, InputNumber, Space, Switch, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useSetSetting, useSettings, type Setting } from '@/api/maintainFarm';
import { AuditTrail } from './components/AuditTrail';
import { maintainErrorText } from './maintainErrors';

function SettingCard({ setting }: { setting: Setting }) {
  const { t } = useTranslation();
  const { message } = App.useApp();
  const save = useSetSetting();
  const [draft, setDraft] = useState<number | null>(setting.kind === 'number' ? Number(setting.value) : null);
  // The promise, not mutate's callbacks: a saved value re-keys this card (the list is read again),
  // and a card gone before its callbacks run would never say that it saved.
  const submit = (value: string) =>
    save.mutateAsync({ key: setting.key, value }).then(
      () => void message.success(t('maintainFarm.config.saved')),
      (e: unknown) => void message.error(maintainErrorText(e)),
    );
  const id = setting.key.replace(/\./g, '-');
  return (
    <Card title={t(`maintainFarm.config.keys.${setting.key}`, { defaultValue: setting.key })} data-testid={`setting-${id}`}>
      <Typography.Paragraph type="secondary">
        <code>{setting.key}</code> · {t(`maintainFarm.config.help.${setting.key}`, { defaultValue: '' })}
      </Typography.Paragraph>
      {setting.kind === 'switch' ? (
        <Switch checked={setting.value === 'true'} loading={save.isPending} onChange={(on) => submit(String(on))} data-testid={`value-${id}`} />
      ) : (
        <Space>
          <InputNumber value={draft} onChange={(v) => setDraft(v)} data-testid={`value-${id}`} style={{ width: 120 }} />
          <Button type="primary" loading={save.isPending} disabled={draft === null} onClick={() => submit(String(draft))} data-testid={`save-${id}`}>
            {t('maintainFarm.config.save')}
          </Button>
          <Typography.Text type="secondary">{t('maintainFarm.config.range', { min: setting.min, max: setting.max, def: setting.defaultValue })}</Typography.Text>
        </Space>
      )}
      <div style={{ marginTop: 16 }}>
        <AuditTrail item={`config:${setting.key}`} />
      </div>
    </Card>
  );
}

/** /eb-maintain/config: the tenant's run-time settings, range-checked and audited, read by the services at once. */
export function ConfigPage() {
  const { t } = useTranslation();
  const { data, isError, error } = useSettings();
  return (
    <div style={{ maxWidth: 1120, margin: '0 auto' }} data-testid="maintain-config">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('maintainFarm.config.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('maintainFarm.config.intro')}</Typography.Paragraph>
      {isError ? <Typography.Text type="danger">{maintainErrorText(error)}</Typography.Text> : null}
      <Space orientation="vertical" size="large" style={{ width: '100%' }}>
        {(data ?? []).map((s) => (
          <SettingCard key={`${s.key}=${s.value}`} setting={s} />
        ))}
      </Space>
    </div>
  );
}
