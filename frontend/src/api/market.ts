/**
 * The service marketplace (issue 30, the market contract): service providers publish template-design
 * and video-making services of their tenant; its users browse the published ones and place requests;
 * the provider delivers one of their rendered works (copied into the requester's works) or declines
 * with a reason; the requester may withdraw an open request. Everything lives under `/market/*`.
 */
import { keepPreviousData, useMutation, useQuery, useQueryClient, type QueryKey } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';

/** What a service offers: a template design, or making a video. */
export const SERVICE_KINDS = ['template', 'video'] as const;
export type ServiceKind = (typeof SERVICE_KINDS)[number];

/** Where a request stands: open until the requester withdraws it or the provider declines or delivers. */
export const REQUEST_STATES = ['open', 'withdrawn', 'declined', 'delivered'] as const;
export type RequestState = (typeof REQUEST_STATES)[number];

/** Longest fields in characters, and most samples (the server refuses more). */
export const MARKET_LIMITS = { title: 40, description: 1000, price: 40, samples: 6, note: 500, reason: 200 } as const;
/** A service's delivery time: whole days in this range. */
export const DELIVERY_DAYS_MIN = 1;
export const DELIVERY_DAYS_MAX = 60;

/** A service as every call answers it. */
export interface ServiceDto {
  id: number;
  title: string;
  kind: ServiceKind;
  description: string;
  /** The provider's own wording, e.g. "500 元起". */
  price: string;
  deliveryDays: number;
  published: boolean;
  /** The caller provides it. */
  mine: boolean;
  sampleTaskIds: number[];
  /** The first sample's cover, signed; '' when none. */
  coverUrl: string;
  /** Open requests: counted only for the provider's own services, else 0. */
  openRequests: number;
  /** 'YYYY-MM-DD HH:mm:ss'. */
  updateTime: string;
}

/** One of a service's samples: a rendered work of its provider (signed same-origin addresses). */
export interface SampleDto {
  taskId: number;
  name: string;
  coverUrl: string;
  videoUrl: string;
}

/** A request to a service. */
export interface RequestDto {
  id: number;
  serviceId: number;
  serviceTitle: string;
  note: string;
  state: RequestState;
  /** A decline's reason; '' otherwise. */
  reason: string;
  /** The requester's new task once delivered; 0 until then. */
  deliveredTaskId: number;
  /** The caller placed it. */
  mine: boolean;
  createTime: string;
  updateTime: string;
}

/** GET /market/service/{id}: the service, its samples and the caller's requests to it. */
export interface ServiceDetail {
  service: ServiceDto;
  samples: SampleDto[];
  myRequests: RequestDto[];
}

/** GET /market/mine: the caller's services, the requests to them and the caller's own requests. */
export interface MarketMine {
  services: ServiceDto[];
  received: RequestDto[];
  sent: RequestDto[];
}

/** What POST /market/service/save takes: no id (or 0) creates an unpublished service, an id replaces. */
export interface ServiceSave {
  id?: number;
  title: string;
  kind: ServiceKind;
  description: string;
  price: string;
  deliveryDays: number;
  sampleTaskIds: number[];
}

export function isServiceKind(value: string | null | undefined): value is ServiceKind {
  return (SERVICE_KINDS as readonly string[]).includes(value ?? '');
}

function asList<T>(data: T[] | undefined | null): T[] {
  return Array.isArray(data) ? data : [];
}

/**
 * Every mutation can change the services (their state, open counts) and the requests, in the lists,
 * one service and mine; `extra` names what else it changes.
 */
function useMarketMutation<V, R>(call: (vars: V) => Promise<R>, extra: QueryKey[] = []) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => Promise.all([queryKeys.market.all, ...extra].map((queryKey) => client.invalidateQueries({ queryKey }))),
  });
}

/** Returns the tenant's published services, newest first; `kind` null: every kind. */
export function useServices(kind: ServiceKind | null) {
  return useQuery({
    queryKey: queryKeys.market.services(kind ?? 'all'),
    queryFn: async () => asList(await api.get<ServiceDto[] | undefined>('/market/services', kind ? { kind } : undefined)),
    placeholderData: keepPreviousData,
  });
}

/**
 * Returns one service with its samples and the caller's requests to it; off while `id` is null.
 * Quiet: the page says in place that an unknown (or unpublished) service does not exist.
 */
export function useService(id: number | null) {
  return useQuery({
    queryKey: queryKeys.market.one(id ?? -1),
    queryFn: async (): Promise<ServiceDetail> => {
      const data = await api.get<ServiceDetail>(`/market/service/${id ?? -1}`, undefined, { silent: true });
      return { service: data.service, samples: asList(data.samples), myRequests: asList(data.myRequests) };
    },
    enabled: id !== null,
  });
}

/** Returns the caller's services, the requests to them and the caller's own requests. */
export function useMarketMine() {
  return useQuery({
    queryKey: queryKeys.market.mine,
    queryFn: async (): Promise<MarketMine> => {
      const data = await api.get<Partial<MarketMine> | undefined>('/market/mine');
      return { services: asList(data?.services), received: asList(data?.received), sent: asList(data?.sent) };
    },
  });
}

/** Creates or replaces a service (providers); answers it. Refusals are left to the page to word. */
export function useSaveService() {
  return useMarketMutation((input: ServiceSave) => api.post<ServiceDto>('/market/service/save', { ...input }, { silent: true }));
}

/** Publishes or withdraws one of the caller's services. */
export function usePublishService() {
  return useMarketMutation((input: { id: number; published: boolean }) => api.post<ServiceDto>('/market/service/publish', { ...input }, { silent: true }));
}

/** Places a request to a published service of someone else. */
export function useRequestService() {
  return useMarketMutation((input: { serviceId: number; note: string }) => api.post<RequestDto>('/market/request', { ...input }, { silent: true }));
}

/** Withdraws the caller's open request. */
export function useWithdrawRequest() {
  return useMarketMutation((requestId: number) => api.post<RequestDto>('/market/request/withdraw', { requestId }, { silent: true }));
}

/** Declines an open request to one of the caller's services, with a reason. */
export function useDeclineRequest() {
  return useMarketMutation((input: { requestId: number; reason: string }) => api.post<RequestDto>('/market/request/decline', { ...input }, { silent: true }));
}

/**
 * Delivers one of the caller's rendered works for an open request to their service: the work is
 * copied into the requester's works, so the works lists reload too.
 */
export function useDeliverRequest() {
  return useMarketMutation(
    (input: { requestId: number; taskId: number }) => api.post<RequestDto>('/market/request/deliver', { ...input }, { silent: true }),
    [queryKeys.videoTask.mine.all],
  );
}
