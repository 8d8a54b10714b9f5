import type { Collection } from '@/api/collection';

/** A collection with sensible defaults: an unpublished topic without templates. */
export const collection = (id: number, change: Partial<Collection> = {}): Collection => ({
  id,
  kind: 'topic',
  name: `专题${id}`,
  description: '',
  published: false,
  position: 0,
  coverUrl: '',
  coverTemplateId: 0,
  templateIds: [],
  templateCount: 0,
  updatedBy: 'm1',
  updateTime: '2026-11-20 09:30:00',
  ...change,
});
