import { AppstoreOutlined, EditOutlined, FileAddOutlined, ShopOutlined, TrophyOutlined } from '@ant-design/icons';
import { Button, Card, Space, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAppSelector } from '@/app/hooks';
import { isLoggedIn } from '@/auth/userSlice';
import { FeaturedTemplates } from '@/platform/home/FeaturedTemplates';
import { HomeTopics } from '@/platform/home/HomeTopics';
import { RecentWorks } from '@/platform/home/RecentWorks';
import { QS_EDITOR } from './QsLayout';

/** Signed out: the portal's sections are the tenant's and the user's, so it asks for a sign-in. */
function SignInCard() {
  const { t } = useTranslation();
  return (
    <Card style={{ marginTop: 16 }} data-testid="qs-signin">
      <Space style={{ width: '100%', justifyContent: 'space-between' }} wrap>
        <Typography.Text>{t('portal.index.signIn')}</Typography.Text>
        <Link to={`/login?redirect=${encodeURIComponent('/qs/index')}`}>
          <Button type="primary">{t('user.signIn')}</Button>
        </Link>
      </Space>
    </Card>
  );
}

/**
 * /qs/index, the portal's home: ways to start (a new task, the editor, a template, a contest, the service marketplace), the managers'
 * published topics, the newest approved templates and the user's latest works, each section on its
 * own call.
 */
export function QsIndexPage() {
  const { t } = useTranslation();
  const signedIn = useAppSelector((s) => isLoggedIn(s.user));
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="qs-index">
      <Card styles={{ body: { padding: '32px 32px 28px' } }} style={{ background: 'linear-gradient(120deg, #f4f1ff 0%, #ffffff 70%)' }}>
        <Typography.Title level={2} style={{ marginTop: 0 }}>
          {t('portal.index.title')}
        </Typography.Title>
        <Typography.Paragraph type="secondary" style={{ maxWidth: 720, fontSize: 15 }}>
          {t('portal.index.lead')}
        </Typography.Paragraph>
        <Space wrap>
          <Link to="/new-task">
            <Button type="primary" size="large" icon={<FileAddOutlined />} data-testid="qs-new-task">
              {t('portal.index.newTask')}
            </Button>
          </Link>
          <Link to={QS_EDITOR}>
            <Button size="large" icon={<EditOutlined />} data-testid="qs-open-editor">
              {t('portal.index.blank')}
            </Button>
          </Link>
          <Link to="/qs/template">
            <Button size="large" icon={<AppstoreOutlined />} data-testid="qs-browse-templates">
              {t('portal.index.fromTemplate')}
            </Button>
          </Link>
          <Link to="/qs/competition-content">
            <Button size="large" icon={<TrophyOutlined />} data-testid="qs-contests">
              {t('portal.index.contests')}
            </Button>
          </Link>
          <Link to="/qs/service/select">
            <Button size="large" icon={<ShopOutlined />} data-testid="qs-market">
              {t('portal.index.market')}
            </Button>
          </Link>
        </Space>
      </Card>
      {signedIn ? (
        <>
          <HomeTopics pickerPath="/qs/template" />
          <FeaturedTemplates moreTo="/qs/template" />
          <RecentWorks editorPath={QS_EDITOR} moreTo="/qs/mydiy" />
        </>
      ) : (
        <SignInCard />
      )}
    </div>
  );
}
