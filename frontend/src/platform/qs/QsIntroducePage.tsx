import { AppstoreOutlined, CloudUploadOutlined, EditOutlined, PlaySquareOutlined, ToolOutlined } from '@ant-design/icons';
import { Button, Card, Col, Row, Space, Steps, Typography } from 'antd';
import type { ReactNode } from 'react';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { QS_EDITOR } from './QsLayout';

/** What the product offers, each with the portal page that does it. */
const FEATURES: { key: string; to: string; icon: ReactNode }[] = [
  { key: 'templates', to: '/qs/template', icon: <AppstoreOutlined /> },
  { key: 'editor', to: QS_EDITOR, icon: <EditOutlined /> },
  { key: 'materials', to: '/workbench', icon: <CloudUploadOutlined /> },
  { key: 'tools', to: '/tools', icon: <ToolOutlined /> },
  { key: 'works', to: '/qs/mydiy', icon: <PlaySquareOutlined /> },
];

const STEPS = ['pick', 'fill', 'render', 'share'] as const;

/** /qs/introduce: what the product does, how a video is made in four steps, and where each part is. */
export function QsIntroducePage() {
  const { t } = useTranslation();
  return (
    <div style={{ maxWidth: 1100, margin: '0 auto' }} data-testid="qs-introduce">
      <Typography.Title level={2} style={{ marginTop: 0 }}>
        {t('portal.introduce.title')}
      </Typography.Title>
      <Typography.Paragraph style={{ fontSize: 15, maxWidth: 800 }}>{t('portal.introduce.lead')}</Typography.Paragraph>
      <Card title={t('portal.introduce.stepsTitle')} style={{ marginBottom: 16 }}>
        <Steps
          current={-1}
          items={STEPS.map((step) => ({ title: t(`portal.introduce.steps.${step}.title`), content: t(`portal.introduce.steps.${step}.body`) }))}
          data-testid="qs-introduce-steps"
        />
      </Card>
      <Row gutter={[16, 16]}>
        {FEATURES.map((feature) => (
          <Col key={feature.key} xs={24} sm={12} lg={8}>
            <Card style={{ height: '100%' }} data-testid={`qs-feature-${feature.key}`}>
              <Card.Meta
                avatar={<span style={{ fontSize: 26, color: '#5b3df5' }}>{feature.icon}</span>}
                title={t(`portal.introduce.features.${feature.key}.title`)}
                description={t(`portal.introduce.features.${feature.key}.body`)}
              />
              <Link to={feature.to} style={{ display: 'inline-block', marginTop: 12 }}>
                {t('portal.introduce.go')}
              </Link>
            </Card>
          </Col>
        ))}
      </Row>
      <Space style={{ marginTop: 24 }}>
        <Link to={QS_EDITOR}>
          <Button type="primary" size="large">
            {t('portal.introduce.start')}
          </Button>
        </Link>
        <Link to="/qs/template">
          <Button size="large">{t('portal.introduce.browse')}</Button>
        </Link>
      </Space>
    </div>
  );
}
