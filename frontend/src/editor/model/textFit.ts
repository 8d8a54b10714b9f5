/**
 * A text's box grows to hold its text (issue 23: a title broke inside a word, "铃/声", and ran out
 * of its box): as wide as its longest line, up to the stage's width, then as high as its lines
 * wrapped at that width. The stage and the renderer both wrap a text to its box's width, so a box
 * that holds the text shows the same lines in both. Pure: the caller measures.
 */
import type { TextLayer } from './gen/TextLayer';

/** Returns the width of one unwrapped line of text at the layer's font, in editing pixels. */
export type MeasureLine = (text: string) => number;

/** A box in editing pixels. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** Room kept around the text inside its box, editing pixels (the default text box keeps 10 above and below). */
export const TEXT_PAD = { x: 4, y: 10 } as const;
/** Share of the width kept spare: the browser's measure and the renderer's shaping differ a little. */
export const MEASURE_SLACK = 0.04;

/** The fields a text's fit reads. */
export type FitFields = Pick<TextLayer, 'content' | 'fontSize' | 'lineHeight' | 'x' | 'y' | 'w' | 'h'>;

/** One unbreakable piece of a line: a Latin word with its following spaces, or a single other character. */
function pieces(line: string): string[] {
  return line.match(/[A-Za-z0-9\u00C0-\u024F'’-]+\s*|\s+|./gsu) ?? [];
}

/** Returns how many lines `text` takes at `width`: its own lines, each broken between pieces where it runs over. */
export function lineCount(text: string, width: number, measure: MeasureLine): number {
  let count = 0;
  for (const line of text.split('\n')) {
    count += 1;
    let run = '';
    for (const piece of pieces(line)) {
      const next = run + piece;
      if (run !== '' && measure(next.trimEnd()) > width) {
        count += 1;
        run = piece.trimStart();
      } else {
        run = next;
      }
    }
  }
  return count;
}

/**
 * Returns the box that holds the text: never narrower or lower than it is, as wide as the longest
 * line (plus a little room) up to the stage's width, as high as the lines wrapped at that width,
 * grown about its centre and kept on the stage; null when the text already fits.
 */
export function fittedTextBox(layer: FitFields, measure: MeasureLine, stage: { width: number; height: number }): Box | null {
  const text = layer.content ?? '';
  const widest = Math.max(0, ...text.split('\n').map((l) => measure(l)));
  const wanted = Math.ceil(widest * (1 + MEASURE_SLACK) + 2 * TEXT_PAD.x);
  const w = Math.max(layer.w, Math.min(wanted, stage.width));
  const lines = lineCount(text, w - 2 * TEXT_PAD.x, (t) => measure(t) * (1 + MEASURE_SLACK));
  const h = Math.max(layer.h, Math.ceil(lines * layer.fontSize * (layer.lineHeight || 1)) + 2 * TEXT_PAD.y);
  if (w === layer.w && h === layer.h) return null;
  // Grown about its centre and kept on the stage; a box as large as the stage is centred on it.
  const place = (at: number, size: number, grown: number, room: number) =>
    grown >= room ? (room - grown) / 2 : Math.min(Math.max(at - (grown - size) / 2, 0), room - grown);
  return { x: Math.round(place(layer.x, layer.w, w, stage.width)), y: Math.round(place(layer.y, layer.h, h, stage.height)), w, h };
}

/**
 * A measure for when no canvas is at hand (tests, old browsers): a CJK or full-width character
 * one em wide, anything else 0.6 em, plus the letter spacing after each character.
 */
export function estimateMeasure(fontSize: number, letterSpacing = 0): MeasureLine {
  return (text) => {
    let width = 0;
    for (const ch of text) width += (/[\u1100-\u11FF\u2E80-\uA4CF\uAC00-\uD7AF\uF900-\uFAFF\uFE30-\uFE4F\uFF00-\uFF60\uFFE0-\uFFE6]/u.test(ch) ? 1 : 0.6) * fontSize + letterSpacing;
    return width;
  };
}
