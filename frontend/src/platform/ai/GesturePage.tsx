import { Alert, Card, Col, Row, Spin, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { useAbilities } from '@/api/ai';
import { GESTURE_RECOGNITION, GESTURES } from './gestures';

/** Whether recognition is offered, as the AI service computes it, and why not when it is not. */
function Recognition() {
  const { t } = useTranslation();
  const list = useAbilities();
  if (list.isPending) return <Spin />;
  const ability = list.data?.find((a) => a.key === GESTURE_RECOGNITION);
  if (list.isError || !ability) return <Alert type="error" showIcon title={t('ai.loadFailed')} />;
  if (ability.available) return <Alert type="success" showIcon title={t('gesture.available')} data-testid="gesture-available" />;
  const reason = ability.reasonCode ? t(`ai.reason.${ability.reasonCode}`, { defaultValue: ability.reasonCode }) : '';
  return (
    <Alert
      type="warning"
      showIcon
      title={t('gesture.notConfigured', { reason })}
      description={
        <>
          <Typography.Paragraph style={{ marginBottom: 4 }}>{t('gesture.why')}</Typography.Paragraph>
          {ability.reason ? <Typography.Text type="secondary">{ability.reason}</Typography.Text> : null}
        </>
      }
      data-testid="gesture-not-configured"
    />
  );
}

/**
 * /gesture: the gesture-recognition ability: the 24 gestures it names, and whether recognition is
 * offered on this server. No recognition model ships in a registry package, so it says so and why
 * rather than guessing a gesture.
 */
export function GesturePage() {
  const { t } = useTranslation();
  return (
    <div style={{ maxWidth: 1200, margin: '0 auto', padding: 24 }} data-testid="gesture-page">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.gesture')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('gesture.intro')}</Typography.Paragraph>
      <Recognition />
      <Typography.Title level={4} style={{ marginTop: 24 }}>
        {t('gesture.catalogue', { count: GESTURES.length })}
      </Typography.Title>
      <Row gutter={[12, 12]}>
        {GESTURES.map((g) => (
          <Col key={g.key} xs={12} sm={8} md={6} lg={4}>
            <Card size="small" data-testid={`gesture-${g.key}`} styles={{ body: { textAlign: 'center' } }}>
              <div style={{ fontSize: 36, lineHeight: '48px' }} aria-hidden>
                {g.symbol}
              </div>
              <Typography.Text strong style={{ display: 'block' }}>
                {t(`gesture.names.${g.key}`)}
              </Typography.Text>
              <Tag style={{ marginTop: 4, marginInlineEnd: 0 }}>{g.key}</Tag>
            </Card>
          </Col>
        ))}
      </Row>
    </div>
  );
}
