/**
 * The administrators' enterprises (on the users page): create and rename an enterprise of the tenant,
 * and keep its members. Who is an enterprise administrator is the user's operator level (2), set in
 * the users table above.
 */
import { Alert, Button, Card, Collapse, Input, Space, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useEnterprises, useSaveEnterprise } from '@/api/enterprise';
import { enterpriseErrorText } from './enterpriseErrors';
import { MembersPanel } from './MembersPanel';

export function ManageEnterprises() {
  const { t } = useTranslation();
  const { data, isError, error } = useEnterprises();
  const save = useSaveEnterprise();
  const [name, setName] = useState('');
  const create = () => save.mutate({ name: name.trim() }, { onSuccess: () => setName('') });
  return (
    <Card title={t('enterprise.manageTitle')} style={{ marginTop: 24 }} data-testid="manage-enterprises">
      <Typography.Paragraph type="secondary">{t('enterprise.manageHint')}</Typography.Paragraph>
      <Space.Compact style={{ maxWidth: 420, width: '100%', marginBottom: 12 }}>
        <Input value={name} onChange={(e) => setName(e.target.value)} placeholder={t('enterprise.newName')} aria-label={t('enterprise.newName')} onPressEnter={create} data-testid="enterprise-new-name" />
        <Button type="primary" loading={save.isPending} disabled={!name.trim()} onClick={create} data-testid="enterprise-create">
          {t('enterprise.create')}
        </Button>
      </Space.Compact>
      {save.isError ? <Alert type="error" showIcon style={{ marginBottom: 12 }} title={enterpriseErrorText(save.error)} data-testid="enterprise-save-error" /> : null}
      {isError ? <Alert type="error" showIcon title={enterpriseErrorText(error)} /> : null}
      <Collapse
        items={(data ?? []).map((e) => ({
          key: e.id,
          label: (
            <span data-testid={`enterprise-row-${e.id}`}>
              {e.name} · {t('enterprise.memberCount', { count: e.memberCount })}
            </span>
          ),
          children: <MembersPanel enterprise={e} manage />,
        }))}
      />
    </Card>
  );
}
