/**
 * Two-level category picker rules (spec platform §2 'shared screens'): choosing a first-level
 * category selects its 'all' second-level entry; in IVVR (one-level) mode, choosing the selected
 * first level again deselects it.
 */
import type { TaskVideoCategory } from '@/api/category';

export const ALL = 'all' as const;

export interface CategorySelection {
  first: number | null;
  second: number | typeof ALL | null;
}

export const NO_SELECTION: CategorySelection = { first: null, second: null };

/** Returns the starting selection: the first category with 'all', or nothing for an empty list. */
export function initialSelection(list: readonly TaskVideoCategory[], ivvr = false): CategorySelection {
  const head = list[0];
  if (!head || ivvr) return NO_SELECTION;
  return { first: head.categoryId, second: ALL };
}

/** Returns the selection after clicking a first-level category. */
export function chooseFirst(current: CategorySelection, categoryId: number, ivvr = false): CategorySelection {
  if (ivvr) return current.first === categoryId ? NO_SELECTION : { first: categoryId, second: null };
  return { first: categoryId, second: ALL };
}

/** Returns the selection after clicking a second-level entry ('all' or a category id). */
export function chooseSecond(current: CategorySelection, second: number | typeof ALL): CategorySelection {
  if (current.first === null) return current;
  return { first: current.first, second };
}

/** Returns the second-level categories under a first-level one. */
export function childrenOf(list: readonly TaskVideoCategory[], firstId: number | null): TaskVideoCategory[] {
  if (firstId === null) return [];
  return list.find((c) => c.categoryId === firstId)?.children ?? [];
}

/** Returns the category id to filter by: the second level when chosen, else the first level, else null. */
export function effectiveCategoryId(selection: CategorySelection): number | null {
  return typeof selection.second === 'number' ? selection.second : selection.first;
}
