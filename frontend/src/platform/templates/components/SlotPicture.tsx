import { PictureOutlined } from '@ant-design/icons';
import { useState } from 'react';

export interface SlotPictureProps {
  /** A picture slot's content or a chosen material's address. */
  src: string;
  alt: string;
  width?: number;
  height?: number;
}

/**
 * Returns whether the browser can open `src`: a same-origin path (the gateway's material files).
 * A slot may also hold a storage key (`t/{tenant}/…`), which only the render worker reads.
 */
export function isBrowserAddress(src: string): boolean {
  return src.startsWith('/') && !src.startsWith('//');
}

/** A picture slot's picture, small; an icon when it cannot be shown (a storage key, an expired address). */
export function SlotPicture({ src, alt, width = 64, height = 40 }: SlotPictureProps) {
  const [failed, setFailed] = useState<string | null>(null);
  const box = { width, height, borderRadius: 4, flex: 'none' } as const;
  if (!isBrowserAddress(src) || failed === src) {
    return (
      <span style={{ ...box, display: 'inline-flex', alignItems: 'center', justifyContent: 'center', background: '#f0f0f5' }} data-testid="slot-picture-none">
        <PictureOutlined style={{ color: '#bbb' }} aria-hidden />
      </span>
    );
  }
  return <img src={src} alt={alt} onError={() => setFailed(src)} style={{ ...box, objectFit: 'cover', background: '#f0f0f5' }} data-testid="slot-picture" />;
}
