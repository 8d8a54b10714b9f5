/** Where the marketplace pages live. */

/** The published services. */
export const MARKET_PATH = '/qs/service/select';
/** The caller's services, the requests to them and their own requests. */
export const MY_SERVICE_PATH = '/qs/service/my-service';
/** A new service; `?id=N` edits one. */
export const NEW_SERVICE_PATH = '/qs/service/new';
/** Applying to become a service provider. */
export const EMPLACEMENT_PATH = '/qs/service/emplacement';

export const servicePath = (id: number): string => `/qs/service/detail/${id}`;
export const editServicePath = (id: number): string => `${NEW_SERVICE_PATH}?id=${id}`;
/** The delivered work, a task of the requester's: my works with its player open. */
export const deliveredWorkPath = (taskId: number): string => `/qs/mydiy?preview=${taskId}`;
/** The my-service page on one of its tabs. */
export const myServiceTabPath = (tab: MyServiceTab): string => `${MY_SERVICE_PATH}?tab=${tab}`;

/** The tabs of the my-service page. */
export const MY_SERVICE_TABS = ['services', 'received', 'sent'] as const;
export type MyServiceTab = (typeof MY_SERVICE_TABS)[number];

/** A positive whole id of a path or query value, or null when it names none. */
export function idParam(value: string | null | undefined): number | null {
  const id = Number(value);
  return value && Number.isInteger(id) && id > 0 ? id : null;
}
