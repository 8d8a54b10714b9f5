/**
 * Contests (issue 30, the contests contract): a template manager opens a contest of the tenant; its
 * users submit one rendered work each while it is open, like the others' entries (or the judges score
 * them), and the result ranks them once it has closed. Everyone reads under `/contest/*`; managers
 * keep the contests under `/manage/contest/*`.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';

/** How a contest ranks its entries: signed-in users' likes, or the judges' scores. */
export const CONTEST_RANKINGS = ['likes', 'scores'] as const;
export type ContestRanking = (typeof CONTEST_RANKINGS)[number];

/** Where a contest stands by the server's clock. */
export const CONTEST_STATES = ['upcoming', 'open', 'closed'] as const;
export type ContestState = (typeof CONTEST_STATES)[number];

/** Longest fields, in characters (the server refuses longer ones). */
export const CONTEST_LIMITS = { title: 40, theme: 500, rules: 2000 } as const;
/** The judges' scores: whole numbers in this range. */
export const SCORE_MIN = 0;
export const SCORE_MAX = 100;

/** A contest as every call answers it. */
export interface ContestDto {
  id: number;
  title: string;
  theme: string;
  rules: string;
  /** Ms since the epoch. */
  startMs: number;
  endMs: number;
  /** 'YYYY-MM-DD HH:mm:ss', server time. */
  startTime: string;
  endTime: string;
  ranking: ContestRanking;
  state: ContestState;
  /** 0: no template to start from. */
  templateId: number;
  entryCount: number;
}

/** One entry of a contest: a user's rendered work. */
export interface EntryDto {
  id: number;
  contestId: number;
  taskId: number;
  taskName: string;
  submittedMs: number;
  likes: number;
  /** The caller liked it. */
  liked: boolean;
  /** Scores contests: the judges' score, null until scored. */
  score: number | null;
  /** Only once the contest has closed: 1, 2, …; ties share a rank. */
  rank: number | null;
  /** The caller's own entry. */
  mine: boolean;
  /** Signed same-origin addresses, '' when the work has none. */
  coverUrl: string;
  videoUrl: string;
}

/** GET /contest/{id}: the contest with its entries (in rank order once closed, else newest first). */
export interface ContestDetail {
  contest: ContestDto;
  entries: EntryDto[];
}

/** What POST /manage/contest/save takes: no id (or 0) creates, an id replaces. */
export interface ContestSave {
  id?: number;
  title: string;
  theme: string;
  rules: string;
  startMs: number;
  endMs: number;
  ranking: ContestRanking;
  templateId?: number;
}

function asList<T>(data: T[] | undefined): T[] {
  return Array.isArray(data) ? data : [];
}

/** Every mutation can change a contest's entries and counts, in the lists and the detail. */
function useContestMutation<V, R>(call: (vars: V) => Promise<R>) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: call,
    onSettled: () => client.invalidateQueries({ queryKey: queryKeys.contest.all }),
  });
}

/** Returns the tenant's contests, newest start first. */
export function useContests() {
  return useQuery({
    queryKey: queryKeys.contest.list,
    queryFn: async () => asList(await api.get<ContestDto[] | undefined>('/contest/list')),
  });
}

/**
 * Returns one contest with its entries; off while `id` is null. Quiet: the pages say in place that an
 * unknown contest does not exist.
 */
export function useContest(id: number | null) {
  return useQuery({
    queryKey: queryKeys.contest.one(id ?? -1),
    queryFn: async () => {
      const data = await api.get<ContestDetail>(`/contest/${id ?? -1}`, undefined, { silent: true });
      return { contest: data.contest, entries: asList(data.entries) };
    },
    enabled: id !== null,
  });
}

/** Enters one of the caller's rendered works. Refusals are left to the page to word. */
export function useSubmitEntry() {
  return useContestMutation((input: { contestId: number; taskId: number }) => api.post<EntryDto>('/contest/submit', { ...input }, { silent: true }));
}

/** Withdraws the caller's own entry while the contest is open. */
export function useWithdrawEntry() {
  return useContestMutation((entryId: number) => api.post<unknown>('/contest/withdraw', { entryId }, { silent: true }));
}

/** Likes an entry (once per user; not one's own; not after the close). */
export function useLikeEntry() {
  return useContestMutation((entryId: number) => api.post<EntryDto>('/contest/like', { entryId }, { silent: true }));
}

/** Creates or replaces a contest (template managers); answers it. */
export function useSaveContest() {
  return useContestMutation((input: ContestSave) => api.post<ContestDto>('/manage/contest/save', { ...input }, { silent: true }));
}

/** Scores an entry of a scores contest, 0–100 whole (template managers). */
export function useScoreEntry() {
  return useContestMutation((input: { entryId: number; score: number }) => api.post<EntryDto>('/manage/contest/score', { ...input }, { silent: true }));
}

/** Deletes a contest without entries (template managers). */
export function useDeleteContest() {
  return useContestMutation((id: number) => api.post<unknown>('/manage/contest/delete', { id }, { silent: true }));
}
