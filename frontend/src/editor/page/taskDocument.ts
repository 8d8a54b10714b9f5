/** Reading a stored task's document. */
import type { TaskDetail } from '@/api/videoTask';
import type { Rule } from '@/editor/model/gen/Rule';

/** The document of a stored task, or null when its text is not one. */
export function taskRule(task: TaskDetail): Rule | null {
  try {
    const rule = JSON.parse(task.videoCreateInfo) as Rule;
    return Array.isArray(rule?.scenes) && rule.resolutionRatio ? rule : null;
  } catch {
    return null;
  }
}
