/**
 * What the start pages (/new-task, /from-jiancai, /put-image) ask /loading to make, and making it:
 * each job ends in a new task of the caller, whose id opens the editor.
 */
import { api } from '@/api/client';
import type { Material } from '@/api/material';
import { ratioByName } from '@/editor/state/defaults';
import { saveTask } from '@/api/videoTask';
import { blankRule, materialsProblem, materialsRule, type MaterialLayout } from './startDocument';

/** One start: a blank task, a task from a template, from materials, or a picture put into a template. */
export type StartJob =
  | { kind: 'blank'; name: string; ratio: string; usedFor: string }
  | { kind: 'template'; name: string; templateId: number }
  | { kind: 'materials'; name: string; ratio: string; layout: MaterialLayout; materialIds: string[] }
  | { kind: 'putImage'; name: string; templateId: number; slotId: string; materialId: string };

/** What /loading is handed in the router's state: the job and the page to go back to. */
export interface StartHandoff {
  job: StartJob;
  back: string;
}

/** Reads a handoff from the router's state; anything else (a reload, a typed address) is null. */
export function handoffOf(state: unknown): StartHandoff | null {
  const s = state as Partial<StartHandoff> | null | undefined;
  const kind = s?.job?.kind;
  if (typeof s?.back !== 'string' || !['blank', 'template', 'materials', 'putImage'].includes(String(kind))) return null;
  return s as StartHandoff;
}

/** A start the server's answers make impossible, worded by the page under `start.problem.*`. */
export class StartProblem extends Error {
  constructor(readonly problem: string) {
    super(`start refused: ${problem}`);
  }
}

/**
 * Reads the picked materials as the caller: the server answers only materials the caller may use,
 * so an id of someone else's material fails here, before any task is made.
 */
export function fetchPicked(ids: readonly string[]): Promise<Material[]> {
  return Promise.all(ids.map((id) => api.post<Material>(`/material/info/${encodeURIComponent(id)}`)));
}

function sizeOf(ratio: string): number {
  const r = ratioByName(ratio);
  if (!r) throw new StartProblem('ratio');
  return r.sizeId;
}

async function fill(templateId: number, name: string, replaces: { id: string; replaceContent: string }[]): Promise<number> {
  const answer = await api.post<{ taskId: number }>('/template/fill', { templateId, ...(name ? { name } : {}), replaces });
  return Number(answer.taskId);
}

/** Makes the job's task and answers its id. */
export async function runStartJob(job: StartJob): Promise<number> {
  switch (job.kind) {
    case 'blank': {
      const taskInfo = JSON.stringify(blankRule(job.ratio, job.usedFor));
      return Number(await saveTask({ taskId: -1, name: job.name, taskInfo, sizeCategoryId: sizeOf(job.ratio), usedFor: job.usedFor }));
    }
    case 'template':
      return fill(job.templateId, job.name, []);
    case 'materials': {
      const materials = await fetchPicked(job.materialIds);
      const problem = materialsProblem(materials, job.layout);
      if (problem) throw new StartProblem(problem);
      const taskInfo = JSON.stringify(materialsRule(materials, job.ratio, job.layout));
      return Number(await saveTask({ taskId: -1, name: job.name, taskInfo, sizeCategoryId: sizeOf(job.ratio), usedFor: 'ALL' }));
    }
    case 'putImage': {
      const [picture] = await fetchPicked([job.materialId]);
      if (!picture || picture.state !== 'ready') throw new StartProblem('notReady');
      return fill(job.templateId, job.name, [{ id: job.slotId, replaceContent: picture.url }]);
    }
  }
}
