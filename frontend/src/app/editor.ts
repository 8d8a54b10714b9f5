/** Where the editor lives (spec editor-core §2) and whether it is mounted yet. */

/** The video editor's route. */
export const EDITOR_PATH = '/diy';

/** True now the editor is mounted at EDITOR_PATH: links into it (open in editor) are live. */
export const EDITOR_READY = true;

/** Returns the editor address that opens a task. */
export function editorLinkFor(taskId: number): string {
  return `${EDITOR_PATH}?taskId=${taskId}`;
}
