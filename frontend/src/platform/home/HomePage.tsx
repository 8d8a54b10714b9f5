import { AppstoreOutlined, EditOutlined, FolderOpenOutlined, RobotOutlined, ToolOutlined } from '@ant-design/icons';
import { Card, Col, Row, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useAppSelector } from '@/app/hooks';
import { RootLoginModal } from '@/auth/RootLoginModal';
import { isLoggedIn } from '@/auth/userSlice';
import { FeaturedTemplates } from './FeaturedTemplates';
import { HomeTopics } from './HomeTopics';
import { RecentWorks } from './RecentWorks';
import { ReviewWaiting } from './ReviewWaiting';
import { ToolShortcuts } from './ToolShortcuts';

interface Area {
  key: 'editor' | 'templates' | 'workbench' | 'tools' | 'ai';
  to: string;
  icon: ReactNode;
}

const AREAS: Area[] = [
  { key: 'editor', to: '/diy', icon: <EditOutlined /> },
  { key: 'templates', to: '/template-select', icon: <AppstoreOutlined /> },
  { key: 'workbench', to: '/workbench', icon: <FolderOpenOutlined /> },
  { key: 'tools', to: '/tools', icon: <ToolOutlined /> },
  { key: 'ai', to: '/ai', icon: <RobotOutlined /> },
];

/**
 * Landing page at / and /houmen: product name, description and the main areas; signed in, also the
 * works to continue, the published topics, the newest templates, the toolbox's tools and (a template
 * manager) what waits for review. Each section asks its own call as the page mounts, so they load side by side.
 */
export function HomePage() {
  const { t } = useTranslation();
  const signedIn = useAppSelector((s) => isLoggedIn(s.user));
  const manager = useAppSelector((s) => s.user.role === 'TEMPLATE_MANAGER');
  return (
    <div style={{ maxWidth: 1120, margin: '0 auto' }} data-testid="home">
      <RootLoginModal />
      <div style={{ padding: '40px 0 32px' }}>
        <Typography.Title style={{ marginBottom: 8 }}>{t('app.name')}</Typography.Title>
        <Typography.Title level={4} type="secondary" style={{ marginTop: 0 }}>
          {t('app.tagline')}
        </Typography.Title>
        <Typography.Paragraph style={{ maxWidth: 720, fontSize: 15 }}>{t('home.description')}</Typography.Paragraph>
      </div>
      <Row gutter={[16, 16]}>
        {AREAS.map((area) => (
          <Col key={area.key} xs={24} sm={12} lg={8}>
            <Link to={area.to} data-testid={`area-${area.key}`}>
              <Card hoverable style={{ height: '100%' }}>
                <Card.Meta
                  avatar={<span style={{ fontSize: 28, color: '#5b3df5' }}>{area.icon}</span>}
                  title={t(`home.cards.${area.key}.title`)}
                  description={t(`home.cards.${area.key}.body`)}
                />
              </Card>
            </Link>
          </Col>
        ))}
      </Row>
      {signedIn ? (
        <>
          {manager ? <ReviewWaiting /> : null}
          <RecentWorks moreTo="/my-works" />
          <HomeTopics />
          <FeaturedTemplates moreTo="/template-select" />
          <ToolShortcuts />
        </>
      ) : null}
    </div>
  );
}
