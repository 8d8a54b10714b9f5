import type { ReactNode } from 'react';
import { InCallChrome, type InCallChromeProps } from './InCallChrome';

export interface InCallPreviewProps extends InCallChromeProps {
  /** What the caller sees: the finished video, or any 9:16 drawing. */
  children: ReactNode;
  /** The screen's width, px (its height is 16/9 of it). */
  width?: number;
}

/**
 * A phone showing an incoming call over `children` in its 9:16 screen, with the caller's name and
 * number, answer and decline, and the safe zones outlined (the in-call preview).
 */
export function InCallPreview({ children, width = 240, ...chrome }: InCallPreviewProps) {
  const bezel = Math.round(width * 0.04);
  return (
    <div
      data-testid="in-call-preview"
      style={{ display: 'inline-block', padding: bezel, borderRadius: bezel * 4, background: '#111', boxShadow: '0 4px 16px rgba(0, 0, 0, 0.3)' }}
    >
      <div style={{ position: 'relative', width, height: (width * 16) / 9, borderRadius: bezel * 2, overflow: 'hidden', background: '#000' }}>
        <div style={{ position: 'absolute', inset: 0, display: 'flex', alignItems: 'center', justifyContent: 'center' }}>{children}</div>
        <InCallChrome {...chrome} scale={width / 270} />
      </div>
    </div>
  );
}

/** The finished video for the in-call preview: muted, looping, filling the 9:16 screen's width or height. */
export function PreviewVideo({ src, poster }: { src: string; poster?: string }) {
  return <video src={src} poster={poster} muted loop autoPlay playsInline data-testid="in-call-video" style={{ width: '100%', height: '100%', objectFit: 'contain' }} />;
}
