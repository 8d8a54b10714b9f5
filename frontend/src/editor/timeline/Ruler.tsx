/**
 * The ruler (spec platform §9): a canvas of small scales every 10 px and a long, labelled one every
 * 10 small ones, at the zoom level's seconds per long scale. The axis is at least 3800 px wide; the
 * canvas paints the part in view (a canvas as wide as a long document at the closest zoom would
 * pass the browser's size limit), following the scroll. Pressing or dragging on it scrubs.
 */
import { useEffect, useRef } from 'react';
import { RULER_HEIGHT, rulerTicks } from './timelineMath';

export interface RulerProps {
  level: number;
  /** The axis pixel at the canvas's left edge (the scroll offset). */
  from: number;
  /** Width in view, pixels. */
  width: number;
  /** Where the canvas sticks, pixels from the scroll view's left (after the label column). */
  stickyLeft: number;
  /** Scrub: the pointer's axis pixel, and whether the press goes on. */
  onScrub: (axisPx: number, down: boolean) => void;
}

/** Height of the tick band; the scene blocks lie under it. */
export const TICK_BAND = 22;

export function Ruler({ level, from, width, stickyLeft, onScrub }: RulerProps) {
  const ref = useRef<HTMLCanvasElement>(null);
  useEffect(() => {
    const canvas = ref.current;
    if (!canvas || width <= 0) return;
    const ctx = canvas.getContext('2d');
    if (!ctx) return;
    const dpr = window.devicePixelRatio || 1;
    canvas.width = Math.round(width * dpr);
    canvas.height = Math.round(RULER_HEIGHT * dpr);
    ctx.setTransform(dpr, 0, 0, dpr, 0, 0);
    ctx.clearRect(0, 0, width, RULER_HEIGHT);
    ctx.fillStyle = '#fafafa';
    ctx.fillRect(0, 0, width, RULER_HEIGHT);
    ctx.strokeStyle = '#bfbfbf';
    ctx.fillStyle = '#595959';
    ctx.font = '10px sans-serif';
    ctx.textBaseline = 'top';
    ctx.beginPath();
    for (const tick of rulerTicks(level, from, from + width)) {
      const x = Math.round(tick.x - from) + 0.5;
      ctx.moveTo(x, 0);
      ctx.lineTo(x, tick.long ? 10 : 5);
      if (tick.long) ctx.fillText(tick.label, x + 3, 10);
    }
    ctx.stroke();
  }, [level, from, width]);
  const axisPx = (e: React.PointerEvent) => e.clientX - e.currentTarget.getBoundingClientRect().left + from;
  return (
    <canvas
      ref={ref}
      data-testid="timeline-ruler"
      data-level={level}
      style={{ position: 'sticky', left: stickyLeft, display: 'block', width, height: RULER_HEIGHT, cursor: 'col-resize', touchAction: 'none' }}
      onPointerDown={(e) => {
        e.currentTarget.setPointerCapture(e.pointerId);
        onScrub(axisPx(e), true);
      }}
      onPointerMove={(e) => e.currentTarget.hasPointerCapture(e.pointerId) && onScrub(axisPx(e), true)}
      onPointerUp={(e) => onScrub(axisPx(e), false)}
      onPointerCancel={(e) => onScrub(axisPx(e), false)}
    />
  );
}
