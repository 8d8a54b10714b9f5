import { Button, Result } from 'antd';
import { useTranslation } from 'react-i18next';
import { useRouteError } from 'react-router';

/** Error boundary element for the route tree. */
export function RouteError() {
  const { t } = useTranslation();
  const error = useRouteError();
  const detail = error instanceof Error ? error.message : String(error);
  return (
    <Result
      status="error"
      title={t('error.title')}
      subTitle={detail}
      extra={
        <Button type="primary" href="#/">
          {t('error.back')}
        </Button>
      }
    />
  );
}
