import type { CollectionKind } from '@/api/collection';

/** The manage area's page listing the collections of a kind (`/manage/topic-center`…). */
export const centerPath = (kind: CollectionKind): string => `/manage/${kind}-center`;

/** The manage area's page of one collection (`/manage/topic/7`…). */
export const detailPath = (kind: CollectionKind, id: number): string => `/manage/${kind}/${id}`;

/** Locale keys (under `page.`) of the two pages' titles. */
export const centerTitleKey = (kind: CollectionKind): string => `page.${kind}Center`;
export const detailTitleKey = (kind: CollectionKind): string => `page.${kind}`;

/** Moves the item at `from` one place up (-1) or down (+1); the list unchanged when it cannot move. */
export function moved<T>(list: readonly T[], from: number, by: -1 | 1): T[] {
  const to = from + by;
  if (from < 0 || to < 0 || to >= list.length) return [...list];
  const next = [...list];
  [next[from], next[to]] = [next[to] as T, next[from] as T];
  return next;
}
