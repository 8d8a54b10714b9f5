import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link, useLocation } from 'react-router';

/** Shown for any unknown path. */
export function NotFound() {
  const { t } = useTranslation();
  const { pathname } = useLocation();
  return (
    <Result
      data-testid="not-found"
      status="404"
      title={t('notFound.title')}
      subTitle={t('notFound.subtitle', { path: pathname })}
      extra={
        <Link to="/">
          <Button type="primary">{t('notFound.back')}</Button>
        </Link>
      }
    />
  );
}
