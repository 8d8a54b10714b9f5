import { PictureOutlined } from '@ant-design/icons';
import { Card, Col, Row, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { usePublishedCollections, type Collection } from '@/api/collection';
import { HomeSection } from './HomeSection';

const COVER = { height: 120, background: '#f0f0f5', display: 'flex', alignItems: 'center', justifyContent: 'center', overflow: 'hidden' } as const;

function TopicCard({ topic, pickerPath }: { topic: Collection; pickerPath: string }) {
  const { t } = useTranslation();
  return (
    <Link to={`${pickerPath}?collection=${topic.id}`} data-testid={`home-topic-${topic.id}`}>
      <Card
        hoverable
        size="small"
        cover={
          <div style={COVER}>
            {topic.coverUrl ? (
              <img src={topic.coverUrl} alt={topic.name} style={{ width: '100%', height: '100%', objectFit: 'cover' }} />
            ) : (
              <PictureOutlined style={{ fontSize: 32, color: '#bbb' }} aria-hidden />
            )}
          </div>
        }
      >
        <Typography.Text strong ellipsis={{ tooltip: topic.name }} style={{ display: 'block' }}>
          {topic.name}
        </Typography.Text>
        <Typography.Text type="secondary" style={{ fontSize: 12 }}>
          {t('collection.browse.count', { count: topic.templateCount })}
        </Typography.Text>
      </Card>
    </Link>
  );
}

/**
 * 专题: the tenant's published topics, each leading to its templates on the picker at `pickerPath`
 * (the qs portal's own); nothing while there are none.
 */
export function HomeTopics({ pickerPath = '/template-select' }: { pickerPath?: string }) {
  const { t } = useTranslation();
  const { data } = usePublishedCollections('topic');
  if (!data || data.length === 0) return null;
  return (
    <HomeSection title={t('collection.browse.homeTitle')} testId="home-topics">
      <Row gutter={[16, 16]}>
        {data.map((topic) => (
          <Col key={topic.id} xs={12} sm={8} lg={6}>
            <TopicCard topic={topic} pickerPath={pickerPath} />
          </Col>
        ))}
      </Row>
    </HomeSection>
  );
}
