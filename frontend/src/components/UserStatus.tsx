import { UserOutlined } from '@ant-design/icons';
import { Button, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAppDispatch, useAppSelector } from '@/app/hooks';
import { isLoggedIn, loggedOut } from '@/auth/userSlice';

/** Shows who is signed in, with a logout button. */
export function UserStatus() {
  const { t } = useTranslation();
  const user = useAppSelector((s) => s.user);
  const dispatch = useAppDispatch();
  if (!isLoggedIn(user)) {
    return (
      <Typography.Text type="secondary" data-testid="user-status">
        <UserOutlined /> {t('user.signedOut')}
      </Typography.Text>
    );
  }
  return (
    <Space data-testid="user-status">
      <Typography.Text>
        <UserOutlined /> {user.mobile ?? user.id}
      </Typography.Text>
      <Button size="small" onClick={() => dispatch(loggedOut())}>
        {t('user.logout')}
      </Button>
    </Space>
  );
}
