/**
 * Curated collections (issue 29, docs: the collections contract): topics, cases and industries, each
 * an ordered list of the tenant's approved templates. Managers keep them under `/manage/collection/*`;
 * every signed-in user reads the published ones under `/collection/*`.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';
import type { TemplateSummary } from './template';

/** The kinds of collection, in the order the pages list them. */
export const COLLECTION_KINDS = ['topic', 'case', 'industry'] as const;
export type CollectionKind = (typeof COLLECTION_KINDS)[number];

/** Longest name and description, in characters (the server refuses longer ones). */
export const COLLECTION_NAME_MAX = 40;
export const COLLECTION_DESCRIPTION_MAX = 200;
/** Most templates one collection holds. */
export const COLLECTION_TEMPLATES_MAX = 100;

/** One change of a collection, as the manager's detail lists them (newest first). */
export interface CollectionAudit {
  actor: string;
  action: string;
  before: string;
  after: string;
  atMs: number;
}

/** A collection as every call answers it. */
export interface Collection {
  id: number;
  kind: CollectionKind;
  name: string;
  description: string;
  published: boolean;
  /** 0-based order among the collections of its kind. */
  position: number;
  /** The cover template's cover picture; '' while there is none. */
  coverUrl: string;
  /** 0 while the collection has no templates. */
  coverTemplateId: number;
  templateIds: number[];
  /** On the public list, the templates still approved. */
  templateCount: number;
  updatedBy: string;
  /** 'YYYY-MM-DD HH:MM:SS'. */
  updateTime: string;
  /** Detail answers only. */
  templates?: TemplateSummary[];
  /** The manager's detail only. */
  audit?: CollectionAudit[];
}

/** What POST /manage/collection/save takes: no id creates, an id replaces everything but the kind. */
export interface CollectionSave {
  id?: number;
  kind: CollectionKind;
  name: string;
  description: string;
  templateIds: number[];
  coverTemplateId?: number;
}

/** Returns true for a kind the contract names (an address's `:kind`, a query parameter). */
export function isCollectionKind(value: unknown): value is CollectionKind {
  return (COLLECTION_KINDS as readonly unknown[]).includes(value);
}

function asList(data: Collection[] | undefined): Collection[] {
  return Array.isArray(data) ? data : [];
}

/** Every mutation can change what both the manager's and the users' views show. */
function useCollectionMutation<V, R>(call: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.collection.all }),
  });
}

/** Returns the collections of one kind, published or not, by position (manager). */
export function useManagedCollections(kind: CollectionKind) {
  return useQuery({
    queryKey: queryKeys.collection.managed(kind),
    queryFn: async () => asList(await api.get<Collection[] | undefined>('/manage/collection/list', { kind })),
  });
}

/** Returns one collection with all its listed templates and its audit (manager). */
export function useManagedCollection(id: number) {
  return useQuery({
    queryKey: queryKeys.collection.managedOne(id),
    queryFn: () => api.get<Collection>(`/manage/collection/${id}`),
  });
}

/** Creates or replaces a collection; answers it. Refusals are left to the page to word. */
export function useSaveCollection() {
  return useCollectionMutation((input: CollectionSave) => api.post<Collection>('/manage/collection/save', { ...input }, { silent: true }));
}

/** Publishes or withdraws a collection; an empty one is refused. */
export function usePublishCollection() {
  return useCollectionMutation((input: { id: number; published: boolean }) => api.post<Collection>('/manage/collection/publish', { ...input }, { silent: true }));
}

/** Orders the collections of a kind: `ids` names every one of them, in the new order. */
export function useOrderCollections() {
  return useCollectionMutation((input: { kind: CollectionKind; ids: number[] }) =>
    api.post<Collection[]>('/manage/collection/order', { ...input }, { silent: true }),
  );
}

/** Deletes a collection. */
export function useDeleteCollection() {
  return useCollectionMutation((id: number) => api.post<boolean>('/manage/collection/delete', { id }, { silent: true }));
}

/**
 * Returns the published collections of a kind, or of every kind when none is given, by position.
 * Quiet: the pages showing them leave them out when they cannot be had, rather than toast.
 */
export function usePublishedCollections(kind?: CollectionKind) {
  return useQuery({
    queryKey: queryKeys.collection.published(kind ?? 'all'),
    queryFn: async () => asList(await api.get<Collection[] | undefined>('/collection/list', kind ? { kind } : undefined, { silent: true })),
  });
}

/**
 * Returns a published collection with its approved templates in order; off while `id` is null.
 * Quiet: the picker says in place that a withdrawn collection is gone.
 */
export function usePublishedCollection(id: number | null) {
  return useQuery({
    queryKey: queryKeys.collection.publishedOne(id ?? -1),
    queryFn: () => api.get<Collection>(`/collection/${id ?? -1}`, undefined, { silent: true }),
    enabled: id !== null,
  });
}
