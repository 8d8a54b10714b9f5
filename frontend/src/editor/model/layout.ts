/**
 * Small document rules: the port of services/timeline/src/layout.rs.
 */
import type { SlotKind } from './gen/SlotKind';

/** Length of a new attachment, seconds. */
export const DEFAULT_ATTACH_SPAN = 2;

/** Returns the size category of a width/height (41 16:9, 42 4:3, 50 9:16, 51 1:1, -1 unusable). */
export function sizeCategory(width: number, height: number): number {
  if (!(width > 0 && height > 0 && Number.isFinite(width) && Number.isFinite(height))) return -1;
  const r = width / height;
  if (r < 1) return 50;
  if (r === 1) return 51;
  if (r > 1.7) return 41;
  if (r > 1.3 || r >= Math.sqrt(4 / 3)) return 42;
  return 51;
}

/** Returns a new attachment's [start, end]: 2 s from the current time inside 0..duration. */
export function defaultAttachRange(current: number, duration: number): [number, number] {
  const d = Number.isFinite(duration) ? Math.max(duration, 0) : 0;
  const c = Number.isFinite(current) ? current : 0;
  const start = Math.min(Math.max(c, 0), d);
  const end = Math.min(start + DEFAULT_ATTACH_SPAN, d);
  return [Math.min(Math.max(end - DEFAULT_ATTACH_SPAN, 0), start), end];
}

/** Returns the scene length after adding a layer ending at layerEnd. */
export function extendedSceneLength(sceneLength: number, layerEnd: number): number {
  return Number.isFinite(layerEnd) && layerEnd > sceneLength ? layerEnd : sceneLength;
}

/** Returns the slot an item is when canModify is 1. */
export function slotKind(materialType: string, canModify: number): SlotKind | null {
  if (canModify !== 1) return null;
  switch (materialType) {
    case 'word':
    case 'artWord':
      return 'text';
    case 'picture':
    case 'gif':
      return 'picture';
    case 'video':
      return 'video';
    default:
      return null;
  }
}
