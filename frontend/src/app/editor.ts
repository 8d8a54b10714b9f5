/** Where the editor lives (spec editor-core §2) and whether it is mounted yet. */

/** The video editor's route. */
export const EDITOR_PATH = '/diy';

/**
 * False until the editor is mounted at EDITOR_PATH (it shows a coming-soon page today); links
 * into it are disabled with a 'not available yet' tooltip meanwhile.
 */
export const EDITOR_READY = false;

/** Returns the editor address that opens a task. */
export function editorLinkFor(taskId: number): string {
  return `${EDITOR_PATH}?taskId=${taskId}`;
}
