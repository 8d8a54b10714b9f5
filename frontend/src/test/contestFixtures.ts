import type { ContestDto, EntryDto } from '@/api/contest';

/** An open likes contest without template or entries. */
export const contest = (id: number, change: Partial<ContestDto> = {}): ContestDto => ({
  id,
  title: `比赛${id}`,
  theme: '',
  rules: '',
  startMs: 1_795_000_000_000,
  endMs: 1_796_000_000_000,
  startTime: '2026-11-20 10:00:00',
  endTime: '2026-12-31 10:00:00',
  ranking: 'likes',
  state: 'open',
  templateId: 0,
  entryCount: 0,
  ...change,
});

/** Someone else's entry of contest 7, with a cover and a video, not liked. */
export const entry = (id: number, change: Partial<EntryDto> = {}): EntryDto => ({
  id,
  contestId: 7,
  taskId: 100 + id,
  taskName: `作品${id}`,
  submittedMs: 1_795_500_000_000,
  likes: 0,
  liked: false,
  score: null,
  rank: null,
  mine: false,
  coverUrl: `/diyvrbt/contest/cover?entryId=${id}&sig=x`,
  videoUrl: `/diyvrbt/contest/video?entryId=${id}&sig=x`,
  ...change,
});
