/** Pictures from the image provider (docs/ai.md, "Pictures"): text to image and similar images, runs on the farm. */
import { api } from './client';

/** The ability keys. */
export const TEXT_TO_IMAGE = 'text-to-image';
export const SIMILAR_IMAGE = 'similar-image-generation';
export const PICTURE_ABILITIES = [TEXT_TO_IMAGE, SIMILAR_IMAGE] as const;

/** The square sizes a run asks for (what OpenAI's images calls take). */
export const PICTURE_SIZES = ['256x256', '512x512', '1024x1024'] as const;
export type PictureSize = (typeof PICTURE_SIZES)[number];
/** The most pictures one run makes. */
export const MAX_PICTURES = 4;
/** The longest prompt, characters. */
export const MAX_PROMPT = 1000;

export interface PictureOptions {
  size: PictureSize;
  count: number;
}

type Queued = { taskId: number; jobId: string };

/** Queues pictures drawn from `prompt`; quiet: the page words a refusal next to its field. */
export const textToImage = (input: PictureOptions & { prompt: string }): Promise<Queued> => api.post<Queued>('/ai/textToImage', input, { silent: true });

/** Queues pictures like the caller's picture `materialId`; quiet, as above. */
export const similarImage = (input: PictureOptions & { materialId: string }): Promise<Queued> => api.post<Queued>('/ai/similarImage', input, { silent: true });
