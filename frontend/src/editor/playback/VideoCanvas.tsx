/**
 * A playing clip shown through a canvas. Headless Chromium without a GPU halves the page's frame
 * rate as soon as two `<video>` elements show at once (31 fps for two bare videos on an empty page,
 * 60 for one: docs/benchmarks.md, "Playback"); the same clips drawn into canvases from hidden
 * `<video>` elements keep 60. The hidden element still decodes, plays, carries the sound and is
 * kept on the clock by `useMediaSync`; each frame it presents (`requestVideoFrameCallback`), and
 * each seek while paused, is drawn into the canvas with the clip's fit.
 */
import { useEffect, useRef, type CSSProperties, type RefObject } from 'react';

/** How a clip fills its box: whole inside it, or covering it. */
export type Fit = 'contain' | 'cover';

/** Returns the rectangle [x, y, w, h] a clip of size vw×vh is drawn at in a box of cw×ch, centred. */
export function fitRect(vw: number, vh: number, cw: number, ch: number, fit: Fit): [number, number, number, number] {
  if (vw <= 0 || vh <= 0) return [0, 0, cw, ch];
  const s = fit === 'cover' ? Math.max(cw / vw, ch / vh) : Math.min(cw / vw, ch / vh);
  const [w, h] = [vw * s, vh * s];
  return [(cw - w) / 2, (ch - h) / 2, w, h];
}

/** Draws every frame the video presents, and the frame a seek or load shows, into the canvas. */
function useDrawFrames(video: RefObject<HTMLVideoElement | null>, canvas: RefObject<HTMLCanvasElement | null>, fit: Fit, width: number, height: number): void {
  useEffect(() => {
    const v = video.current;
    const c = canvas.current;
    const ctx = c?.getContext('2d');
    if (!v || !c || !ctx) return;
    const dpr = window.devicePixelRatio || 1;
    c.width = Math.max(1, Math.round(width * dpr));
    c.height = Math.max(1, Math.round(height * dpr));
    const draw = () => {
      if (v.readyState < 2) return;
      ctx.clearRect(0, 0, c.width, c.height);
      ctx.drawImage(v, ...fitRect(v.videoWidth, v.videoHeight, c.width, c.height, fit));
    };
    let handle: number | null = null;
    const onFrame = () => {
      draw();
      handle = v.requestVideoFrameCallback(onFrame);
    };
    if (typeof v.requestVideoFrameCallback === 'function') handle = v.requestVideoFrameCallback(onFrame);
    v.addEventListener('seeked', draw);
    v.addEventListener('loadeddata', draw);
    draw();
    return () => {
      if (handle !== null) v.cancelVideoFrameCallback(handle);
      v.removeEventListener('seeked', draw);
      v.removeEventListener('loadeddata', draw);
    };
  }, [video, canvas, fit, width, height]);
}

export interface VideoCanvasProps {
  /** The element the clock drives (`useMediaSync`). */
  videoRef: RefObject<HTMLVideoElement | null>;
  src: string | undefined;
  muted: boolean;
  fit: Fit;
  /** The box in CSS pixels. */
  width: number;
  height: number;
  /** The canvas's look (filters); it fills its box. */
  style?: CSSProperties;
  testId: string;
  target?: number | null;
  onLoadedMetadata?: (e: React.SyntheticEvent<HTMLVideoElement>) => void;
}

/** A clip playing into a canvas of its box, from a hidden `<video>` (the one tests and the clock read). */
export function VideoCanvas({ videoRef, src, muted, fit, width, height, style, testId, target, onLoadedMetadata }: VideoCanvasProps) {
  const canvasRef = useRef<HTMLCanvasElement>(null);
  useDrawFrames(videoRef, canvasRef, fit, width, height);
  return (
    <>
      <video ref={videoRef} src={src} muted={muted} preload="auto" data-target={target == null ? undefined : target.toFixed(3)} data-testid={testId} onLoadedMetadata={onLoadedMetadata} style={{ display: 'none' }} />
      <canvas ref={canvasRef} data-testid={`${testId}-canvas`} style={{ position: 'absolute', inset: 0, width: '100%', height: '100%', pointerEvents: 'none', ...style }} />
    </>
  );
}
