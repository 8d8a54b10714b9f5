import { useEffect, useRef, useState, type PointerEvent } from 'react';
import { useTranslation } from 'react-i18next';
import { boxBetween, type InputFacts, type PixelBox } from '../params';

export interface FrameBoxProps {
  /** The video the frame is taken from. */
  src: string;
  /** The picture's size in source pixels (the box's units). */
  input: Pick<InputFacts, 'width' | 'height'>;
  /** The box drawn on the frame, or null for none. */
  box: PixelBox | null;
  /** Where in the video the frame is, ms (the preview's playhead). */
  atMs: number;
  /** Called with the box a drag draws, live; absent: the frame only shows the box. */
  onDraw?: (box: PixelBox) => void;
  /** How the box reads: the box to erase, or where the server looks for captions. */
  tone?: 'erase' | 'search';
  testId?: string;
}

const TONES = {
  erase: { border: '2px solid #ff4d4f', background: 'rgba(255, 77, 79, .25)' },
  search: { border: '2px dashed #5b3df5', background: 'rgba(91, 61, 245, .12)' },
};

/**
 * A frame of the chosen video at the playhead with a box drawn over it where the numbers say, in
 * source pixels (so the frame may be shown at any size); a drag on the frame draws a new box.
 */
export function FrameBox({ src, input, box, atMs, onDraw, tone = 'erase', testId = 'frame-box' }: FrameBoxProps) {
  const { t } = useTranslation();
  const video = useRef<HTMLVideoElement>(null);
  const [from, setFrom] = useState<{ x: number; y: number } | null>(null);

  useEffect(() => {
    const v = video.current;
    if (v && Number.isFinite(atMs)) v.currentTime = atMs / 1000;
  }, [atMs, src]);

  const share = (v: number, of: number) => `${of > 0 ? (v / of) * 100 : 0}%`;
  // The pointer's place in source pixels.
  const at = (e: PointerEvent<HTMLDivElement>) => {
    const r = e.currentTarget.getBoundingClientRect();
    return { x: ((e.clientX - r.left) / Math.max(1, r.width)) * input.width, y: ((e.clientY - r.top) / Math.max(1, r.height)) * input.height };
  };
  const drawing = onDraw && input.width > 0 && input.height > 0;

  return (
    <div
      style={{
        position: 'relative',
        width: '100%',
        aspectRatio: input.width > 0 && input.height > 0 ? `${input.width} / ${input.height}` : '16 / 9',
        background: '#000',
        borderRadius: 8,
        overflow: 'hidden',
        cursor: drawing ? 'crosshair' : 'default',
        touchAction: 'none',
        userSelect: 'none',
      }}
      role="img"
      aria-label={t('toolbox.preview.frameBox')}
      data-testid={testId}
      onPointerDown={(e) => {
        if (!drawing) return;
        e.currentTarget.setPointerCapture(e.pointerId);
        setFrom(at(e));
      }}
      onPointerMove={(e) => {
        if (drawing && from) onDraw(boxBetween(from, at(e), input));
      }}
      onPointerUp={(e) => {
        if (drawing && from) onDraw(boxBetween(from, at(e), input));
        setFrom(null);
      }}
    >
      <video ref={video} src={src} muted preload="auto" playsInline style={{ width: '100%', height: '100%', display: 'block', objectFit: 'fill', pointerEvents: 'none' }} />
      {box ? (
        <div
          style={{
            position: 'absolute',
            left: share(box.x, input.width),
            top: share(box.y, input.height),
            width: share(box.width, input.width),
            height: share(box.height, input.height),
            boxSizing: 'border-box',
            pointerEvents: 'none',
            ...TONES[tone],
          }}
          data-testid={`${testId}-box`}
        />
      ) : null}
    </div>
  );
}
