import { Alert, Card, Col, Row, Spin, Tag, Tooltip, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { type Ability, useAbilities } from '@/api/ai';
import { GESTURE_RECOGNITION } from './gestures';

const GROUPS = ['create', 'analyze', 'other'] as const;

/** The page of an ability: `/ai/ability/create-text-generation`; gesture recognition has its own, `/gesture`. */
export function abilityPath(a: Ability): string | null {
  if (a.key === GESTURE_RECOGNITION) return '/gesture';
  return a.group === 'create' || a.group === 'analyze' ? `/ai/ability/${a.group}-${a.key}` : null;
}

function AbilityCard({ ability }: { ability: Ability }) {
  const { t, i18n } = useTranslation();
  const name = i18n.language.startsWith('zh') ? ability.nameZh : ability.nameEn;
  const path = ability.hasPage ? abilityPath(ability) : null;
  const reason = ability.reasonCode ? t(`ai.reason.${ability.reasonCode}`, { defaultValue: ability.reason ?? ability.reasonCode }) : '';
  const body = (
    <Card size="small" hoverable={Boolean(path)} data-testid={`ability-${ability.key}`}>
      <Typography.Text strong>{name}</Typography.Text>
      <div style={{ marginTop: 8 }}>
        {!ability.hasPage && <Tag>{t('ai.descriptionOnly')}</Tag>}
        {ability.available ? (
          <Tag color="green">{t('ai.available')}</Tag>
        ) : (
          <Tooltip title={ability.reason}>
            <Tag color="default">{reason}</Tag>
          </Tooltip>
        )}
      </div>
    </Card>
  );
  return path ? <Link to={path}>{body}</Link> : body;
}

/** /ai/list: the catalogue from the server by group, each ability's state and why it is unavailable. */
export function AiListPage() {
  const { t } = useTranslation();
  const list = useAbilities();
  if (list.isPending) return <Spin />;
  if (list.isError) return <Alert type="error" message={t('ai.loadFailed')} />;
  return (
    <div style={{ padding: 24 }}>
      <Typography.Title level={3}>{t('page.aiList')}</Typography.Title>
      {GROUPS.map((g) => (
        <section key={g} data-testid={`group-${g}`}>
          <Typography.Title level={4}>{t(`ai.group.${g}`)}</Typography.Title>
          <Row gutter={[12, 12]}>
            {list.data
              .filter((a) => a.group === g)
              .map((a) => (
                <Col key={a.key} xs={12} md={6}>
                  <AbilityCard ability={a} />
                </Col>
              ))}
          </Row>
        </section>
      ))}
    </div>
  );
}
