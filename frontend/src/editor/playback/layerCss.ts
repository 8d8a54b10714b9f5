/**
 * A layer's animated state (`model/animation.ts` `layerState`) written as CSS, as the renderer
 * draws it (`engine/draw.rs` `draw_layer`): moved by offsets in frame lengths, scaled about the box
 * centre, faded, and clipped to the visible part of its unrotated box from one edge.
 */
import type { CSSProperties } from 'react';
import type { LayerState } from '@/editor/model/gen/LayerState';

/** A layer's box on a stage, in screen pixels. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
  stageW: number;
  stageH: number;
}

/** Returns the clip of a state as a CSS inset of the layer's box (its visible part from the edge), or undefined when whole. */
export function clipInset(state: LayerState): string | undefined {
  const f = Math.min(Math.max(state.clip.fraction, 0), 1);
  if (f >= 1) return undefined;
  const cut = `${+((1 - f) * 100).toFixed(2)}%`;
  return `inset(${{ left: `0 ${cut} 0 0`, right: `0 0 0 ${cut}`, top: `0 0 ${cut} 0`, bottom: `${cut} 0 0 0` }[state.clip.edge]})`;
}

/**
 * Returns the styles of the three wrappers of an animated layer. The outer one covers the layer's
 * box and moves, fades and clips it; the inner one scales it about the box centre; the content one
 * puts the stage's origin back under the layer, which places itself in stage pixels. Box-sized, not
 * stage-sized: twenty stage-sized wrappers cost the browser twenty stage-sized surfaces a frame.
 */
export function animatedCss(state: LayerState, box: Box): { outer: CSSProperties; inner: CSSProperties; content: CSSProperties } {
  const dx = state.offsetX * box.stageW;
  const dy = state.offsetY * box.stageH;
  return {
    outer: {
      position: 'absolute',
      left: box.x,
      top: box.y,
      width: box.w,
      height: box.h,
      pointerEvents: 'none',
      transform: dx !== 0 || dy !== 0 ? `translate(${+dx.toFixed(2)}px, ${+dy.toFixed(2)}px)` : undefined,
      opacity: state.opacity < 1 ? state.opacity : undefined,
      clipPath: clipInset(state),
    },
    inner: {
      position: 'absolute',
      inset: 0,
      transform: state.scale !== 1 ? `scale(${+state.scale.toFixed(4)})` : undefined,
    },
    content: { position: 'absolute', left: -box.x, top: -box.y },
  };
}

/**
 * Returns a Web Animations keyframe of a state for the layer's own element (the hover preview):
 * offsets in screen pixels, its rotation kept, the clip in the element's own box.
 */
export function previewKeyframe(state: LayerState, rotate: number, stageW: number, stageH: number): Keyframe {
  return {
    transform: `translate(${+(state.offsetX * stageW).toFixed(2)}px, ${+(state.offsetY * stageH).toFixed(2)}px) rotate(${rotate}deg) scale(${state.scale})`,
    opacity: state.opacity,
    clipPath: clipInset(state) ?? 'inset(0 0 0 0)',
  };
}
