/**
 * One-click filming's rules as the page shows them before asking (docs/toolbox.md "One-click
 * filming"); the server applies the same and is the judge: clips fill the template's video slots in
 * document order, each played from its start for as long as its slot shows (cut on a hundredth of a
 * second inside the clip), a shorter clip played whole with its last frame held; slots without a
 * clip keep the template's own clip.
 */
import type { TaskVideoCategory } from '@/api/category';
import type { OneClickSlot, OneClickTemplate } from '@/api/oneClick';

/** A chosen clip as the plan needs it. */
export interface ClipFact {
  id: string;
  name: string;
  /** Its length, seconds; null until the library has read it (loading, or still probed). */
  seconds: number | null;
}

/** What one slot will show. */
export interface SlotPlan {
  slot: OneClickSlot;
  /** The clip put there; null: the template's own clip stays. */
  clip: ClipFact | null;
  /** The cut's out point in the clip, seconds (from 0); null while the clip's length is unknown. */
  end: number | null;
  /** Seconds the clip's last frame is held; 0: none. */
  held: number;
}

/** Rounds down to a hundredth, as the server cuts (a value already on a hundredth stays). */
export function hundredthsDown(seconds: number): number {
  return Math.floor(seconds * 100 + 1e-6) / 100;
}

/** The template's video slots with the clips put into them in order. */
export function planSlots(slots: readonly OneClickSlot[], clips: readonly ClipFact[]): SlotPlan[] {
  return slots.map((slot, i) => {
    const clip = clips[i] ?? null;
    if (!clip) return { slot, clip, end: 0, held: 0 };
    if (clip.seconds === null) return { slot, clip, end: null, held: 0 };
    const end = hundredthsDown(Math.min(clip.seconds, slot.seconds));
    return { slot, clip, end, held: Math.max(0, hundredthsDown(slot.seconds - end)) };
  });
}

/** Why the clips do not fit a template, as a locale key under `oneClick.problem`; null when they do. */
export function fitProblem(template: Pick<OneClickTemplate, 'videoSlots'>, clipCount: number): 'noClip' | 'tooMany' | null {
  if (clipCount === 0) return 'noClip';
  return clipCount > template.videoSlots.length ? 'tooMany' : null;
}

/**
 * The template intelligent generation picks for the user: of the templates (closest in length to
 * the clips first), the first with a video slot for every clip; else the closest.
 */
export function autoPick<T extends Pick<OneClickTemplate, 'videoSlots'>>(templates: readonly T[], clipCount: number): T | null {
  return templates.find((t) => t.videoSlots.length >= clipCount) ?? templates[0] ?? null;
}

/** The clips' total length, seconds, on a tenth (the length intelligent generation asks for). */
export function totalSeconds(clips: readonly ClipFact[]): number {
  return Math.round(clips.reduce((sum, c) => sum + (c.seconds ?? 0), 0) * 10) / 10;
}

/** A category choice: first-level categories and, after each, its second level as "parent / child". */
export function categoryOptions(tree: readonly TaskVideoCategory[]): { value: number; label: string }[] {
  return tree.flatMap((c) => [
    { value: c.categoryId, label: c.categoryName },
    ...(c.children ?? []).map((child) => ({ value: child.categoryId, label: `${c.categoryName} / ${child.categoryName}` })),
  ]);
}
