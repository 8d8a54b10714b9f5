import { PhoneFilled } from '@ant-design/icons';
import { useTranslation } from 'react-i18next';
import type { CSSProperties } from 'react';

export interface InCallChromeProps {
  /** The top band (caller name and number), percent of the frame's height. */
  safeTopPercent: number;
  /** The bottom band (answer and decline), percent of the frame's height. */
  safeBottomPercent: number;
  /** The caller's name shown at the top; a sample name when absent. */
  callerName?: string;
  /** The number shown under the name; a sample number when absent. */
  callerNumber?: string;
  /** Scales the drawing's text and buttons (1 for a frame about 270 px wide). */
  scale?: number;
}

const band = (edge: 'top' | 'bottom', percent: number): CSSProperties => ({
  position: 'absolute',
  left: 0,
  right: 0,
  [edge]: 0,
  height: `${percent}%`,
  border: '2px dashed rgba(255, 77, 79, 0.9)',
  background: 'rgba(255, 77, 79, 0.12)',
  boxSizing: 'border-box',
});

const label: CSSProperties = {
  position: 'absolute',
  right: 4,
  padding: '0 4px',
  borderRadius: 2,
  background: 'rgba(255, 77, 79, 0.9)',
  color: '#fff',
  whiteSpace: 'nowrap',
};

const shadow = '0 1px 3px rgba(0, 0, 0, 0.8)';

/**
 * An incoming-call screen drawn over a 9:16 frame: caller name and number at the top, answer and
 * decline at the bottom, and the profile's safe zones outlined and labelled with their share of the
 * height. It fills its positioned parent and lets the pointer through (the editor's stage stays editable).
 */
export function InCallChrome({ safeTopPercent, safeBottomPercent, callerName, callerNumber, scale = 1 }: InCallChromeProps) {
  const { t } = useTranslation();
  const font = (px: number) => Math.max(9, Math.round(px * scale));
  const button = (colour: string, rotate: number, text: string, testId: string) => (
    <div style={{ display: 'flex', flexDirection: 'column', alignItems: 'center', gap: 4 * scale }} data-testid={testId}>
      <div
        style={{
          width: 44 * scale,
          height: 44 * scale,
          borderRadius: '50%',
          background: colour,
          display: 'flex',
          alignItems: 'center',
          justifyContent: 'center',
          color: '#fff',
          fontSize: font(20),
        }}
      >
        <PhoneFilled rotate={rotate} />
      </div>
      <span style={{ color: '#fff', fontSize: font(11), textShadow: shadow }}>{text}</span>
    </div>
  );
  return (
    <div style={{ position: 'absolute', inset: 0, pointerEvents: 'none', overflow: 'hidden', zIndex: 100000 }} data-testid="in-call-chrome" aria-label={t('ring.preview.title')}>
      <div style={band('top', safeTopPercent)} data-testid="safe-zone-top" data-percent={safeTopPercent}>
        <span style={{ ...label, bottom: 2, fontSize: font(10) }}>{t('ring.preview.topZone', { percent: safeTopPercent })}</span>
      </div>
      <div style={band('bottom', safeBottomPercent)} data-testid="safe-zone-bottom" data-percent={safeBottomPercent}>
        <span style={{ ...label, top: 2, fontSize: font(10) }}>{t('ring.preview.bottomZone', { percent: safeBottomPercent })}</span>
      </div>
      <div style={{ position: 'absolute', top: `${safeTopPercent * 0.1}%`, left: 0, right: 0, textAlign: 'center', color: '#fff', textShadow: shadow, lineHeight: 1.25 }}>
        <div style={{ fontSize: font(11), opacity: 0.85 }}>{t('ring.preview.incoming')}</div>
        <div style={{ fontSize: font(20), fontWeight: 600 }} data-testid="caller-name">
          {callerName || t('ring.preview.sampleName')}
        </div>
        <div style={{ fontSize: font(12) }} data-testid="caller-number">
          {callerNumber || t('ring.preview.sampleNumber')}
        </div>
      </div>
      <div
        style={{
          position: 'absolute',
          bottom: `${safeBottomPercent * 0.1}%`,
          left: 0,
          right: 0,
          display: 'flex',
          justifyContent: 'space-around',
        }}
      >
        {button('#ff4d4f', 225, t('ring.preview.decline'), 'call-decline')}
        {button('#52c41a', 0, t('ring.preview.answer'), 'call-answer')}
      </div>
    </div>
  );
}
