/**
 * Video-ringtone calls of docs/ringtone.md (issue 26): the caller's delivery profile, the document
 * pre-check and the finished video's check, the phone number's answer, the copyright proof, the ring
 * order (save, deliver, cancel) and the lists of orders (the caller's; the tenant's for managers).
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';

/** Order states (spec platform §4). */
export const RingState = { notJoin: -2, error: -1, notSet: 0, success: 1, setting: 2, cancelSetting: 3 } as const;
export type RingStateName = keyof typeof RingState;

/** Returns the name of an order state, or null for a code the spec does not name. */
export function ringStateName(code: number): RingStateName | null {
  const found = (Object.entries(RingState) as [RingStateName, number][]).find(([, v]) => v === code);
  return found ? found[0] : null;
}

/** The rules a check names (docs/ringtone.md "API"). */
export const RING_RULES = [
  'container',
  'videoCodec',
  'h264Profile',
  'h264Level',
  'size',
  'orientation',
  'frameRate',
  'bitrate',
  'duration',
  'audioCodec',
  'loudness',
  'truePeak',
  'fileSize',
  'cover',
  'noAudio',
  'turned',
] as const;
export type RingRule = (typeof RING_RULES)[number];

/** A frame size. */
export interface FrameSize {
  width: number;
  height: number;
}

/** The caller's variant's delivery profile (GET /ring/profile). */
export interface RingProfile {
  variant: string;
  container: string;
  videoCodec: string;
  h264Profiles: string[];
  h264MaxLevel: string;
  sizes: FrameSize[];
  orientations: string[];
  minFps: number;
  maxFps: number;
  maxVideoKbps: number;
  minSeconds: number;
  maxSeconds: number;
  audioCodec: string;
  loudnessLufs: number;
  loudnessToleranceLu: number;
  truePeakDbtp: number;
  maxFileMb: number;
  coverFormats: string[];
  coverMaxKb: number;
  /** The incoming-call screen's top band (caller name and number), percent of the height. */
  safeTopPercent: number;
  /** The incoming-call screen's bottom band (answer and decline), percent of the height. */
  safeBottomPercent: number;
}

/** A measured value or a limit as a violation names it: a number, a word, a size, or a list of them. */
export type RingValue = number | string | boolean | null | FrameSize | RingValue[] | { [key: string]: RingValue };

/** One rule a video or a document breaks. */
export interface RingViolation {
  rule: RingRule | string;
  measured: RingValue;
  limit: RingValue;
  /** The server's own words (English), shown only for a rule this client does not know. */
  message: string;
  /** Whether a re-render to the profile can mend it. */
  fixable: boolean;
}

/** What POST /ring/check measured. */
export interface RingMeasured {
  container: string;
  videoCodec: string;
  h264Profile: string;
  h264Level: string;
  width: number;
  height: number;
  fps: number;
  videoKbps: number;
  seconds: number;
  audioCodec: string;
  loudnessLufs: number | null;
  truePeakDbtp: number | null;
  fileBytes: number;
}

/** The answer of POST /ring/check (and, without `measured` and `seam`, of /ring/precheck). */
export interface RingReport {
  conforms: boolean;
  violations: RingViolation[];
  measured?: RingMeasured;
  /** The loop seam: the jump between the last and the first frame. */
  seam?: { pictureJump: number; soundJumpDb: number };
}

/** The answer of POST /material/v2/ifdownloadbyphone. */
export interface PhoneAnswer {
  phone: string;
  allowed: boolean;
  /** −2 (NOTJOIN) when the number has no video-ringtone service. */
  state: number;
  reason: string;
}

/** A stored copyright proof (POST /upload/copyright). */
export interface CopyrightProof {
  id: string | number;
  name: string;
  url: string;
}

/** A ring order. */
export interface RingOrder {
  id: number;
  taskId: number;
  taskName: string;
  cover: string;
  /** Masked in lists (138****8000). */
  phone: string;
  state: number;
  reason: string;
  platformRef: string;
  attempts: number;
  createdAt: string;
  updatedAt: string;
}

/** A page of ring orders. */
export interface RingOrderPage {
  total: number;
  list: RingOrder[];
}

/** What POST /platform/saveRing takes. */
export interface SaveRingInput {
  taskId: number;
  phone: string;
  copyrightAgreed: boolean;
  copyrightId?: string | number;
  /** A finished one-click fix of the task: the order delivers its output (docs/ringtone.md). */
  fixId?: number;
}

/** The answer of POST /ring/fix: the RING_FIX run, a task whose progress is that of any task. */
export interface RingFixRun {
  fixId: string;
  jobId: string;
}

/** The filter of an order list; `state` absent lists every state. */
export interface RingOrderFilter {
  page: number;
  size: number;
  state?: number;
}


/** Orders per page of the lists. */
export const RING_PAGE_SIZE = 10;
/** How often a list holding an order being set is asked again, ms. */
export const RING_POLL_MS = 3_000;
/** Largest copyright proof the server takes, bytes (5 MiB). */
export const COPYRIGHT_MAX_BYTES = 5 * 1024 * 1024;
/** The proof's accepted types: a picture (JPEG, PNG) or a PDF. */
export const COPYRIGHT_ACCEPT = '.jpg,.jpeg,.png,.pdf,image/jpeg,image/png,application/pdf';

function asSize(value: unknown): FrameSize | null {
  if (typeof value === 'string') {
    const m = /^(\d+)\s*[x×*]\s*(\d+)$/i.exec(value.trim());
    return m ? { width: Number(m[1]), height: Number(m[2]) } : null;
  }
  if (typeof value === 'object' && value !== null && 'width' in value && 'height' in value) {
    const s = value as FrameSize;
    return { width: Number(s.width), height: Number(s.height) };
  }
  return null;
}

/** Returns a profile with its sizes as `{width, height}` whether the server wrote them so or as `1080x1920`. */
export function normaliseProfile(data: RingProfile): RingProfile {
  const sizes = (Array.isArray(data.sizes) ? (data.sizes as unknown[]) : []).map(asSize).filter((s): s is FrameSize => s !== null);
  return { ...data, sizes };
}

function asReport(data: Partial<RingReport> | undefined): RingReport {
  const violations = Array.isArray(data?.violations) ? data.violations : [];
  return { ...data, conforms: data?.conforms ?? violations.length === 0, violations };
}

function asOrderPage(data: Partial<RingOrderPage> | undefined): RingOrderPage {
  const list = Array.isArray(data?.list) ? data.list : [];
  return { total: data?.total ?? list.length, list };
}

/** Returns the query parameters of an order list; `state` only when set. */
export function orderListParams(filter: RingOrderFilter): Record<string, unknown> {
  const params: Record<string, unknown> = { page: filter.page, size: filter.size };
  if (filter.state !== undefined) params.state = filter.state;
  return params;
}

/** Returns the output size of a document the renderer makes: the target width, the height in ratio, both even. */
export function outputSize(ratio: { width: number; height: number; targetWidth: number }): FrameSize {
  const { width, height } = ratio;
  if (!(width > 0 && height > 0)) return { width: 1280, height: 720 };
  const tw = ratio.targetWidth > 0 ? ratio.targetWidth : width;
  const even = (v: number) => Math.min(4096, Math.max(1, Math.round(v / 2))) * 2;
  return { width: even(tw), height: even((tw * height) / width) };
}

/** True while the list holds an order the platform has not answered yet. */
export function anySetting(page: RingOrderPage | undefined): boolean {
  return (page?.list ?? []).some((o) => o.state === RingState.setting);
}

export const fetchRingProfile = async (): Promise<RingProfile> => normaliseProfile(await api.get<RingProfile>('/ring/profile'));
export const precheckRing = async (doc: { width: number; height: number; seconds: number }): Promise<RingReport> =>
  asReport(await api.post<Partial<RingReport>>('/ring/precheck', doc, { silent: true }));
export const checkRing = async (taskId: number, fixId: number | null = null): Promise<RingReport> =>
  asReport(await api.post<Partial<RingReport>>('/ring/check', fixId === null ? { taskId } : { taskId, fixId }, { silent: true }));
/** Starts the one-click fix of a finished work (a RING_FIX run of the farm); quiet: the modal words a refusal. */
export const fixRing = async (taskId: number): Promise<number> => Number((await api.post<RingFixRun>('/ring/fix', { taskId }, { silent: true })).fixId);
/** Asks whether a number may receive a video ringtone; quiet: the field shows the answer. */
export const askPhone = (phone: string): Promise<PhoneAnswer> => api.post<PhoneAnswer>('/material/v2/ifdownloadbyphone', { phone }, { silent: true });
export const uploadCopyright = (file: File, onProgress?: (percent: number) => void): Promise<CopyrightProof> => {
  const form = new FormData();
  form.append('file', file);
  return api.post<CopyrightProof>('/upload/copyright', form, { retry: true, silent: true, onUploadProgress: onProgress });
};
/** Records the order (state NOTSET); quiet: the modal words a refusal next to the form. */
export const saveRing = (input: SaveRingInput): Promise<RingOrder> => api.post<RingOrder>('/platform/saveRing', input, { silent: true });
/** Queues the order's delivery (state SETTING); quiet, as saveRing. */
export const ringUpload = (orderId: number): Promise<RingOrder> => api.post<RingOrder>('/material/ringUpload', { orderId }, { silent: true });
export const cancelRing = (orderId: number): Promise<RingOrder> => api.post<RingOrder>('/ring/cancel', { orderId });
export const fetchMyRingOrders = async (filter: RingOrderFilter): Promise<RingOrderPage> =>
  asOrderPage(await api.get<Partial<RingOrderPage>>('/ring/orders', orderListParams(filter)));
export const fetchTenantRingOrders = async (filter: RingOrderFilter): Promise<RingOrderPage> =>
  asOrderPage(await api.get<Partial<RingOrderPage>>('/manage/ring/orders', orderListParams(filter)));

/** Returns the caller's delivery profile (it changes only with the configuration). */
export function useRingProfile(enabled = true) {
  return useQuery({ queryKey: queryKeys.ring.profile, queryFn: fetchRingProfile, staleTime: Infinity, enabled });
}

/** Returns the editor document's pre-check (size, orientation, duration); off while `doc` is null. */
export function useRingPrecheck(doc: { width: number; height: number; seconds: number } | null) {
  return useQuery({
    queryKey: queryKeys.ring.precheck(doc ?? { width: 0, height: 0, seconds: 0 }),
    queryFn: () => precheckRing(doc ?? { width: 0, height: 0, seconds: 0 }),
    enabled: doc !== null,
    placeholderData: keepPreviousData,
    staleTime: 60_000,
    retry: false,
  });
}

/** True when the one-click fix can mend every rule the report names (and it names one). */
export function fixableReport(report: Pick<RingReport, 'conforms' | 'violations'> | undefined): boolean {
  return !!report && !report.conforms && report.violations.length > 0 && report.violations.every((v) => v.fixable);
}

/** Starts the one-click fix; resolves to the fix run's task id. */
export function useFixRing() {
  return useMutation({ mutationFn: fixRing });
}

/** Returns a finished task's check against the profile (of its fix `fixId`'s output when given); off while `taskId` is null. */
export function useRingCheck(taskId: number | null, fixId: number | null = null) {
  return useQuery({
    queryKey: queryKeys.ring.check(taskId ?? -1, fixId),
    queryFn: () => checkRing(taskId ?? -1, fixId),
    enabled: taskId !== null,
    staleTime: 5 * 60_000,
    retry: false,
  });
}

/** Asks the server about a phone number. */
export function useAskPhone() {
  return useMutation({ mutationFn: askPhone });
}

/** Uploads a copyright proof. */
export function useUploadCopyright() {
  return useMutation({ mutationFn: ({ file, onProgress }: { file: File; onProgress?: (percent: number) => void }) => uploadCopyright(file, onProgress) });
}

/**
 * Orders a ringtone: saveRing, then ringUpload of the order it answers. Resolves to the order as
 * ringUpload left it (SETTING); the order lists reload either way.
 */
export function useSetRing() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: async (input: SaveRingInput) => {
      const order = await saveRing(input);
      return ringUpload(order.id);
    },
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.ring.orders.all }),
  });
}

/** Cancels a set ringtone; the order lists reload. */
export function useCancelRing() {
  const client = useQueryClient();
  return useMutation({ mutationFn: cancelRing, onSettled: () => client.invalidateQueries({ queryKey: queryKeys.ring.orders.all }) });
}

/** Returns one page of the caller's orders, asked again every 3 s while one is being set. */
export function useMyRingOrders(filter: RingOrderFilter, enabled = true) {
  return useQuery({
    queryKey: queryKeys.ring.orders.mine(filter),
    queryFn: () => fetchMyRingOrders(filter),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (anySetting(query.state.data) ? RING_POLL_MS : false),
    enabled,
  });
}

/** Returns one page of the tenant's orders (TEMPLATE_MANAGER), asked again while one is being set. */
export function useTenantRingOrders(filter: RingOrderFilter) {
  return useQuery({
    queryKey: queryKeys.ring.orders.tenant(filter),
    queryFn: () => fetchTenantRingOrders(filter),
    placeholderData: keepPreviousData,
    refetchInterval: (query) => (anySetting(query.state.data) ? RING_POLL_MS : false),
  });
}
