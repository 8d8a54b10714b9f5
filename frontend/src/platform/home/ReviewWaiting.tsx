import { AuditOutlined } from '@ant-design/icons';
import { Alert, Button } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { useCheckTemplates } from '@/api/template';

/** One row is enough: the page's total is the count. */
const PENDING = { state: 'pending', pageNum: 1, pageSize: 1 } as const;

/** For a template manager: how many templates wait for review, and the way to the check list. */
export function ReviewWaiting() {
  const { t } = useTranslation();
  const pending = useCheckTemplates(PENDING);
  if (pending.isPending || pending.isError) return null;
  const total = pending.data.total;
  return (
    <Alert
      style={{ marginTop: 16 }}
      type={total > 0 ? 'warning' : 'success'}
      showIcon
      icon={<AuditOutlined />}
      title={total > 0 ? t('portal.review.waiting', { count: total }) : t('portal.review.none')}
      action={
        <Link to="/manage/check-template/pending">
          <Button size="small" type={total > 0 ? 'primary' : 'default'} data-testid="home-review-link">
            {t('portal.review.open')}
          </Button>
        </Link>
      }
      data-testid="home-review"
      data-count={total}
    />
  );
}
