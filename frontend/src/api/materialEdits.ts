/**
 * The editor's server-side media edits (docs/toolbox.md "The editor's media edits"): a video's in
 * and out, a sound's, a video's box and a reverse are tool runs answered with their ids (their
 * output becomes a material by "use", `toolOutputToMaterial`); a reverse's material is read back by
 * `reverToUuid`; a picture's box is cut in the request and answers its new material.
 */
import { api } from './client';
import type { RunToolAnswer } from './toolbox';

/** Where the reverse of a material stands (`/material/v2/reverToUuid`). */
export interface ReverseState {
  /** The reversed video's material id once done; '' before. */
  uuid: string;
  taskId: number;
  state: 'none' | 'queued' | 'running' | 'done' | 'error' | 'cancelled' | string;
  percent: number;
  reason: string;
}

/** Queues the reverse of a video material. */
export const reverseVideo = (uuid: string): Promise<RunToolAnswer> => api.post<RunToolAnswer>('/material/v2/reverVideo', { uuid, isFile: true }, { silent: true });

/** Reads where the reverse of a material stands; once done, its `uuid` is the reversed video's material. */
export const reversedOf = (uuid: string): Promise<ReverseState> => api.post<ReverseState>('/material/v2/reverToUuid', { uuid }, { silent: true });

/** Queues a video's in and out (ms) as a new video. */
export const clipVideo = (materialId: string, startTime: number, endTime: number): Promise<RunToolAnswer> =>
  api.post<RunToolAnswer>('/material/videoClip', { materialId, startTime: Math.round(startTime), endTime: Math.round(endTime) }, { silent: true });

/** A box in source pixels. */
export interface Box {
  x: number;
  y: number;
  width: number;
  height: number;
}

/** Queues a box of a video as a new video (the box's values even, as 4:2:0 pictures need). */
export const cropVideo = (materialId: string, box: Box): Promise<RunToolAnswer> => api.post<RunToolAnswer>('/material/cropVideo', { materialId, ...box }, { silent: true });

/** Cuts a box of a picture as a new picture material. */
export const cropPicture = (materialId: string, box: Box): Promise<{ materialId: string; width: number; height: number }> =>
  api.post('/material/croppicture', { materialId, ...box }, { silent: true });
