import { Input, Select, Space, Switch, Table, Tag, Typography, type TableColumnsType } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { USERS_PAGE_SIZE, useSetUserDisabled, useSetUserLevel, useUsers, type ManagedUser } from '@/api/manageUsers';
import { isRole, OperatorLevel, roleFromOperatorLevel } from '@/auth/roles';
import { ManageEnterprises } from '@/platform/enterprise/ManageEnterprises';

/** The named operator levels, in order (spec platform §6; 5 is not assigned). */
const LEVELS = Object.entries(OperatorLevel).sort(([, a], [, b]) => a - b);

function LevelSelect({ user }: { user: ManagedUser }) {
  const { t } = useTranslation();
  const setLevel = useSetUserLevel();
  return (
    <Select<number>
      size="small"
      style={{ width: 200 }}
      value={user.operatorLevel}
      loading={setLevel.isPending}
      disabled={setLevel.isPending}
      aria-label={t('users.level')}
      data-testid={`level-${user.userId}`}
      onChange={(operatorLevel) => setLevel.mutate({ userId: user.userId, operatorLevel })}
      options={LEVELS.map(([name, value]) => ({ value, label: `${value} · ${t(`levels.${name}`)}` }))}
    />
  );
}

function DisabledSwitch({ user }: { user: ManagedUser }) {
  const { t } = useTranslation();
  const setDisabled = useSetUserDisabled();
  return (
    <Switch
      size="small"
      checked={user.disabled}
      loading={setDisabled.isPending}
      aria-label={t('users.disabled')}
      data-testid={`disabled-${user.userId}`}
      onChange={(disabled) => setDisabled.mutate({ userId: user.userId, disabled })}
    />
  );
}

/** The maintenance area's users page: search, operator level, disable, and the tenant's enterprises (administrators only). */
export function UsersPage() {
  const { t } = useTranslation();
  const [keyword, setKeyword] = useState('');
  const [pageNum, setPageNum] = useState(1);
  const { data, isFetching, isError } = useUsers(keyword, pageNum);

  const columns: TableColumnsType<ManagedUser> = [
    {
      title: t('users.user'),
      key: 'user',
      render: (_, u) => (
        <Space orientation="vertical" size={0}>
          <Typography.Text>{u.mail}</Typography.Text>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {t('users.id', { id: u.userId })}
          </Typography.Text>
        </Space>
      ),
    },
    { title: t('users.level'), key: 'level', render: (_, u) => <LevelSelect user={u} /> },
    {
      title: t('users.role'),
      key: 'role',
      render: (_, u) => {
        const role = isRole(u.role) ? u.role : roleFromOperatorLevel(u.operatorLevel);
        return (
          <Tag data-testid={`role-${u.userId}`} title={role}>
            {t(`roles.${role}`)}
          </Tag>
        );
      },
    },
    { title: t('users.disabled'), key: 'disabled', render: (_, u) => <DisabledSwitch user={u} /> },
    { title: t('users.created'), dataIndex: 'createTime', key: 'createTime', responsive: ['md'] },
  ];

  return (
    <div style={{ maxWidth: 1120, margin: '0 auto' }} data-testid="users-page">
      <Typography.Title level={3}>{t('users.title')}</Typography.Title>
      <Input.Search
        allowClear
        placeholder={t('users.search')}
        style={{ maxWidth: 360, marginBottom: 16 }}
        data-testid="users-search"
        onSearch={(value) => {
          setKeyword(value.trim());
          setPageNum(1);
        }}
      />
      <Table<ManagedUser>
        rowKey={(u) => String(u.userId)}
        columns={columns}
        dataSource={data?.list ?? []}
        loading={isFetching}
        locale={isError ? { emptyText: t('users.loadFailed') } : undefined}
        scroll={{ x: 'max-content' }}
        pagination={{
          current: pageNum,
          pageSize: USERS_PAGE_SIZE,
          total: data?.total ?? 0,
          showSizeChanger: false,
          showTotal: (total) => t('users.total', { total }),
          onChange: setPageNum,
        }}
      />
      <ManageEnterprises />
    </div>
  );
}
