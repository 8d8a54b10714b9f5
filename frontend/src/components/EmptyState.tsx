import { Button, Empty } from 'antd';
import { useTranslation } from 'react-i18next';
import { Link } from 'react-router';
import { brandOf, currentVariant } from '@/app/variant';

export interface EmptyStateProps {
  /** Where 'go create' leads; no button when absent. */
  createPath?: string;
}

/** The shared 'nothing yet, go create' screen with the variant's picture (spec platform §2). */
export function EmptyState({ createPath }: EmptyStateProps) {
  const { t } = useTranslation();
  return (
    <Empty
      data-testid="empty-state"
      image={brandOf(currentVariant()).emptyImage}
      styles={{ image: { height: 120 } }}
      description={t('empty.nothing')}
    >
      {createPath ? (
        <Link to={createPath}>
          <Button type="primary">{t('empty.create')}</Button>
        </Link>
      ) : null}
    </Empty>
  );
}
