/**
 * The loop-aware ringtone (issue 26): a ringtone plays over and over while the phone rings, so its
 * end meets its start. Pure computations of the editor's "cut to the climax" and "make it loop".
 */
import type { AudioItem } from '@/editor/model/gen/AudioItem';
import type { AudioFade } from '@/editor/model/gen/AudioFade';
import type { Scene } from '@/editor/model/gen/Scene';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import type { AudioPatch } from '@/editor/audio/audioCommands';

/** The longest fade at either end of the seam, seconds. */
export const MAX_SEAM_FADE = 0.5;
/** The longest closing copy of the opening scene, seconds. */
export const MAX_CLOSING = 1;

const round3 = (v: number) => Math.round(v * 1000) / 1000;

/**
 * The patch that makes a music item play its strongest section (from `startMs`, the climax cut's
 * answer) for the whole document of `seconds`: the item spans the document, its cut is that
 * section, and it does not loop. Null when the answer cannot be applied (nothing to play).
 */
export function climaxPatch(item: Pick<AudioItem, 'len'>, startMs: number, seconds: number): AudioPatch | null {
  if (!Number.isFinite(startMs) || !Number.isFinite(seconds) || seconds <= 0) return null;
  let start = Math.max(0, startMs / 1000);
  // A track shorter than the document loops from its start instead.
  if (item.len > 0 && item.len < seconds) return { start: 0, end: 0, startTime: 0, endTime: round3(seconds), isLoop: true };
  if (item.len > 0) start = Math.min(start, item.len - seconds);
  return { start: round3(start), end: round3(start + seconds), startTime: 0, endTime: round3(seconds), isLoop: false };
}

/**
 * The whole mix's fade for a clean seam (when no music item can carry a crossfade) over a document of `seconds`: a fade-in at the start and a
 * fade-out at the end, each a tenth of the document and at most MAX_SEAM_FADE, so both ends of the
 * loop meet at silence instead of a jump.
 */
export function seamFade(seconds: number): Pick<AudioFade, 'status' | 'inTime' | 'outTime'> {
  const fade = Number.isFinite(seconds) && seconds > 0 ? round3(Math.min(MAX_SEAM_FADE, seconds / 10)) : 0;
  return { status: fade > 0, inTime: fade, outTime: fade };
}

/** The name of the closing copy of the opening scene that "matching first/last frame" adds. */
export const CLOSING_NAME = 'loop-closing';

/** The longest crossfade across the seam, seconds. */
export const MAX_CROSSFADE = 1;

/** How a music item crosses the seam: its own fade-out and the bridge laid over the end. */
export interface SeamCrossfade {
  /** The music item's change: it fades out over the crossfade. */
  patch: AudioPatch;
  /**
   * The bridge: the same music's `x` seconds just before the item's cut, placed over the
   * document's last `x` seconds and fading in, so the end flows into the start as the song does.
   */
  bridge: AudioItem;
}

/**
 * The crossfade across the seam of a document of `seconds` for a music item that plays from `start`
 * in its source over the whole document without looping (as "cut to the climax" sets it): null
 * when the item cannot carry one (a voice, a loop, a partial placement, or a cut starting too near
 * the source's start for any bridge).
 */
export function seamCrossfade(item: AudioItem, seconds: number): SeamCrossfade | null {
  if (item.type === 'voice' || item.isLoop || !(seconds > 0)) return null;
  if (item.startTime > 0.01 || item.endTime < seconds - 0.01) return null;
  const x = round3(Math.min(MAX_CROSSFADE, seconds / 4, item.start));
  if (!(x >= 0.1)) return null;
  const end = round3(seconds);
  return {
    patch: { fadeOutTime: x, fadeInTime: 0 },
    bridge: { ...item, start: round3(item.start - x), end: item.start, startTime: round3(end - x), endTime: end, fadeInTime: x, fadeOutTime: 0, isLoop: false, scope: BRIDGE_SCOPE },
  };
}

/** The `scope` of a bridge item, so "make it loop" done twice lays one bridge. */
export const BRIDGE_SCOPE = 'loop-bridge';

/** The key of the crossfade transition (the one whose kind is OVERLAY). */
export const CROSSFADE = CATALOGUE.transitions.find((t) => t.kind === 'OVERLAY')?.key ?? 'OVERLAY';

/** How the last scene gives way to a closing copy of the opening one. */
export interface ClosingPlan {
  /** The last scene's new length, seconds. */
  lastLength: number;
  /** The closing copy's length, seconds (taken from the last scene: the document keeps its length). */
  closing: number;
  /** The crossfade from the last scene into the copy, seconds; it ends before the copy's end. */
  effectTime: number;
}

/**
 * The plan of "matching first/last frame": the last `closing` seconds of the last scene become a
 * copy of the opening scene, crossfaded in, so the loop's last picture is its first. Null with one
 * scene (its end already shows the opening scene) or a last scene too short to give time.
 */
export function closingPlan(scenes: ReadonlyArray<Pick<Scene, 'timeLength'>>): ClosingPlan | null {
  if (scenes.length < 2) return null;
  const last = scenes[scenes.length - 1]?.timeLength ?? 0;
  const closing = round3(Math.min(MAX_CLOSING, last / 3));
  if (!(closing >= 0.2)) return null;
  return { lastLength: round3(last - closing), closing, effectTime: closing };
}
