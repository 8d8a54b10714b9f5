import { Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import type { AnimationInfo } from '@/editor/model/gen/AnimationInfo';
import { previewKeyframes } from '@/editor/playback/preview';
import { OfferEditor, type OfferSection } from './components/OfferEditor';

/** Size of a preview's frame, px (a 16:9 stage in small). */
const FRAME_W = 112;
const FRAME_H = 63;
/** How long one run of a preview lasts, ms (the editor's default animation length). */
const PREVIEW_MS = 1000;

/**
 * An animation played on a small box while the pointer rests on it, in a loop, with the stage's
 * own animation maths (`previewKeyframes`, as the editor's hover preview and the render).
 */
function AnimationPreview({ info }: { info: AnimationInfo }) {
  const { t } = useTranslation();
  const box = useRef<HTMLDivElement>(null);
  const running = useRef<Animation | null>(null);
  const stop = () => {
    running.current?.cancel();
    running.current = null;
  };
  const start = () => {
    const el = box.current;
    if (!el || typeof el.animate !== 'function') return;
    stop();
    running.current = el.animate(previewKeyframes(info, 0, FRAME_W, FRAME_H), { duration: PREVIEW_MS, iterations: Infinity });
  };
  useEffect(() => stop, []);
  return (
    <div
      title={t('maintain.offer.hover')}
      data-testid={`offer-preview-${info.key}`}
      onMouseEnter={start}
      onMouseLeave={stop}
      style={{ position: 'relative', width: FRAME_W, height: FRAME_H, overflow: 'hidden', background: '#f0f0f0', borderRadius: 4, cursor: 'pointer' }}
    >
      <div
        ref={box}
        style={{ position: 'absolute', left: FRAME_W * 0.25, top: FRAME_H * 0.25, width: FRAME_W * 0.5, height: FRAME_H * 0.5, background: '#5b3df5', borderRadius: 4 }}
      />
    </div>
  );
}

/** /eb-maintain/animation: which in and out animations the editor offers for new picks, and in which order. */
export function AnimationOfferPage() {
  const { t, i18n } = useTranslation();
  const zh = i18n.language.startsWith('zh');
  const sections: OfferSection<AnimationInfo>[] = [
    { id: 'in', title: t('editor.anim.in'), has: (a) => a.phase === 'in' },
    { id: 'out', title: t('editor.anim.out'), has: (a) => a.phase === 'out' },
  ];
  return (
    <div style={{ maxWidth: 1120, margin: '0 auto' }} data-testid="maintain-animation">
      <Typography.Title level={3} style={{ marginTop: 0 }}>
        {t('page.maintainAnimation')}
      </Typography.Title>
      <Typography.Paragraph type="secondary">{t('maintain.offer.animationIntro')}</Typography.Paragraph>
      <OfferEditor<AnimationInfo>
        catalogue="animation"
        entries={CATALOGUE.animations}
        sections={sections}
        name={(a) => (zh ? a.nameZh : a.nameEn)}
        preview={(a) => <AnimationPreview info={a} />}
        previewWidth={FRAME_W}
      />
    </div>
  );
}
