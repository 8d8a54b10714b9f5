/** Where the contest pages live. */

/** The portal's contests: the list, or one contest with `id`. */
export const CONTESTS_PATH = '/qs/competition-content';
/** The portal's results: the closed contests, or one contest's ranking with `id`. */
export const RESULTS_PATH = '/qs/contest-result';
/** The managers' contests. */
export const MANAGE_CONTESTS_PATH = '/manage/contest';

export const contestPath = (id: number): string => `${CONTESTS_PATH}?id=${id}`;
export const resultPath = (id: number): string => `${RESULTS_PATH}?id=${id}`;

/** The contest id of a page's `?id=`, or null when it names none. */
export function contestIdParam(params: URLSearchParams): number | null {
  const id = Number(params.get('id'));
  return Number.isInteger(id) && id > 0 ? id : null;
}
