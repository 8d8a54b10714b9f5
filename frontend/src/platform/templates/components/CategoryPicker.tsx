import { Flex, Radio, Tag, Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { TaskVideoCategory } from '@/api/category';
import { ALL, childrenOf, chooseFirst, chooseSecond, type CategorySelection } from '../categorySelection';

export interface CategoryPickerProps {
  categories: readonly TaskVideoCategory[];
  value: CategorySelection;
  onChange(next: CategorySelection): void;
  /** One-level IVVR mode: no second row, clicking the selected entry deselects it. */
  ivvr?: boolean;
}

const grid = { display: 'grid', gridTemplateColumns: 'max-content 1fr', gap: '12px 16px', alignItems: 'center' } as const;

/** Two-level (or IVVR one-level) category picker. */
export function CategoryPicker({ categories, value, onChange, ivvr = false }: CategoryPickerProps) {
  const { t } = useTranslation();
  const second = ivvr ? [] : childrenOf(categories, value.first);
  return (
    <div style={grid} data-testid="category-picker">
      <Typography.Text type="secondary">{t('templates.categories')}</Typography.Text>
      <Radio.Group value={value.first} buttonStyle="solid" aria-label="first-level">
        <Flex wrap gap={8}>
          {categories.map((c) => (
            <Radio.Button key={c.categoryId} value={c.categoryId} onClick={() => onChange(chooseFirst(value, c.categoryId, ivvr))}>
              <span data-testid="category-first">{c.categoryName}</span>
            </Radio.Button>
          ))}
        </Flex>
      </Radio.Group>
      {!ivvr && value.first !== null && (
        <>
          <span />
          <Flex wrap gap={8} aria-label="second-level">
            <Tag.CheckableTag data-testid="category-second" checked={value.second === ALL} onChange={() => onChange(chooseSecond(value, ALL))}>
              {t('templates.all')}
            </Tag.CheckableTag>
            {second.map((c) => (
              <Tag.CheckableTag
                key={c.categoryId}
                data-testid="category-second"
                checked={value.second === c.categoryId}
                onChange={() => onChange(chooseSecond(value, c.categoryId))}
              >
                {c.categoryName}
              </Tag.CheckableTag>
            ))}
          </Flex>
        </>
      )}
    </div>
  );
}
