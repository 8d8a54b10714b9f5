import { TreeSelect } from 'antd';
import { useMemo } from 'react';
import { useTranslation } from 'react-i18next';
import { useTaskVideoCategories, type TaskVideoCategory } from '@/api/category';

export interface CategoryTreeSelectProps {
  value?: number[];
  onChange?: (ids: number[]) => void;
  id?: string;
}

/** A category as antd's TreeSelect takes it. */
export interface CategoryNode {
  value: number;
  title: string;
  children?: CategoryNode[];
}

/** The task-video category tree as TreeSelect nodes. */
export function toNodes(list: readonly TaskVideoCategory[]): CategoryNode[] {
  return list.map((c) => ({ value: c.categoryId, title: c.categoryName, children: c.children?.length ? toNodes(c.children) : undefined }));
}

/**
 * Returns `ids` with the first-level parent of every second-level id added, so a template filed
 * under '行业 / 餐饮' is also found when the picker's '行业 / 全部' filters by the first level.
 */
export function withParents(list: readonly TaskVideoCategory[], ids: readonly number[]): number[] {
  const out = new Set(ids);
  for (const first of list) {
    if (first.children?.some((c) => out.has(c.categoryId))) out.add(first.categoryId);
  }
  return [...out];
}

/** A multiple choice over the template category tree (a form control). */
export function CategoryTreeSelect({ value, onChange, id }: CategoryTreeSelectProps) {
  const { t } = useTranslation();
  const categories = useTaskVideoCategories();
  const list = categories.data;
  const nodes = useMemo(() => toNodes(list ?? []), [list]);
  return (
    <TreeSelect
      id={id}
      multiple
      treeDefaultExpandAll
      allowClear
      loading={categories.isPending}
      placeholder={t('tpl.chooseCategories')}
      treeData={nodes}
      value={value}
      onChange={(ids: number[]) => onChange?.(withParents(list ?? [], ids))}
      style={{ width: '100%' }}
      data-testid="category-tree"
    />
  );
}
