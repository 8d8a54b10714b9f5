import {
  AppstoreOutlined,
  AuditOutlined,
  BellOutlined,
  DownOutlined,
  FolderOutlined,
  LoginOutlined,
  LogoutOutlined,
  PictureOutlined,
  ShopOutlined,
  TeamOutlined,
  TrophyOutlined,
  UnorderedListOutlined,
  UserOutlined,
  VideoCameraOutlined,
} from '@ant-design/icons';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { Button, Dropdown, Space, Tag, Typography, type MenuProps } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation, useNavigate } from 'react-router';
import { COLLECTION_KINDS } from '@/api/collection';
import { logout } from '@/api/user';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { saveHandoffBack } from '@/auth/handoffBack';
import { OperatorLevel } from '@/auth/roles';
import { isLoggedIn, loggedOut } from '@/auth/userSlice';

/** Logs out: revokes the token, then clears the store and cached server data even if the call failed. */
function useLogout() {
  const dispatch = useAppDispatch();
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  return useMutation({
    mutationFn: logout,
    onSettled: () => {
      dispatch(loggedOut());
      saveHandoffBack('');
      queryClient.clear();
      navigate('/', { replace: true });
    },
  });
}

function SignInLink() {
  const { t } = useTranslation();
  const { pathname, search } = useLocation();
  const back = pathname === '/' || pathname === '/login' ? '' : `?redirect=${encodeURIComponent(`${pathname}${search}`)}`;
  return (
    <Link to={`/login${back}`} data-testid="user-status">
      <Button type="primary" icon={<LoginOutlined />}>
        {t('user.signIn')}
      </Button>
    </Link>
  );
}

/**
 * The header's user menu: who is signed in and their role, my works, tasks, materials and templates,
 * becoming a service provider; the template check, the topic, case and industry centres and the
 * service-provider review for template managers, the users page
 * for administrators, log out.
 */
export function UserStatus() {
  const { t } = useTranslation();
  const user = useAppSelector((s) => s.user);
  const signOut = useLogout();
  if (!isLoggedIn(user)) return <SignInLink />;

  const items: MenuProps['items'] = [
    { key: 'works', icon: <VideoCameraOutlined />, label: <Link to="/my-works" data-testid="menu-works">{t('user.myWorks')}</Link> },
    { key: 'tasks', icon: <UnorderedListOutlined />, label: <Link to="/workbench/my-task">{t('user.myTasks')}</Link> },
    {
      key: 'materials',
      icon: <PictureOutlined />,
      label: <Link to="/workbench/my-material" data-testid="menu-materials">{t('user.myMaterials')}</Link>,
    },
    { key: 'ringtones', icon: <BellOutlined />, label: <Link to="/mydiyring?tab=ringtones" data-testid="menu-ringtones">{t('ring.tabs.ringtones')}</Link> },
    { key: 'templates', icon: <AppstoreOutlined />, label: <Link to="/mytemring" data-testid="menu-templates">{t('page.mytemring')}</Link> },
    {
      key: 'provider',
      icon: <ShopOutlined />,
      label: <Link to="/qs/service/emplacement" data-testid="menu-provider">{t('provider.menu')}</Link>,
    },
    ...(user.role === 'TEMPLATE_MANAGER'
      ? [
          {
            key: 'check',
            icon: <AuditOutlined />,
            label: <Link to="/manage/check-template/pending" data-testid="menu-check">{t('page.checkTemplate')}</Link>,
          },
          { key: 'manageTemplates', icon: <AuditOutlined />, label: <Link to="/manage/manage-template">{t('page.manageTemplate')}</Link> },
          ...COLLECTION_KINDS.map((kind) => ({
            key: `${kind}Center`,
            icon: <FolderOutlined />,
            label: (
              <Link to={`/manage/${kind}-center`} data-testid={`menu-${kind}-center`}>
                {t(`page.${kind}Center`)}
              </Link>
            ),
          })),
          {
            key: 'checkService',
            icon: <AuditOutlined />,
            label: <Link to="/manage/check-service" data-testid="menu-check-service">{t('page.checkService')}</Link>,
          },
          {
            key: 'ringOrders',
            icon: <BellOutlined />,
            label: <Link to="/manage/ring-orders" data-testid="menu-ring-orders">{t('page.manageRingOrders')}</Link>,
          },
          {
            key: 'contests',
            icon: <TrophyOutlined />,
            label: <Link to="/manage/contest" data-testid="menu-contests">{t('page.manageContest')}</Link>,
          },
        ]
      : []),
    ...(user.roleId === OperatorLevel.admin
      ? [{ key: 'users', icon: <TeamOutlined />, label: <Link to="/eb-maintain/users" data-testid="menu-users">{t('user.users')}</Link> }]
      : []),
    { type: 'divider' as const },
    {
      key: 'logout',
      icon: <LogoutOutlined />,
      label: <span data-testid="menu-logout">{t('user.logout')}</span>,
      disabled: signOut.isPending,
      onClick: () => signOut.mutate(),
    },
  ];

  return (
    <Dropdown menu={{ items }} trigger={['click']} placement="bottomRight">
      <Button type="text" data-testid="user-status" aria-label={t('user.menu')} style={{ maxWidth: 320 }}>
        <Space size={6}>
          <UserOutlined />
          <Typography.Text ellipsis style={{ maxWidth: 160 }} data-testid="user-id" title={t('user.signedInAs', { id: user.id })}>
            {user.id}
          </Typography.Text>
          {user.roleId === OperatorLevel.admin || user.role ? (
            <Tag color="purple" style={{ marginInlineEnd: 0 }} data-testid="user-role">
              {user.roleId === OperatorLevel.admin ? t('levels.admin') : t(`roles.${user.role}`)}
            </Tag>
          ) : null}
          <DownOutlined style={{ fontSize: 10 }} />
        </Space>
      </Button>
    </Dropdown>
  );
}
