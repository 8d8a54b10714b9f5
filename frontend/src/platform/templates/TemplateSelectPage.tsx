import { Button, Card, Empty, Result, Skeleton, Typography } from 'antd';
import { useState } from 'react';
import { useTranslation } from 'react-i18next';
import { useTaskVideoCategories, type TaskVideoCategory } from '@/api/category';
import { ALL, initialSelection, type CategorySelection } from './categorySelection';
import { CategoryPicker } from './components/CategoryPicker';

function selectionName(list: readonly TaskVideoCategory[], s: CategorySelection, allLabel: string): string {
  const first = list.find((c) => c.categoryId === s.first);
  if (!first) return '';
  if (s.second === ALL || s.second === null) return `${first.categoryName} / ${allLabel}`;
  const second = first.children?.find((c) => c.categoryId === s.second);
  return `${first.categoryName} / ${second?.categoryName ?? ''}`;
}

function Picker({ categories }: { categories: TaskVideoCategory[] }) {
  const { t } = useTranslation();
  const [selection, setSelection] = useState<CategorySelection>(() => initialSelection(categories));
  return (
    <>
      <CategoryPicker categories={categories} value={selection} onChange={setSelection} />
      <Typography.Text type="secondary" data-testid="category-selected" style={{ display: 'block', marginTop: 12 }}>
        {t('templates.selected', { name: selectionName(categories, selection, t('templates.all')) })}
      </Typography.Text>
    </>
  );
}

/** /template-select: the category picker from GET /category/taskvideo above the (coming) template grid. */
export function TemplateSelectPage() {
  const { t } = useTranslation();
  const { data, isPending, isError, refetch } = useTaskVideoCategories();

  let picker;
  if (isPending) picker = <Skeleton active paragraph={{ rows: 2 }} />;
  else if (isError)
    picker = (
      <Result
        status="warning"
        title={t('templates.loadFailed')}
        extra={<Button onClick={() => void refetch()}>{t('templates.retry')}</Button>}
        data-testid="category-error"
      />
    );
  else if (data.length === 0) picker = <Empty description={t('templates.empty')} data-testid="category-empty" />;
  else picker = <Picker categories={data} />;

  return (
    <div style={{ maxWidth: 1120, margin: '0 auto' }} data-testid="template-select">
      <Typography.Title level={3}>{t('page.templateSelect')}</Typography.Title>
      <Card style={{ marginBottom: 16 }}>{picker}</Card>
      <Card title={t('templates.gridTitle')}>
        <Empty description={t('templates.gridSoon')} data-testid="template-grid-soon" />
      </Card>
    </div>
  );
}
