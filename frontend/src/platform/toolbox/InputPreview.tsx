import { Typography } from 'antd';
import { useTranslation } from 'react-i18next';
import type { Material } from '@/api/material';
import { formatEta as formatClock } from '@/components/task/TaskProgress';
import type { TimeRange } from './params';

/** How the ranges on the bar read: kept (green), removed (red) or the one stretch used (purple). */
export type RangeTone = 'keep' | 'remove' | 'use';

const TONES: Record<RangeTone, string> = { keep: 'rgba(82, 196, 26, .55)', remove: 'rgba(255, 77, 79, .55)', use: 'rgba(91, 61, 245, .55)' };

export interface InputPreviewProps {
  material: Material;
  /** Stretches drawn on the bar under the player; none: no bar. */
  ranges?: readonly TimeRange[];
  tone?: RangeTone;
  /** The playhead, ms. */
  currentMs: number;
  onTime: (ms: number) => void;
}

/** The chosen input playing, with the stretches the options pick drawn on its timeline. */
export function InputPreview({ material, ranges = [], tone = 'use', currentMs, onTime }: InputPreviewProps) {
  const { t } = useTranslation();
  const durationMs = Math.round(material.duration * 1000);
  const share = (ms: number) => `${Math.min(100, Math.max(0, (ms / durationMs) * 100))}%`;
  const media =
    material.type === 'audio' ? (
      <audio controls src={material.url} style={{ width: '100%' }} onTimeUpdate={(e) => onTime(e.currentTarget.currentTime * 1000)} data-testid="input-player" />
    ) : (
      <video
        controls
        src={material.previewUrl || material.url}
        poster={material.coverUrl || undefined}
        style={{ width: '100%', maxHeight: 360, background: '#000', borderRadius: 8, display: 'block' }}
        onTimeUpdate={(e) => onTime(e.currentTarget.currentTime * 1000)}
        data-testid="input-player"
      />
    );
  return (
    <div data-testid="input-preview">
      {media}
      {ranges.length > 0 && durationMs > 0 ? (
        <div style={{ marginTop: 8 }}>
          <div
            style={{ position: 'relative', height: 18, background: '#f0f0f5', borderRadius: 4, overflow: 'hidden' }}
            role="img"
            aria-label={t('toolbox.preview.ranges')}
            data-testid="range-bar"
          >
            {ranges.map((r, i) => (
              <div
                // The bar mirrors the option rows, which are their places in the list.
                key={i}
                style={{ position: 'absolute', top: 0, bottom: 0, left: share(r.startMs), width: `calc(${share(r.endMs)} - ${share(r.startMs)})`, background: TONES[tone] }}
                data-testid="range-mark"
              />
            ))}
            <div style={{ position: 'absolute', top: 0, bottom: 0, left: share(currentMs), width: 2, background: '#1f1f1f' }} />
          </div>
          <Typography.Text type="secondary" style={{ fontSize: 12 }}>
            {formatClock(currentMs / 1000)} / {formatClock(durationMs / 1000)}
          </Typography.Text>
        </div>
      ) : null}
    </div>
  );
}
