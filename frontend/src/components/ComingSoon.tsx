import { ClockCircleOutlined } from '@ant-design/icons';
import { Button, Result, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

export interface ComingSoonProps {
  /** Key under `page.` in the locale files naming the page. */
  page: string;
}

/** Honest placeholder for a page that a later release builds. */
export function ComingSoon({ page }: ComingSoonProps) {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Result
      data-testid="coming-soon"
      icon={<ClockCircleOutlined style={{ color: '#5b3df5' }} />}
      title={t('soon.title', { page: t(`page.${page}`) })}
      subTitle={
        <>
          {t('soon.subtitle')}
          <br />
          <Typography.Text code>{pathname}</Typography.Text>
        </>
      }
      extra={
        <Link to="/">
          <Button type="primary">{t('soon.back')}</Button>
        </Link>
      }
    />
  );
}
