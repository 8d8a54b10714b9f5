/**
 * Art words (spec editor-core §3 'Art word adds'): the styles the material panel offers, the
 * layer a pick makes, and how the renderer paints one (`engine/prepare.rs` `art_word`,
 * `compose/text.rs` `rasterise`), which the stage follows: the fill is the top-to-bottom gradient
 * color1 → color2 over the text block when both are colours, else `fillColor`, else the text
 * colour; the borders (`border1`, `border2`, and the text's own outline) are strokes reaching
 * their width outside the glyphs, widest underneath; the shadow is the glyphs filled in
 * `shadowColor` 3 editing pixels right and down; then `blur` and `alpha` (0–255) over the whole.
 */
import type { ArtBorder } from '@/editor/model/gen/ArtBorder';
import type { ArtWordLayer } from '@/editor/model/gen/ArtWordLayer';
import type { ArtWordStyle } from '@/editor/model/gen/ArtWordStyle';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import type { Layer } from '@/editor/model/gen/Layer';
import type { ResolutionRatio } from '@/editor/model/gen/ResolutionRatio';

/** Width of a border given as a bare colour, editing pixels (`art_border::DEFAULT_BORDER_WIDTH`). */
export const DEFAULT_BORDER_WIDTH = 2;
/** The shadow's offset right and down, editing pixels (the renderer's fixed 3). */
export const SHADOW_OFFSET = 3;
/** Size of a new art word's text, editing pixels. */
export const ART_WORD_SIZE = 48;

/** A border as the document keeps it, and the look of an art word the panel offers (generated from the server's catalogue). */
export type { ArtBorder } from '@/editor/model/gen/ArtBorder';
export type { ArtWordStyle } from '@/editor/model/gen/ArtWordStyle';

/**
 * The panel's art-word styles, from the server's catalogue (`catalogue/art_words.rs`), which the
 * tenant's offer names (the server's library has no art-word materials: uploads are typed by their file).
 */
export const ART_WORD_STYLES: ArtWordStyle[] = CATALOGUE.artWords;

/** Whether the renderer reads `c` as a colour (`colour::parse`: #rgb, #rgba, #rrggbb, #rrggbbaa, rgb(), rgba(), transparent). */
export function isColour(c: unknown): c is string {
  if (typeof c !== 'string') return false;
  const s = c.trim().toLowerCase();
  if (s === 'transparent') return true;
  if (/^#([0-9a-f]{3}|[0-9a-f]{4}|[0-9a-f]{6}|[0-9a-f]{8})$/.test(s)) return true;
  return /^rgba?\(\s*[-\d.]+%?\s*(,\s*[-\d.]+%?\s*){2,3}\)$/.test(s);
}

/** A `border1`/`border2` value as the renderer reads it (`art_border::read`), or null when it draws nothing. */
export function readBorder(v: unknown): ArtBorder | null {
  let color: unknown;
  let width = DEFAULT_BORDER_WIDTH;
  if (typeof v === 'string') color = v;
  else if (v !== null && typeof v === 'object') {
    const o = v as { color?: unknown; width?: unknown };
    color = o.color;
    const w = typeof o.width === 'number' ? o.width : typeof o.width === 'string' && o.width.trim() !== '' ? Number(o.width.trim()) : NaN;
    if (Number.isFinite(w)) width = w;
  } else return null;
  return isColour(color) && width > 0 ? { color, width } : null;
}

/** How an art word is painted, in editing pixels. */
export interface ArtWordPaint {
  fill: { gradient: [string, string] } | { solid: string };
  /** Strokes, widest first; each reaches `width` outside the glyph edge. */
  strokes: ArtBorder[];
  shadow: string | null;
  opacity: number;
}

/** The paint of an art word as `prepare.rs` `art_word` builds it. */
export function artWordPaint(l: ArtWordLayer): ArtWordPaint {
  const text = l.reqColor || l.color;
  const fill = isColour(l.color1) && isColour(l.color2) ? { gradient: [l.color1, l.color2] as [string, string] } : { solid: isColour(l.fillColor) ? l.fillColor : isColour(text) ? text : '#ffffff' };
  const strokes: ArtBorder[] = [];
  if (l.borderWidth > 0 && isColour(l.borderColor)) strokes.push({ color: l.borderColor, width: l.borderWidth });
  const b1 = readBorder(l.border1);
  const b2 = readBorder(l.border2);
  // With both borders the second lies outside the first: stroked at their summed width beneath it.
  if (b1 && b2) strokes.push({ color: b2.color, width: b1.width + b2.width }, b1);
  else if (b1 ?? b2) strokes.push((b1 ?? b2) as ArtBorder);
  strokes.sort((a, b) => b.width - a.width);
  return { fill, strokes, shadow: isColour(l.shadowColor) ? l.shadowColor : null, opacity: Math.min(1, Math.max(0, l.alpha / 255)) };
}

/** The art-word fields of a new layer in `style`, on top of a text layer's fields. */
export function artWordFields(s: ArtWordStyle): Pick<ArtWordLayer, 'color1' | 'color2' | 'fillColor' | 'border1' | 'border2' | 'shadowColor'> {
  return { color1: s.color1, color2: s.color2, fillColor: s.fillColor, border1: s.border1 ?? '', border2: s.border2 ?? '', shadowColor: s.shadowColor };
}

/** A new art word from a text layer built at the defaults: bigger, bold, centred on the stage, in `style`. */
export function artWordLayer(text: Layer & { type: 'word' }, s: ArtWordStyle, stage: ResolutionRatio): Layer {
  const h = Math.ceil(ART_WORD_SIZE * text.lineHeight) + 20;
  const w = Math.min(stage.width, Math.max(text.w, stage.width * 0.6));
  return {
    ...text,
    type: 'artWord',
    x: (stage.width - w) / 2,
    y: (stage.height - h) / 2,
    w,
    h,
    fontSize: ART_WORD_SIZE,
    bold: true,
    businessType: '',
    borderType: '',
    thickness: 0,
    blur: 0,
    spot: 0,
    spotX: 0,
    spotY: 0,
    artRenderType: '',
    backgroundSrc: '',
    alpha: 255,
    ...artWordFields(s),
  };
}
