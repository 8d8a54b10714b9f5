import type { RequestDto, SampleDto, ServiceDto } from '@/api/market';
import type { TaskSummary } from '@/api/videoTask';

/** Someone else's published video service with one sample. */
export const service = (id: number, change: Partial<ServiceDto> = {}): ServiceDto => ({
  id,
  title: `服务${id}`,
  kind: 'video',
  description: '',
  price: '500 元起',
  deliveryDays: 7,
  published: true,
  mine: false,
  sampleTaskIds: [100 + id],
  coverUrl: `/diyvrbt/market/cover?taskId=${100 + id}&sig=x`,
  openRequests: 0,
  updateTime: '2026-11-28 10:00:00',
  ...change,
});

/** A sample with a cover and a video. */
export const sample = (taskId: number, change: Partial<SampleDto> = {}): SampleDto => ({
  taskId,
  name: `样片${taskId}`,
  coverUrl: `/diyvrbt/market/cover?taskId=${taskId}&sig=x`,
  videoUrl: `/diyvrbt/market/video?taskId=${taskId}&sig=x`,
  ...change,
});

/** An open request of the caller's to service 7. */
export const request = (id: number, change: Partial<RequestDto> = {}): RequestDto => ({
  id,
  serviceId: 7,
  serviceTitle: '企业宣传片制作',
  note: `需求${id}`,
  state: 'open',
  reason: '',
  deliveredTaskId: 0,
  mine: true,
  createTime: '2026-11-28 11:00:00',
  updateTime: '2026-11-28 11:00:00',
  ...change,
});

/** One of the caller's rendered works. */
export const work = (id: number, change: Partial<TaskSummary> = {}): TaskSummary => ({
  id,
  taskName: `我的作品${id}`,
  status: 10,
  reason: '',
  videoUrl: `/diyvrbt/videotask/download?taskId=${id}`,
  coverUrl: `/diyvrbt/videotask/cover?taskId=${id}`,
  ...change,
});
