/**
 * The make-element editor's drawing (spec editor-core §1 'A further editor makes art-word elements
 * and IVVR buttons'): an art word (text filled with a top-to-bottom gradient, an outline and a
 * shadow) or an IVVR button (the same text on a rounded, gradient-filled, bordered plate), drawn
 * with the Canvas 2D API into a transparent picture at twice its editing size. The picture is what
 * is saved and what the renderer draws, so the element looks the same everywhere.
 */

/** What an element is. */
export type ElementKind = 'artWord' | 'button';

/** An element's design, in editing pixels. */
export interface ElementSpec {
  kind: ElementKind;
  text: string;
  fontSize: number;
  bold: boolean;
  /** Text gradient, top to bottom. */
  color1: string;
  color2: string;
  /** Text outline ('' none) and its width outside the glyphs. */
  strokeColor: string;
  strokeWidth: number;
  /** Shadow ('' none), its blur and offset. */
  shadowColor: string;
  shadowBlur: number;
  shadowOffset: number;
  /** Button plate gradient (left to right), border and corner radius. */
  plate1: string;
  plate2: string;
  plateBorder: string;
  radius: number;
}

/** Pixels of the saved picture per editing pixel: crisp at the editor's 2× output sizes. */
export const ELEMENT_RESOLUTION = 2;

/** The element's defaults per kind. */
export function defaultSpec(kind: ElementKind, text: string): ElementSpec {
  return kind === 'artWord'
    ? { kind, text, fontSize: 64, bold: true, color1: '#fff3b0', color2: '#e0a100', strokeColor: '#7a4a00', strokeWidth: 3, shadowColor: '#00000080', shadowBlur: 6, shadowOffset: 4, plate1: '', plate2: '', plateBorder: '', radius: 0 }
    : { kind, text, fontSize: 36, bold: true, color1: '#ffffff', color2: '#ffffff', strokeColor: '', strokeWidth: 0, shadowColor: '#00000066', shadowBlur: 8, shadowOffset: 3, plate1: '#ff8a00', plate2: '#e52e71', plateBorder: '#ffffff', radius: 40 };
}

/** The element's lines: the text split at newlines, never none. */
export function linesOf(text: string): string[] {
  const lines = text.split('\n');
  return lines.length > 0 ? lines : [''];
}

/** Room around the drawing for the outline and the shadow, editing pixels. */
function margin(s: ElementSpec): number {
  const shadow = s.shadowColor ? s.shadowBlur + Math.abs(s.shadowOffset) : 0;
  return Math.ceil(s.strokeWidth + shadow + 4);
}

/** The picture's size in editing pixels for text lines `widths` wide: the text block, the plate's padding for a button, the margin. */
export function elementSize(s: ElementSpec, widths: number[]): { w: number; h: number; pad: number } {
  const lineHeight = s.fontSize * 1.25;
  const textW = Math.max(1, ...widths);
  const textH = lineHeight * Math.max(1, widths.length);
  const pad = s.kind === 'button' ? Math.round(s.fontSize * 0.9) : 0;
  const m = margin(s);
  return { w: Math.ceil(textW + 2 * pad + 2 * m), h: Math.ceil(textH + (s.kind === 'button' ? pad : 0) + 2 * m), pad };
}

/** The part of CanvasRenderingContext2D the drawing uses (tests pass a recorder). */
export type Ctx2D = Pick<
  CanvasRenderingContext2D,
  | 'font'
  | 'textAlign'
  | 'textBaseline'
  | 'lineJoin'
  | 'lineWidth'
  | 'fillStyle'
  | 'strokeStyle'
  | 'shadowColor'
  | 'shadowBlur'
  | 'shadowOffsetX'
  | 'shadowOffsetY'
  | 'measureText'
  | 'fillText'
  | 'strokeText'
  | 'createLinearGradient'
  | 'beginPath'
  | 'roundRect'
  | 'fill'
  | 'stroke'
  | 'clearRect'
  | 'setTransform'
>;

/** The CSS font of the element's text in `family`. */
export function fontOf(s: ElementSpec, family: string): string {
  return `${s.bold ? 700 : 400} ${s.fontSize}px ${family}`;
}

/** Draws the element into a context already sized to `elementSize` × `ELEMENT_RESOLUTION`. */
export function drawElement(ctx: Ctx2D, s: ElementSpec, family: string, size: { w: number; h: number; pad: number }): void {
  ctx.setTransform(ELEMENT_RESOLUTION, 0, 0, ELEMENT_RESOLUTION, 0, 0);
  ctx.clearRect(0, 0, size.w, size.h);
  const m = margin(s);
  const shadow = (on: boolean) => {
    ctx.shadowColor = on && s.shadowColor ? s.shadowColor : 'transparent';
    ctx.shadowBlur = on ? s.shadowBlur : 0;
    ctx.shadowOffsetX = on ? s.shadowOffset : 0;
    ctx.shadowOffsetY = on ? s.shadowOffset : 0;
  };
  if (s.kind === 'button') {
    const plate = ctx.createLinearGradient(m, 0, size.w - m, 0);
    plate.addColorStop(0, s.plate1 || '#ffffff');
    plate.addColorStop(1, s.plate2 || s.plate1 || '#ffffff');
    ctx.beginPath();
    ctx.roundRect(m, m, size.w - 2 * m, size.h - 2 * m, Math.min(s.radius, (size.h - 2 * m) / 2));
    shadow(true);
    ctx.fillStyle = plate;
    ctx.fill();
    shadow(false);
    if (s.plateBorder) {
      ctx.lineWidth = 3;
      ctx.strokeStyle = s.plateBorder;
      ctx.stroke();
    }
  }
  const lines = linesOf(s.text);
  const lineHeight = s.fontSize * 1.25;
  const top = (size.h - lineHeight * lines.length) / 2;
  ctx.font = fontOf(s, family);
  ctx.textAlign = 'center';
  ctx.textBaseline = 'middle';
  ctx.lineJoin = 'round';
  const fill = ctx.createLinearGradient(0, top, 0, top + lineHeight * lines.length);
  fill.addColorStop(0, s.color1);
  fill.addColorStop(1, s.color2 || s.color1);
  lines.forEach((line, i) => {
    const y = top + lineHeight * (i + 0.5);
    // The outline first (under the fill), carrying the shadow on an art word; the fill on top.
    shadow(s.kind === 'artWord');
    if (s.strokeColor && s.strokeWidth > 0) {
      ctx.lineWidth = 2 * s.strokeWidth;
      ctx.strokeStyle = s.strokeColor;
      ctx.strokeText(line, size.w / 2, y);
      shadow(false);
    }
    ctx.fillStyle = fill;
    ctx.fillText(line, size.w / 2, y);
    shadow(false);
  });
}
