/**
 * The layer's in- and out-animations (spec editor-core §3 'Animations'): each catalogue entry is
 * an effect (fade, move, bounce, wipe) with its direction list; a pick sets `motionIn` or
 * `motionOut` to the catalogue key and the length (`inTime` / `outTime`). Resting the pointer on an
 * effect or a direction plays it on the layer on the stage. New picks follow the tenant's animation
 * offer (`/eb-maintain/animation`): hidden animations are not offered, except the one the layer has.
 */
import { Button, InputNumber, Space, Tooltip, Typography } from 'antd';
import { useEffect, useRef } from 'react';
import { useTranslation } from 'react-i18next';
import { offerRows, useCatalogueOffer, type OfferItem } from '@/api/catalogueOffer';
import { findAnimation } from '@/editor/model/catalogue';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import type { AnimationEffect } from '@/editor/model/gen/AnimationEffect';
import type { AnimationInfo } from '@/editor/model/gen/AnimationInfo';
import type { AnimationPhase } from '@/editor/model/gen/AnimationPhase';
import type { Direction } from '@/editor/model/gen/Direction';
import type { Layer } from '@/editor/model/gen/Layer';
import type { LayerPatch } from '@/editor/state/editorSlice';
import { previewOnStage } from '@/editor/playback/preview';
import { layerSpan } from '@/editor/timeline/timelineMath';
import { useEditorSelector } from '@/editor/page/useEditor';
import { selectCurrentScene } from '@/editor/state/selectors';

/** Length an animation gets when first picked, seconds (spec: in/out time default 1). */
export const DEFAULT_ANIMATION_TIME = 1;

/** One entry of a phase: an effect and the catalogue keys of its directions (one, without direction, for a fade). */
export interface AnimationEntry {
  effect: AnimationEffect;
  directions: AnimationInfo[];
}

/**
 * Returns the entries of a phase: in catalogue order, or with the tenant's `offer` only the offered
 * animations in its order (an effect where its first offered direction stands, its directions in
 * the offer's order). `keep` (the layer's current animation) is listed even when hidden: a layer
 * keeps what it uses, the offer only narrows new picks.
 */
export function animationEntries(phase: AnimationPhase, offer?: OfferItem[], keep?: string): AnimationEntry[] {
  const ofPhase = CATALOGUE.animations.filter((a) => a.phase === phase);
  const shown = offerRows(ofPhase, offer).filter((r) => r.offered || (keep !== undefined && keep !== '' && r.entry.key === keep));
  const out: AnimationEntry[] = [];
  for (const { entry: a } of shown) {
    const entry = out.find((e) => e.effect === a.effect);
    if (entry) entry.directions.push(a);
    else out.push({ effect: a.effect, directions: [a] });
  }
  return out;
}

const ARROWS: Record<Direction, string> = { left: '←', right: '→', up: '↑', down: '↓' };

/** Plays an animation on the stage while the pointer rests on its control. */
function usePreview(layer: Layer) {
  const stop = useRef<() => void>(() => undefined);
  useEffect(() => () => stop.current(), []);
  return {
    start: (info: AnimationInfo, seconds: number) => {
      stop.current();
      stop.current = previewOnStage(layer.id, layer.rotate, info, seconds);
    },
    end: () => {
      stop.current();
      stop.current = () => undefined;
    },
  };
}

function PhaseField({ layer, phase, set }: { layer: Layer; phase: AnimationPhase; set: (c: LayerPatch) => void }) {
  const { t, i18n } = useTranslation();
  const zh = i18n.language.startsWith('zh');
  const scene = useEditorSelector(selectCurrentScene);
  const preview = usePreview(layer);
  const key = phase === 'in' ? layer.motionIn : layer.motionOut;
  const time = phase === 'in' ? layer.inTime : layer.outTime;
  const current = findAnimation(key ?? '');
  const picked = current?.phase === phase ? current : undefined;
  const [s, e] = layerSpan(layer, scene.timeLength);
  const seconds = time > 0 ? time : DEFAULT_ANIMATION_TIME;
  const choose = (info: AnimationInfo | null) => {
    const length = time > 0 ? time : Math.min(DEFAULT_ANIMATION_TIME, Math.max(e - s, 0.1));
    if (phase === 'in') set({ motionIn: info?.key ?? '', inTime: info ? length : time });
    else set({ motionOut: info?.key ?? '', outTime: info ? length : time });
  };
  const offer = useCatalogueOffer('animation').data?.items;
  const entries = animationEntries(phase, offer, picked?.key);
  const entry = entries.find((x) => x.effect === picked?.effect);
  const tid = `anim-${phase}`;
  return (
    <div data-testid={tid} style={{ marginBottom: 8 }}>
      <Typography.Text type="secondary">{t(phase === 'in' ? 'editor.anim.in' : 'editor.anim.out')}</Typography.Text>
      {picked && (
        <Typography.Text data-testid={`${tid}-name`} style={{ marginLeft: 8 }}>
          {zh ? picked.nameZh : picked.nameEn}
        </Typography.Text>
      )}
      <Tooltip title={t('editor.anim.hover')} placement="left" mouseEnterDelay={1}>
        <div style={{ display: 'flex', flexWrap: 'wrap', gap: 4, margin: '4px 0' }}>
          <Button size="small" type={picked ? 'default' : 'primary'} data-testid={`${tid}-none`} onClick={() => choose(null)}>
            {t('editor.anim.none')}
          </Button>
          {entries.map((en) => {
            const first = en.directions.find((d) => d.direction === picked?.direction) ?? en.directions[0];
            return (
              <Button
                key={en.effect}
                size="small"
                type={picked?.effect === en.effect ? 'primary' : 'default'}
                data-testid={`${tid}-effect-${en.effect}`}
                onMouseEnter={() => first && preview.start(first, seconds)}
                onMouseLeave={preview.end}
                onClick={() => first && choose(first)}
              >
                {t(`editor.anim.effect.${en.effect}`)}
              </Button>
            );
          })}
        </div>
      </Tooltip>
      {entry && entry.directions.length > 1 && (
        <Space size={4} style={{ marginBottom: 4 }}>
          <Typography.Text type="secondary">{t('editor.anim.direction')}</Typography.Text>
          {entry.directions.map((d) => (
            <Button
              key={d.key}
              size="small"
              type={d.key === picked?.key ? 'primary' : 'default'}
              aria-label={zh ? d.nameZh : d.nameEn}
              title={zh ? d.nameZh : d.nameEn}
              data-testid={`${tid}-dir-${d.direction ?? ''}`}
              onMouseEnter={() => preview.start(d, seconds)}
              onMouseLeave={preview.end}
              onClick={() => choose(d)}
            >
              {d.direction ? ARROWS[d.direction] : ''}
            </Button>
          ))}
        </Space>
      )}
      {picked && (
        <Space size={4}>
          <Typography.Text type="secondary">{t(phase === 'in' ? 'editor.anim.inTime' : 'editor.anim.outTime')}</Typography.Text>
          <InputNumber
            size="small"
            aria-label={t(phase === 'in' ? 'editor.anim.inTime' : 'editor.anim.outTime')}
            data-testid={`${tid}-time`}
            min={0.1}
            max={Math.max(0.1, e - s)}
            step={0.1}
            value={time}
            style={{ width: 80 }}
            onChange={(v) => typeof v === 'number' && set(phase === 'in' ? { inTime: v } : { outTime: v })}
          />
        </Space>
      )}
    </div>
  );
}

/** The animation section of a layer's properties. */
export function AnimationFields({ layer, set }: { layer: Layer; set: (c: LayerPatch) => void }) {
  return (
    <>
      <PhaseField layer={layer} phase="in" set={set} />
      <PhaseField layer={layer} phase="out" set={set} />
    </>
  );
}
