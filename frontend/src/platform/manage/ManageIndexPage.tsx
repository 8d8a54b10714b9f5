import { TrophyOutlined } from '@ant-design/icons';
import { Card, Col, Row, Spin, Statistic, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { errorText } from '@/api/errors';
import { useOverview, type QueueCount } from './manageApi';

/** Where each count of the index leads: its queue's pending tab. */
const QUEUE_PATHS: Record<QueueCount['queue'], string> = {
  template: '/manage/check-template/pending',
  chartlet: '/manage/check-chartlet/pending',
  artfont: '/manage/check-artfont/pending',
  dynamicword: '/manage/check-dynamicword/pending',
  service: '/manage/check-service',
};

/** /manage: what waits for review, counted by the services, each count leading to its queue; the music library and the contests. */
export function ManageIndexPage() {
  const { t } = useTranslation();
  const { data, isFetching, isError, error } = useOverview();
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto' }} data-testid="manage-index">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('manageArea.index.title')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('manageArea.index.intro')}</Typography.Paragraph>
      {isError ? (
        <Typography.Text type="danger">{errorText(error)}</Typography.Text>
      ) : (
        <Spin spinning={isFetching && !data}>
          <Row gutter={[16, 16]}>
            {(data?.queues ?? []).map((q) => (
              <Col key={q.queue} xs={24} sm={12} lg={6}>
                <Link to={QUEUE_PATHS[q.queue]} data-testid={`queue-${q.queue}`}>
                  <Card hoverable>
                    <Statistic title={t(`manageArea.index.queue.${q.queue}`)} value={q.pending} suffix={t('manageArea.index.waiting')} />
                  </Card>
                </Link>
              </Col>
            ))}
            {data ? (
              <Col xs={24} sm={12} lg={6}>
                <Link to="/manage/music-content" data-testid="queue-music">
                  <Card hoverable>
                    <Statistic title={t('manageArea.index.music')} value={data.musicTracks} suffix={t('manageArea.index.tracks')} />
                  </Card>
                </Link>
              </Col>
            ) : null}
            <Col xs={24} sm={12} lg={6}>
              <Link to="/manage/contest" data-testid="manage-contests">
                <Card hoverable>
                  <Card.Meta avatar={<TrophyOutlined style={{ fontSize: 26, color: '#5b3df5' }} />} title={t('page.manageContest')} description={t('manageArea.index.contests')} />
                </Card>
              </Link>
            </Col>
          </Row>
        </Spin>
      )}
    </div>
  );
}
