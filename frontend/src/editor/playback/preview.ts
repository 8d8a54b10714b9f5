/**
 * The animation pickers' hover preview: the animation played on the layer's own element on the
 * stage with the Web Animations API (looping while the pointer rests on an entry), sampled from the
 * shared animation maths, so the preview moves as the render will.
 */
import { animationState } from '@/editor/model/animation';
import type { AnimationInfo } from '@/editor/model/gen/AnimationInfo';
import type { Id } from '@/editor/model/gen/Id';
import { previewKeyframe } from './layerCss';

/** Samples per preview; the browser interpolates between them. */
const SAMPLES = 24;
/** Shortest preview, seconds (a zero-length animation would not show). */
const MIN_PREVIEW = 0.3;

/** Returns the keyframes of an animation for an element on a stage of that size. */
export function previewKeyframes(info: AnimationInfo, rotate: number, stageW: number, stageH: number): Keyframe[] {
  return Array.from({ length: SAMPLES + 1 }, (_, i) => previewKeyframe(animationState(info, i / SAMPLES), rotate, stageW, stageH));
}

/** Plays an animation on a stage layer until the returned stop is called; nothing when the layer is not on the stage. */
export function previewOnStage(id: Id, rotate: number, info: AnimationInfo, seconds: number): () => void {
  const el = document.getElementById(`component${String(id)}`);
  const stage = document.getElementById('editor');
  if (!el || !stage || typeof el.animate !== 'function') return () => undefined;
  const animation = el.animate(previewKeyframes(info, rotate, stage.clientWidth, stage.clientHeight), {
    duration: Math.max(seconds, MIN_PREVIEW) * 1000,
    iterations: Infinity,
  });
  return () => animation.cancel();
}
