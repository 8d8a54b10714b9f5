/**
 * Subtitles from an SRT file (issue 16, spec editor-core §5): the file is untrusted input, so the
 * parser answers cues or an error naming the line, never anything else. Cues become caption layers
 * placed on the scenes they fall in.
 */

/** One cue: seconds on the document, and its text (lines joined by newlines, tags removed). */
export interface Cue {
  start: number;
  end: number;
  text: string;
}

/** A file that is not SRT, with the line (1-based) where reading stopped. */
export class SrtError extends Error {
  constructor(
    readonly line: number,
    readonly reason: string,
  ) {
    super(`line ${line}: ${reason}`);
    this.name = 'SrtError';
  }
}

/** The longest file read (a subtitle file of hours is a few hundred KB). */
export const SRT_MAX_CHARS = 2_000_000;
/** Spec §5: a subtitle's end is shaved by 50 ms, so two cues never touch. */
export const SUBTITLE_END_SHAVE_S = 0.05;
/** A piece shorter than this (after shaving or splitting at a scene's end) is not placed. */
export const MIN_SUBTITLE_S = 0.1;

const TIME = /^(\d{1,3}):([0-5]?\d):([0-5]?\d)[,.](\d{1,3})$/;
const ARROW = /^\s*(\S+)\s*-->\s*(\S+)(?:\s.*)?$/;

function seconds(text: string, line: number): number {
  const m = TIME.exec(text);
  if (!m) throw new SrtError(line, `"${text.slice(0, 40)}" is not a time like 00:01:02,500`);
  const [, h, min, s, ms] = m as unknown as [string, string, string, string, string];
  return Number(h) * 3600 + Number(min) * 60 + Number(s) + Number(ms.padEnd(3, '0')) / 1000;
}

/** Reads an SRT file: blocks of an optional index, a `start --> end` line and text lines. */
export function parseSrt(input: string): Cue[] {
  if (input.length > SRT_MAX_CHARS) throw new SrtError(1, `the file is longer than ${SRT_MAX_CHARS} characters`);
  const lines = input.replace(/^\uFEFF/, '').split(/\r\n|\r|\n/);
  const cues: Cue[] = [];
  let i = 0;
  while (i < lines.length) {
    while (i < lines.length && (lines[i] as string).trim() === '') i += 1;
    if (i >= lines.length) break;
    // The index line is optional; a timing line is what starts a cue.
    if (/^\d+$/.test((lines[i] as string).trim()) && i + 1 < lines.length && ARROW.test(lines[i + 1] as string)) i += 1;
    const timing = ARROW.exec(lines[i] as string);
    if (!timing) throw new SrtError(i + 1, 'expected a timing line "start --> end"');
    const start = seconds(timing[1] as string, i + 1);
    const end = seconds(timing[2] as string, i + 1);
    if (end <= start) throw new SrtError(i + 1, 'the cue ends before it starts');
    i += 1;
    const text: string[] = [];
    while (i < lines.length && (lines[i] as string).trim() !== '') {
      text.push((lines[i] as string).replace(/<[^>]*>/g, '').replace(/\{\\[^}]*\}/g, '').trim());
      i += 1;
    }
    const joined = text.filter((t) => t !== '').join('\n');
    if (joined !== '') cues.push({ start, end, text: joined });
  }
  if (cues.length === 0) throw new SrtError(1, 'no subtitle found');
  return cues.sort((a, b) => a.start - b.start);
}

/** A subtitle placed on a scene: times from the scene's start. */
export interface PlacedSubtitle {
  scene: number;
  start: number;
  end: number;
  text: string;
}

/**
 * Places cues on scenes of `sceneLengths` (seconds): each end shaved by 50 ms, a cue past the
 * document's end dropped (the maximum duration, spec §5), one that crosses a scene's end split
 * into a piece per scene. Answers the pieces and how many cues were dropped.
 */
export function placeSubtitles(sceneLengths: readonly number[], cues: readonly Cue[]): { placed: PlacedSubtitle[]; dropped: number } {
  const starts: number[] = [];
  let total = 0;
  for (const len of sceneLengths) {
    starts.push(total);
    total += len;
  }
  const placed: PlacedSubtitle[] = [];
  let dropped = 0;
  for (const cue of cues) {
    const end = Math.min(cue.end - SUBTITLE_END_SHAVE_S, total);
    if (cue.start >= total || end - cue.start < MIN_SUBTITLE_S) {
      dropped += 1;
      continue;
    }
    sceneLengths.forEach((len, scene) => {
      const from = Math.max(cue.start, starts[scene] as number);
      const to = Math.min(end, (starts[scene] as number) + len);
      if (to - from >= MIN_SUBTITLE_S) {
        const at = starts[scene] as number;
        placed.push({ scene, start: round(from - at), end: round(to - at), text: cue.text });
      }
    });
  }
  return { placed, dropped };
}

/** Times kept to the millisecond, as the file gives them. */
function round(s: number): number {
  return Math.round(s * 1000) / 1000;
}
