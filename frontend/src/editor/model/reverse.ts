/**
 * A video layer's `reverseBy`, as the renderer reads it (services/timeline `reversed_on_the_fly`,
 * `reversed_file_of`; shared vectors `reverse_playback.json`). A truthy scalar asks the renderer to
 * play the clip backwards itself; the editor's reverse instead swaps the layer's video for a
 * reversed file (`/material/v2/reverVideo`) and records the original as
 * `{materialId, videoSrc}`, which the renderer plays forwards (the browser's stage can show a
 * reversed file; it cannot play a video backwards).
 */

/** The original a reversed file was made from, as `reverseBy` records it. */
export interface ReversedFrom {
  materialId: string;
  videoSrc: string;
}

/** Whether `reverseBy` asks the renderer to play the clip backwards itself. */
export function reversedOnTheFly(reverseBy: unknown): boolean {
  if (typeof reverseBy === 'boolean') return reverseBy;
  if (typeof reverseBy === 'number') return reverseBy !== 0;
  if (typeof reverseBy === 'string') return reverseBy !== '' && reverseBy !== '0' && reverseBy !== 'false';
  return false;
}

/** The original material of a reversed file, or null where `reverseBy` records none. */
export function reversedFileOf(reverseBy: unknown): string | null {
  if (typeof reverseBy !== 'object' || reverseBy === null || Array.isArray(reverseBy)) return null;
  const id = (reverseBy as Record<string, unknown>).materialId;
  if (typeof id === 'string' && id !== '') return id;
  if (typeof id === 'number') return String(id);
  return null;
}

/** The record of a reversed file's original, or null where `reverseBy` holds none. */
export function reversedFrom(reverseBy: unknown): ReversedFrom | null {
  const materialId = reversedFileOf(reverseBy);
  if (materialId === null) return null;
  const src = (reverseBy as Record<string, unknown>).videoSrc;
  return { materialId, videoSrc: typeof src === 'string' ? src : '' };
}

/**
 * A cut of a clip `duration` seconds long, as the same stretch of the clip played backwards (the
 * reversed file's time of a moment is `duration − t`); unchanged where the duration is unknown.
 */
export function mirroredCut<C extends { start: number; end: number }>(cut: C, duration: number | undefined): C {
  if (!duration || duration <= 0) return cut;
  const start = Math.max(0, duration - cut.end);
  const end = Math.max(start, duration - cut.start);
  return { ...cut, start: Math.round(start * 1000) / 1000, end: Math.round(end * 1000) / 1000 };
}
