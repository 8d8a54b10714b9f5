/**
 * Colour strings of the document: the TypeScript port of services/timeline/src/colour.rs.
 * Accepted, after trimming ASCII whitespace and ignoring ASCII case: #rgb, #rgba, #rrggbb,
 * #rrggbbaa, rgb(r, g, b), rgba(r, g, b, a) and transparent; channels clamp to 0..255 and round,
 * alpha clamps to 0..1 and becomes round(a · 255).
 */

/** Straight (not premultiplied) red, green, blue and alpha bytes. */
export type Rgba = [number, number, number, number];

/** ASCII whitespace only: JavaScript's trim() also removes Unicode spaces, which Rust keeps. */
const EDGE_SPACE = /^[ \t\n\f\r]+|[ \t\n\f\r]+$/g;

/** The plain decimals the Rust side reads; no nan, inf, hex or percentages. */
const NUMBER = /^[+-]?(\d+(\.\d*)?|\.\d+)(e[+-]?\d+)?$/;

const HEX = /^[0-9a-f]*$/;

function trim(s: string): string {
  return s.replace(EDGE_SPACE, '');
}

/** Lowercases ASCII letters only, as Rust's to_ascii_lowercase does. */
function asciiLower(s: string): string {
  return s.replace(/[A-Z]+/g, (m) => m.toLowerCase());
}

function channel(v: number): number {
  return Math.round(Math.min(Math.max(v, 0), 255));
}

function alpha(a: number): number {
  return channel(Math.min(Math.max(a, 0), 1) * 255);
}

function parseHex(hex: string): Rgba | null {
  if (!HEX.test(hex)) return null;
  const d = [...hex].map((c) => parseInt(c, 16));
  const short = (i: number): number => (d[i] ?? 0) * 17;
  const pair = (i: number): number => (d[i] ?? 0) * 16 + (d[i + 1] ?? 0);
  switch (d.length) {
    case 3:
      return [short(0), short(1), short(2), 255];
    case 4:
      return [short(0), short(1), short(2), short(3)];
    case 6:
      return [pair(0), pair(2), pair(4), 255];
    case 8:
      return [pair(0), pair(2), pair(4), pair(6)];
    default:
      return null;
  }
}

/** Returns the RGBA of a colour string, or null for "" or an unreadable value. */
export function parseColour(s: string): Rgba | null {
  const text = asciiLower(trim(s));
  if (text === 'transparent') return [0, 0, 0, 0];
  if (text.startsWith('#')) return parseHex(text.slice(1));
  // Like CSS, either name takes three or four arguments.
  const prefix = text.startsWith('rgba(') ? 'rgba(' : text.startsWith('rgb(') ? 'rgb(' : null;
  if (prefix === null || !text.endsWith(')')) return null;
  const parts = text
    .slice(prefix.length, -1)
    .split(',')
    .map((p) => trim(p));
  if (!parts.every((p) => NUMBER.test(p))) return null;
  const [r = 0, g = 0, b = 0, a] = parts.map(Number);
  if (parts.length === 3) return [channel(r), channel(g), channel(b), 255];
  if (parts.length === 4 && a !== undefined) return [channel(r), channel(g), channel(b), alpha(a)];
  return null;
}

/** Returns the RGB of a colour string (its alpha dropped), or the default when it is unreadable. */
export function rgbOr(s: string, fallback: [number, number, number]): [number, number, number] {
  const c = parseColour(s);
  return c ? [c[0], c[1], c[2]] : fallback;
}
