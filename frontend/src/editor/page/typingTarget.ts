/** Whether a key event's target is a place the user types in, where the editor's shortcuts stay out. */

const FIELD_TAGS = new Set(['INPUT', 'TEXTAREA', 'SELECT']);

/**
 * Whether `target` takes typing: a form field, or an element inside editable content. The editable
 * ancestor is looked up by attribute too, since `isContentEditable` is missing in some DOMs (jsdom).
 */
export function isTypingTarget(target: EventTarget | null): boolean {
  if (!(target instanceof Element)) return false;
  if (FIELD_TAGS.has(target.tagName)) return true;
  if ((target as HTMLElement).isContentEditable) return true;
  return target.closest('[contenteditable]:not([contenteditable="false"])') !== null;
}
