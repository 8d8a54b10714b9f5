/**
 * One-click filming (docs/toolbox.md "One-click filming"): the templates of a category for a wanted
 * length, closest first, each with its video slots; and the assembly of a new editor work from a
 * template and the user's clips (in slot order), answered with the work and where each clip went.
 * Refusals come back silently as `ApiError`s naming their field (`data.field`): the page words them.
 */
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { api } from './client';
import { queryKeys } from './keys';
import type { TemplateSummary } from './template';

/** A video slot of a template, in the order clips fill them. */
export interface OneClickSlot {
  /** The layer. */
  id: string;
  sceneIndex: number;
  /** How long the slot shows, seconds: the stretch of a clip put there. */
  seconds: number;
}

/** A template offered for one-click filming (`replaceVideo` and `replacePicture` count its slots). */
export interface OneClickTemplate extends TemplateSummary {
  videoSlots: OneClickSlot[];
}

/** Answers the category's templates with a video slot, the closest to `timeLength` seconds first. */
export async function fetchOneClickTemplates(categoryId: number, timeLength: number): Promise<OneClickTemplate[]> {
  const data = await api.post<{ dataList?: OneClickTemplate[] | null } | undefined>(
    '/v2/videotask/oneClick/template',
    { categoryId, timeLength },
    { silent: true },
  );
  return Array.isArray(data?.dataList) ? data.dataList.map((tpl) => ({ ...tpl, videoSlots: Array.isArray(tpl.videoSlots) ? tpl.videoSlots : [] })) : [];
}

/** The templates of a category for a length; idle until both are chosen. */
export function useOneClickTemplates(categoryId: number | null, timeLength: number) {
  return useQuery({
    queryKey: queryKeys.oneClick.templates(categoryId ?? 0, timeLength),
    queryFn: () => fetchOneClickTemplates(categoryId ?? 0, timeLength),
    enabled: categoryId !== null && timeLength > 0,
    retry: false,
  });
}

/** What POST /v2/videotask/oneClick/run takes. */
export interface OneClickInput {
  templateId: number;
  /** The clips, in the order of the template's video slots. */
  materialIds: string[];
  /** Pictures for its picture slots, in order. */
  pictureIds?: string[];
  name?: string;
}

/** Where a clip went: its slot and the cut of it that plays there, seconds. */
export interface Placed {
  slotId: string;
  materialId: string;
  start: number;
  end: number;
  /** The slot's length. */
  slot: number;
  /** Seconds the clip's last frame is held (a clip shorter than its slot); 0: none. */
  held: number;
}

/** Answer of the assembly. */
export interface OneClickAnswer {
  taskId: number;
  placed: Placed[];
}

export const runOneClick = (input: OneClickInput): Promise<OneClickAnswer> =>
  api.post<OneClickAnswer>('/v2/videotask/oneClick/run', input, { silent: true });

/** Assembles a new work of the caller; my works reload. */
export function useOneClickRun() {
  const client = useQueryClient();
  return useMutation({ mutationFn: runOneClick, onSettled: () => client.invalidateQueries({ queryKey: queryKeys.videoTask.mine.all }) });
}
