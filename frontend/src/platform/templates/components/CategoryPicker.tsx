import { Flex, Tag, Typography } from 'antd';
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

const rowLabel = { width: 72, flex: 'none' } as const;

/** Two-level (or IVVR one-level) category picker. */
export function CategoryPicker({ categories, value, onChange, ivvr = false }: CategoryPickerProps) {
  const { t } = useTranslation();
  const second = ivvr ? [] : childrenOf(categories, value.first);
  return (
    <Flex vertical gap={12} data-testid="category-picker">
      <Flex gap={8} align="baseline">
        <Typography.Text type="secondary" style={rowLabel}>
          {t('templates.categories')}
        </Typography.Text>
        <Flex wrap gap={8} role="listbox" aria-label="first-level">
          {categories.map((c) => (
            <Tag.CheckableTag
              key={c.categoryId}
              data-testid="category-first"
              checked={value.first === c.categoryId}
              onChange={() => onChange(chooseFirst(value, c.categoryId, ivvr))}
            >
              {c.categoryName}
            </Tag.CheckableTag>
          ))}
        </Flex>
      </Flex>
      {!ivvr && value.first !== null && (
        <Flex gap={8} align="baseline">
          <span style={rowLabel} />
          <Flex wrap gap={8} role="listbox" aria-label="second-level">
            <Tag.CheckableTag
              data-testid="category-second"
              checked={value.second === ALL}
              onChange={() => onChange(chooseSecond(value, ALL))}
            >
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
        </Flex>
      )}
    </Flex>
  );
}
