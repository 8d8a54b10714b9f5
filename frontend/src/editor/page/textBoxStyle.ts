/** The CSS of a text block laid out as the renderer lays it out (`compose/text.rs`), shared by text and art-word layers. */
import type { CSSProperties } from 'react';
import type { TextLayer } from '@/editor/model/gen/TextLayer';
import { CATALOGUE } from '@/editor/model/gen/catalogue';

/** The fields of a layer that lay its text out. */
export type TextBoxFields = Pick<TextLayer, 'fontSize' | 'lineHeight' | 'bold' | 'italic' | 'underline' | 'strikeThrough' | 'textAlign' | 'letterSpacing'>;

/** Returns the block's CSS: wrapped to the box width, lines of fontSize × lineHeight, at the stage's scale, in `family`. */
export function textBoxStyle(layer: TextBoxFields, scale: number, family: string): CSSProperties {
  return {
    width: '100%',
    fontSize: layer.fontSize * scale,
    fontFamily: family,
    lineHeight: layer.lineHeight,
    fontWeight: layer.bold ? 700 : 400,
    fontStyle: layer.italic ? 'italic' : 'normal',
    textDecoration: [layer.underline && 'underline', layer.strikeThrough && 'line-through'].filter(Boolean).join(' ') || 'none',
    // The renderer's lines (the catalogue's `text`): a fixed offset puts the underline's top edge
    // that far below the baseline, where the browser's own would sit by the font's metrics.
    textUnderlineOffset: `${CATALOGUE.text.underlineOffsetEm}em`,
    textDecorationThickness: decorationThickness(layer.fontSize) * scale,
    // The renderer's line is one solid bar; the browser's default breaks it around descenders.
    textDecorationSkipInk: 'none',
    textAlign: (layer.textAlign || 'center') as CSSProperties['textAlign'],
    letterSpacing: layer.letterSpacing * scale,
    whiteSpace: 'pre-wrap',
    // Lines break at spaces and punctuation, inside a run of CJK letters only when it is longer
    // than the line: what the renderer does with word joiners (compose/text.rs `keep_words`).
    wordBreak: 'keep-all',
    overflowWrap: 'anywhere',
  };
}

/** A decoration line's thickness in video pixels at `fontSize`, as the renderer draws it. */
export function decorationThickness(fontSize: number): number {
  const rules = CATALOGUE.text;
  return Math.max(fontSize * rules.decorationThicknessEm, rules.decorationMinPx);
}
