/**
 * Template calls of CONTRACT.md "Templates API contract" (issue 14): the approved list, detail,
 * slots, fill, submit, the caller's submissions, the manager's audit calls and business cards.
 */
import { keepPreviousData, useInfiniteQuery, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { ApiError } from './errors';
import { queryKeys } from './keys';

/** Template kinds, in the order the kind tabs show them. */
export const TEMPLATE_KINDS = ['classic', 'ai', 'dynamicWord', 'businessCard', 'ivvr'] as const;
export type TemplateKind = (typeof TEMPLATE_KINDS)[number];

/** Audit states of a submitted template. */
export const AUDIT_STATES = ['draft', 'pending', 'approved', 'rejected'] as const;
export type AuditState = (typeof AUDIT_STATES)[number];

/** The states the manager's check list is filtered by (`check-template/:type`). */
export const CHECK_STATES = ['pending', 'approved', 'rejected'] as const;
export type CheckState = (typeof CHECK_STATES)[number];

/** Size categories (spec platform §9): the ratio each id stands for, in filter order. */
export const SIZE_CATEGORIES = [
  { id: 50, ratio: '9:16' },
  { id: 41, ratio: '16:9' },
  { id: 51, ratio: '1:1' },
  { id: 42, ratio: '4:3' },
] as const;

/** Returns the ratio of a size category id, or '' for an unknown one. */
export function ratioOf(sizeCategoryId: number): string {
  return SIZE_CATEGORIES.find((s) => s.id === sizeCategoryId)?.ratio ?? '';
}

/** One template as the list and detail calls answer it. */
export interface TemplateSummary {
  id: number;
  taskName: string;
  kind: TemplateKind;
  usedFor: string;
  sizeCategoryId: number;
  categoryIds: number[];
  coverUrl: string;
  /** '' until the preview render exists. */
  videoUrl: string;
  /** Seconds. */
  duration: number;
  replaceWord: number;
  replacePicture: number;
  replaceVideo: number;
  auditState: AuditState;
  reason: string;
  push: boolean;
  creatorId: string;
  createTime: string;
  updateTime: string;
  /**
   * The task the template was offered from, when the server names it (the ring orders of that task
   * are the template's ring state on /mytemring).
   */
  taskId?: number;
  /** The document as a JSON string (detail only). */
  videoCreateInfo?: string;
  /** IVVR pictures and videos (detail only). */
  ivvrInfo?: { pic: string; video: string }[];
}

/** A page of templates. */
export interface TemplatePage {
  total: number;
  list: TemplateSummary[];
}

/** A replaceable part of a template (a canModify = 1 layer). */
export interface TemplateSlot {
  id: string;
  sceneIndex: number;
  materialType: 'text' | 'picture' | 'video';
  content: string;
  /** Text only; 0 means no limit. */
  maxLength: number;
  width: number;
  height: number;
}

/** Filters of GET /template/list; absent ones are not sent. */
export interface TemplateFilter {
  kind?: TemplateKind;
  sizeCategoryIds?: number[];
  categoryId?: number;
  name?: string;
}

/** Templates per page of the grid. */
export const TEMPLATE_PAGE_SIZE = 12;

/** Returns the query parameters of GET /template/list for one page. */
export function templateListParams(filter: TemplateFilter, pageNum: number, pageSize = TEMPLATE_PAGE_SIZE): Record<string, unknown> {
  const params: Record<string, unknown> = { pageNum, pageSize, orderType: 1 };
  if (filter.kind) params.kind = filter.kind;
  if (filter.sizeCategoryIds && filter.sizeCategoryIds.length > 0) params.sizeCategoryId = filter.sizeCategoryIds.join(',');
  if (filter.categoryId !== undefined) params.categoryId = filter.categoryId;
  if (filter.name) params.name = filter.name;
  return params;
}

function asPage(data: Partial<TemplatePage> | undefined): TemplatePage {
  const list = Array.isArray(data?.list) ? data.list : [];
  return { total: data?.total ?? list.length, list };
}

/** Fetches one page of approved templates. */
export async function fetchTemplates(filter: TemplateFilter, pageNum: number): Promise<TemplatePage> {
  return asPage(await api.get<Partial<TemplatePage> | undefined>('/template/list', templateListParams(filter, pageNum)));
}

/** Returns the next page number after `pages`, or undefined once everything is loaded. */
export function nextTemplatePage(pages: TemplatePage[]): number | undefined {
  const last = pages[pages.length - 1];
  if (!last || last.list.length === 0) return undefined;
  const loaded = pages.reduce((n, p) => n + p.list.length, 0);
  return loaded < last.total ? pages.length + 1 : undefined;
}

/** Returns the approved templates matching `filter`, a page at a time (infinite scroll). */
export function useTemplates(filter: TemplateFilter) {
  return useInfiniteQuery({
    queryKey: queryKeys.template.list(filter),
    queryFn: ({ pageParam }) => fetchTemplates(filter, pageParam),
    initialPageParam: 1,
    getNextPageParam: (_last, pages) => nextTemplatePage(pages),
  });
}

/** Returns one template with its document; off while `id` is null. */
export function useTemplate(id: number | null) {
  return useQuery({
    queryKey: queryKeys.template.one(id ?? -1),
    queryFn: () => api.get<TemplateSummary>(`/template/${id ?? -1}`),
    enabled: id !== null,
  });
}

/** Returns the replaceable slots of a template; off while `id` is null. */
export function useTemplateSlots(id: number | null) {
  return useQuery({
    queryKey: queryKeys.template.slots(id ?? -1),
    queryFn: async () => {
      const slots = await api.get<TemplateSlot[] | undefined>(`/template/slots/${id ?? -1}`);
      return Array.isArray(slots) ? slots : [];
    },
    enabled: id !== null,
  });
}

/** What POST /template/fill takes. */
export interface FillInput {
  templateId: number;
  name?: string;
  replaces: { id: string; replaceContent: string }[];
}

/** Makes a new task of the caller from a template; answers its id; my tasks reload. */
export function useFillTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: FillInput) => api.post<{ taskId: number }>('/template/fill', input),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.videoTask.mine.all }),
  });
}

/** What POST /template/submit takes. */
export interface SubmitInput {
  taskId: number;
  kind: TemplateKind;
  categoryIds: number[];
  sizeCategoryId?: number;
}

/** Offers one of the caller's tasks as a template (pending audit); my submissions reload. */
export function useSubmitTemplate() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: SubmitInput) => api.post<TemplateSummary>('/template/submit', input),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.template.all }),
  });
}

/** Returns one page of the caller's submitted templates, any state. */
export function useMyTemplates(pageNum: number, pageSize = TEMPLATE_PAGE_SIZE) {
  return useQuery({
    queryKey: queryKeys.template.mine(pageNum, pageSize),
    queryFn: async () => asPage(await api.get<Partial<TemplatePage> | undefined>('/template/mine', { pageNum, pageSize })),
    placeholderData: keepPreviousData,
  });
}

/** Filter of the manager's check list. */
export interface CheckFilter {
  state: CheckState;
  kind?: TemplateKind;
  pageNum: number;
  pageSize: number;
}

/** Returns the query parameters of GET /template/check. */
export function checkListParams(filter: CheckFilter): Record<string, unknown> {
  const params: Record<string, unknown> = { state: filter.state, pageNum: filter.pageNum, pageSize: filter.pageSize };
  if (filter.kind) params.kind = filter.kind;
  return params;
}

/** Returns one page of templates to check (manager). */
export function useCheckTemplates(filter: CheckFilter) {
  return useQuery({
    queryKey: queryKeys.template.check(filter),
    queryFn: async () => asPage(await api.get<Partial<TemplatePage> | undefined>('/template/check', checkListParams(filter))),
    placeholderData: keepPreviousData,
  });
}

/** Returns a template in any state with its document (manager). */
export function useCheckTemplate(id: number) {
  return useQuery({
    queryKey: queryKeys.template.checkOne(id),
    queryFn: () => api.get<TemplateSummary>(`/template/check/${id}`),
  });
}

function useTemplateMutation<V, R>(call: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.template.all }),
  });
}

/** What POST /template/audit takes; `reason` is required when rejecting. */
export interface AuditInput {
  id: number;
  approve: boolean;
  reason?: string;
}

/** Approves or rejects a template (manager). Rejecting without a reason is refused before sending. */
export function useAuditTemplate() {
  return useTemplateMutation((input: AuditInput) => {
    if (!input.approve && !input.reason?.trim()) {
      return Promise.reject(new ApiError({ kind: 'business', url: '/template/audit', message: 'a rejection needs a reason' }));
    }
    return api.post<TemplateSummary>('/template/audit', input);
  });
}

/** Sets a template's categories and size (manager). */
export function useSetTemplateCategories() {
  return useTemplateMutation((input: { id: number; categoryIds: number[]; sizeCategoryId?: number }) =>
    api.post<TemplateSummary>('/template/categories', input),
  );
}

/** Pushes templates (shown first) or takes them off (manager). */
export function useSetTemplatePush() {
  return useTemplateMutation((input: { ids: number[]; push: boolean }) => api.post<number[]>('/template/setPush', input));
}

/** Company-card field kinds (spec platform §3); code 12 does not exist. */
export const CARD_FIELDS = [
  { code: 1, kind: 'memberName' },
  { code: 2, kind: 'memberJob' },
  { code: 3, kind: 'memberDepartment' },
  { code: 4, kind: 'memberPhone' },
  { code: 5, kind: 'memberEmail' },
  { code: 6, kind: 'companyName' },
  { code: 7, kind: 'companyAddress' },
  { code: 8, kind: 'companyWebsite' },
  { code: 9, kind: 'companyPhone' },
  { code: 10, kind: 'zodiac' },
  { code: 11, kind: 'constellation' },
  { code: 13, kind: 'hobby' },
  { code: 14, kind: 'city' },
  { code: 15, kind: 'tag' },
] as const;

/** Sheet formats of the business-card header download. */
export type SheetFormat = 'csv' | 'xlsx';

/** Reads a blob as text (FileReader, which every browser and jsdom have). */
function blobText(blob: Blob): Promise<string> {
  return new Promise((resolve, reject) => {
    const reader = new FileReader();
    reader.onload = () => resolve(String(reader.result));
    reader.onerror = () => reject(reader.error ?? new Error('read failed'));
    reader.readAsText(blob);
  });
}

/** Fetches the header sheet of a business-card template; an envelope answer (a refusal) rejects with its reason. */
export async function fetchCardSheet(templateId: number, format: SheetFormat): Promise<Blob> {
  const url = `/business/template.${format}`;
  const blob = await api.get<Blob>(url, { templateId }, { responseType: 'blob' });
  if (blob.type.includes('json')) {
    const body = JSON.parse(await blobText(blob)) as { desc?: string };
    throw new ApiError({ kind: 'business', url, desc: body.desc, message: body.desc ?? `${url} failed` });
  }
  return blob;
}

/** The per-row report of a batch of business cards. */
export interface CardBatchReport {
  made: { row: number; taskId: number }[];
  failed: { row: number; reason: string }[];
}

/** Makes one card task (and render job) per good row of an uploaded sheet; my tasks reload. */
export function useRunBusinessCards() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async ({ templateId, file }: { templateId: number; file: File }) => {
      const form = new FormData();
      form.append('templateId', String(templateId));
      form.append('file', file);
      const report = await api.post<Partial<CardBatchReport> | undefined>('/v2/business/runBusinessCardTasks', form);
      return { made: report?.made ?? [], failed: report?.failed ?? [] };
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.videoTask.mine.all }),
  });
}

/** Makes one card task from a form: `fields` maps a field code to its text. */
export function useRunOneBusinessCard() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (input: { templateId: number; fields: Record<string, string> }) =>
      api.post<{ taskId: number }>('/v2/business/runOneBusinessCardTask', input),
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.videoTask.mine.all }),
  });
}
