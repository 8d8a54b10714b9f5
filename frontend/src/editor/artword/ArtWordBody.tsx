/**
 * An art word on the stage, painted in the renderer's order (`compose/text.rs`): the shadow, the
 * strokes widest first, then the fill, each a copy of the same text laid out as a text layer is;
 * blur and alpha over the whole. The gradient spans the text block top to bottom, as the
 * renderer's does (0 to the block's height), because the fill copy's box is that block.
 */
import type { CSSProperties } from 'react';
import type { ArtWordLayer } from '@/editor/model/gen/ArtWordLayer';
import { blurCss } from '@/editor/model/filterCss';
import type { FaceState } from '@/editor/fonts/fonts';
import { textBoxStyle } from '@/editor/page/textBoxStyle';
import { artWordPaint, SHADOW_OFFSET } from './artWords';

/** `family` and `face`: the CSS family the text is drawn in and where its face stands (the stage's text faces). */
export function ArtWordBody({ layer, scale, family, face }: { layer: ArtWordLayer; scale: number; family: string; face: FaceState }) {
  const paint = artWordPaint(layer);
  const text = textBoxStyle(layer, scale, family);
  const under: CSSProperties = { ...text, position: 'absolute', inset: 0, color: 'transparent' };
  const fill: CSSProperties =
    'gradient' in paint.fill
      ? { ...text, position: 'relative', color: 'transparent', background: `linear-gradient(to bottom, ${paint.fill.gradient[0]}, ${paint.fill.gradient[1]})`, WebkitBackgroundClip: 'text', backgroundClip: 'text' }
      : { ...text, position: 'relative', color: paint.fill.solid };
  return (
    <div style={{ width: '100%', height: '100%', display: 'flex', flexDirection: 'column', justifyContent: 'center', background: layer.bgFillColor || undefined }}>
      <div style={{ position: 'relative', opacity: paint.opacity, filter: blurCss(layer.blur * scale) }} data-testid="layer-artword" data-font={face}>
        {paint.shadow && (
          <div aria-hidden style={{ ...under, color: paint.shadow, transform: `translate(${SHADOW_OFFSET * scale}px, ${SHADOW_OFFSET * scale}px)` }}>
            {layer.content}
          </div>
        )}
        {paint.strokes.map((s, i) => (
          <div key={i} aria-hidden style={{ ...under, WebkitTextStroke: `${2 * s.width * scale}px ${s.color}` }}>
            {layer.content}
          </div>
        ))}
        <div style={fill}>{layer.content}</div>
      </div>
    </div>
  );
}
