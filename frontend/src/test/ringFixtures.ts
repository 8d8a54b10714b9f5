import type { RingOrder, RingProfile, RingReport } from '@/api/ring';
import type { TaskSummary } from '@/api/videoTask';

/** The qs profile of docs/ringtone.md as GET /ring/profile answers it. */
export const QS_PROFILE: RingProfile = {
  variant: 'qs',
  container: 'mp4',
  videoCodec: 'h264',
  h264Profiles: ['baseline', 'main', 'high'],
  h264MaxLevel: '4.1',
  sizes: [
    { width: 1080, height: 1920 },
    { width: 720, height: 1280 },
  ],
  orientations: ['portrait', 'landscape'],
  minFps: 24,
  maxFps: 30,
  maxVideoKbps: 8000,
  minSeconds: 5,
  maxSeconds: 60,
  audioCodec: 'aac',
  loudnessLufs: -16,
  loudnessToleranceLu: 2,
  truePeakDbtp: -1,
  maxFileMb: 30,
  coverFormats: ['jpeg', 'png'],
  coverMaxKb: 1024,
  safeTopPercent: 22,
  safeBottomPercent: 24,
};

/** A report that conforms. */
export const CONFORMS: RingReport = { conforms: true, violations: [] };

/** A report breaking loudness (fixable) and duration (not fixable). */
export const LOUD_AND_LONG: RingReport = {
  conforms: false,
  violations: [
    { rule: 'loudness', measured: -9.8, limit: -14, message: 'loudness -9.8 LUFS above -14', fixable: true },
    { rule: 'duration', measured: 75, limit: 60, message: 'duration 75 s above 60', fixable: false },
  ],
};

/** A ring order with sensible defaults. */
export const order = (id: number, state: number, change: Partial<RingOrder> = {}): RingOrder => ({
  id,
  taskId: id * 10,
  taskName: `作品${id}`,
  cover: `/cover/${id}.jpg`,
  phone: '138****8000',
  state,
  reason: state === -1 ? '平台拒绝：画面含二维码' : '',
  platformRef: state === 1 ? `ref-${id}` : '',
  attempts: 1,
  createdAt: '2026-11-27 08:00:00',
  updatedAt: '2026-11-27 08:01:00',
  ...change,
});

/** A finished work of my works. */
export const finishedWork = (id: number, change: Partial<TaskSummary> = {}): TaskSummary => ({
  id,
  taskName: `作品${id}`,
  status: 10,
  reason: '',
  videoUrl: `/diyvrbt/videotask/download?taskId=${id}`,
  coverUrl: `/diyvrbt/videotask/cover?taskId=${id}`,
  duration: 12,
  usedFor: '',
  ...change,
});
