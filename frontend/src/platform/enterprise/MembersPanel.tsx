/**
 * The members of an enterprise with adding (an account or a mobile number of this platform) and
 * removing: an enterprise administrator's own enterprise, or any for an administrator (`enterpriseId`).
 */
import { Alert, Button, Input, Popconfirm, Space, Table, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useAddMember, useRemoveMember, type EnterpriseDto, type EnterpriseMember } from '@/api/enterprise';
import { enterpriseErrorText } from './enterpriseErrors';

export function MembersPanel({ enterprise, manage = false }: { enterprise: EnterpriseDto; manage?: boolean }) {
  const { t } = useTranslation();
  const [who, setWho] = useState('');
  const add = useAddMember();
  const remove = useRemoveMember();
  // An administrator names the enterprise; an enterprise administrator acts on their own.
  const target = manage ? { enterpriseId: enterprise.id } : {};
  const failed = add.error ?? remove.error;
  const columns: TableColumnsType<EnterpriseMember> = [
    { title: t('enterprise.member'), dataIndex: 'userId', key: 'user' },
    { title: t('enterprise.addedBy'), dataIndex: 'addedBy', key: 'by', responsive: ['md'] },
    { title: t('enterprise.addedTime'), dataIndex: 'addedTime', key: 'time', responsive: ['md'] },
    {
      title: '',
      key: 'remove',
      width: 90,
      render: (_, m) => (
        <Popconfirm title={t('enterprise.removeConfirm', { user: m.userId })} onConfirm={() => remove.mutate({ ...target, userId: m.userId })}>
          <Button type="link" size="small" danger data-testid={`member-remove-${enterprise.id}-${m.userId}`}>
            {t('enterprise.remove')}
          </Button>
        </Popconfirm>
      ),
    },
  ];
  return (
    <div data-testid={`members-${enterprise.id}`}>
      <Space.Compact style={{ maxWidth: 480, width: '100%', marginBottom: 12 }}>
        <Input
          value={who}
          onChange={(e) => setWho(e.target.value)}
          placeholder={t('enterprise.addPlaceholder')}
          aria-label={t('enterprise.addPlaceholder')}
          data-testid={`member-input-${enterprise.id}`}
          onPressEnter={() => who.trim() && add.mutate({ ...target, userId: who.trim() }, { onSuccess: () => setWho('') })}
        />
        <Button
          type="primary"
          disabled={!who.trim()}
          loading={add.isPending}
          data-testid={`member-add-${enterprise.id}`}
          onClick={() => add.mutate({ ...target, userId: who.trim() }, { onSuccess: () => setWho('') })}
        >
          {t('enterprise.add')}
        </Button>
      </Space.Compact>
      {failed ? <Alert type="error" showIcon style={{ marginBottom: 12 }} title={enterpriseErrorText(failed)} data-testid={`member-error-${enterprise.id}`} /> : null}
      <Table<EnterpriseMember> rowKey="userId" size="small" columns={columns} dataSource={enterprise.members} pagination={false} />
    </div>
  );
}
