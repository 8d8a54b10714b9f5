import { RobotOutlined } from '@ant-design/icons';
import { Button, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useParams } from 'react-router';
import { NotFound } from '@/components/NotFound';
import { parseAbilitySlug } from './abilitySlug';

/** /ai/ability/:slug: names the ability and says it is coming; malformed slugs are not found. */
export function AbilityPage() {
  const { t } = useTranslation();
  const parsed = parseAbilitySlug(useParams().slug);
  if (!parsed) return <NotFound />;
  return (
    <Result
      data-testid="coming-soon"
      icon={<RobotOutlined style={{ color: '#5b3df5' }} />}
      title={t('soon.title', { page: `${t('page.aiAbility')} · ${parsed.kind}/${parsed.ability}` })}
      subTitle={<Typography.Text>{t('soon.subtitle')}</Typography.Text>}
      extra={
        <Link to="/ai/list">
          <Button type="primary">{t('page.aiList')}</Button>
        </Link>
      }
    />
  );
}
