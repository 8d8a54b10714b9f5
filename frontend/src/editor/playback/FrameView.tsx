/**
 * The stage while playing or scrubbing: the frame of the document under the playhead. Each scene
 * shows the layers whose range covers its time, animated (in/out animations, continuous motions);
 * under a transition both scenes show, combined as the transition's composite says; videos play in
 * step with the clock.
 */
import { memo, useRef } from 'react';
import { blurCss, catalogueFilterCss, joinFilters, adjustmentsCss } from '@/editor/model/filterCss';
import type { Layer } from '@/editor/model/gen/Layer';
import type { Rule } from '@/editor/model/gen/Rule';
import type { Scene } from '@/editor/model/gen/Scene';
import type { Timeline } from '@/editor/model/gen/Timeline';
import { LayerView } from '@/editor/page/LayerView';
import { useMaterialInfo } from '@/api/material';
import { backgroundId, StageBackground } from '@/editor/page/SceneBackground';
import { sliderToGain } from '@/editor/model/volume';
import { planeCss, pixelateBlur } from './compositeCss';
import { secondsOf } from '@/editor/model/time';
import { frameAtTime, frameRateOf, frameViewAt, shownLayers, type ShownLayer } from './frame';
import { animatedCss } from './layerCss';
import { VideoCanvas } from './VideoCanvas';
import { backgroundTime, cutRange, sourceTime, useMediaSync } from './useMediaSync';

const noop = () => undefined;

/** A video layer in step with the clock; muted when `noAudio`, else at its volume (the browser's at most 1). */
function SyncedVideo({ layer, local, lead, playing, fps, scale }: { layer: Layer & { type: 'video' }; local: number; lead: number; playing: boolean; fps: number; scale: number }) {
  const ref = useRef<HTMLVideoElement>(null);
  const [start, end] = cutRange(layer);
  const target = sourceTime(local + lead - layer.startTime, start, end, fps);
  useMediaSync(ref, target, playing, fps);
  return (
    <div id={`component${String(layer.id)}`} className="rf-layer rf-frame-layer" data-id={String(layer.id)} data-type="video" style={{ position: 'absolute', left: layer.x * scale, top: layer.y * scale, width: layer.w * scale, height: layer.h * scale, transform: layer.rotate ? `rotate(${layer.rotate}deg)` : undefined }}>
      <VideoCanvas
        videoRef={ref}
        src={layer.videoSrc}
        muted={layer.noAudio}
        fit="contain"
        width={layer.w * scale}
        height={layer.h * scale}
        target={target}
        testId="frame-video"
        onLoadedMetadata={(e) => {
          e.currentTarget.volume = Math.min(1, sliderToGain(layer.volume));
        }}
        style={{ filter: joinFilters(adjustmentsCss(layer.brightness, layer.contrast, layer.saturation)) }}
      />
    </div>
  );
}

/** A scene's background clip playing its range, looped, in step with the clock; a picture or GIF as the stage draws it. */
function PlayingBackground({ scene, local, lead, playing, fps, scale, width, height }: { scene: Scene; local: number; lead: number; playing: boolean; fps: number; scale: number; width: number; height: number }) {
  const ref = useRef<HTMLVideoElement>(null);
  const m = useMaterialInfo(backgroundId(scene)).data;
  const video = m?.type === 'video' && Boolean(m.url);
  useMediaSync(ref, video ? backgroundTime(scene.range, local + lead, m?.duration ?? 0) : null, playing, fps);
  if (!video) return <StageBackground scene={scene} scale={scale} />;
  return (
    <VideoCanvas
      videoRef={ref}
      src={m?.url}
      muted
      fit={scene.bgFit === 'cover' ? 'cover' : 'contain'}
      width={width}
      height={height}
      testId="frame-background"
      style={{ filter: blurCss(scene.bgBlur * scale) }}
    />
  );
}

interface SceneFrameProps {
  scene: Scene;
  local: number;
  /**
   * Seconds the playing clock is past the start of the frame shown (0 paused or scrubbing): media
   * follow the clock itself, as the music does, not the frame's start, which trails it by up to a
   * frame and made the videos look ahead and be slowed.
   */
  lead: number;
  scale: number;
  /** Editing pixels to output pixels times the stage scale: the blur radii of filters. */
  outputPx: number;
  width: number;
  height: number;
  playing: boolean;
  fps: number;
}

function AnimatedLayer({ shown, scale, width, height, local, lead, playing, fps }: { shown: ShownLayer; scale: number; width: number; height: number; local: number; lead: number; playing: boolean; fps: number }) {
  const { layer, state } = shown;
  const { outer, inner, content } = animatedCss(state, { x: layer.x * scale, y: layer.y * scale, w: layer.w * scale, h: layer.h * scale, stageW: width, stageH: height });
  return (
    <div style={{ ...outer, zIndex: layer.z }} data-frame-layer={String(layer.id)}>
      <div style={inner}>
        <div style={content}>
          {layer.type === 'video' ? <SyncedVideo layer={layer} local={local} lead={lead} playing={playing} fps={fps} scale={scale} /> : <StillLayer layer={layer} scale={scale} />}
        </div>
      </div>
    </div>
  );
}

/** A layer drawn as the editing stage draws it, without its handles' pointer. */
const StillLayer = memo(function StillLayer({ layer, scale }: { layer: Layer; scale: number }) {
  return <LayerView layer={layer} scale={scale} editing={false} flagged={false} onEditEnd={noop} />;
});

/**
 * One scene at one of its times: background, its layers, its filter and canvas blur. The scene is
 * its own stacking context (`isolation`): its layers' z-indices order them within the scene only,
 * so under a transition the incoming scene's plane covers all of the outgoing one, as the engine
 * composites whole frames (without it a plane with no transform or mask let its layers rise above
 * the other plane).
 */
function SceneFrame({ scene, local, lead, scale, outputPx, width, height, playing, fps }: SceneFrameProps) {
  const filter = joinFilters([...catalogueFilterCss(scene.visualFilter, outputPx), blurCss(scene.canvasBlur * scale)]);
  return (
    <div data-testid="frame-scene" data-scene-id={String(scene.frontendId)} style={{ position: 'absolute', inset: 0, background: scene.bgColor, overflow: 'hidden', filter, isolation: 'isolate' }}>
      <PlayingBackground scene={scene} local={local} lead={lead} playing={playing} fps={fps} scale={scale} width={width} height={height} />
      {shownLayers(scene, local).map((s) => (
        <AnimatedLayer key={String(s.layer.id)} shown={s} scale={scale} width={width} height={height} local={local} lead={lead} playing={playing} fps={fps} />
      ))}
    </div>
  );
}

export interface FrameViewProps {
  doc: Rule;
  /** The document's frame plan (`timelineOf(doc)`), made once per document change. */
  timeline: Timeline;
  time: number;
  playing: boolean;
  scale: number;
  outputPx: number;
}

/** The frame under the playhead, filling the stage. */
export function FrameView({ doc, timeline, time, playing, scale, outputPx }: FrameViewProps) {
  const view = frameViewAt(timeline, time);
  if (!view) return null;
  const fps = frameRateOf(doc).num;
  const width = doc.resolutionRatio.width * scale;
  const height = doc.resolutionRatio.height * scale;
  const lead = playing ? Math.max(0, time - secondsOf(timeline.rate, frameAtTime(timeline, time))) : 0;
  const common = { scale, outputPx, width, height, playing, fps, lead };
  if (view.kind === 'scene') {
    const scene = doc.scenes[view.at.scene];
    return scene ? (
      <div data-testid="frame-view" data-time={time.toFixed(3)} style={{ position: 'absolute', inset: 0 }}>
        <SceneFrame scene={scene} local={view.at.local} {...common} />
      </div>
    ) : null;
  }
  const { composite } = view;
  const plane = (which: 'a' | 'b') => (which === 'a' ? view.from : view.to);
  const blur = pixelateBlur(composite, width);
  const layerOf = (p: typeof composite.bottom) => {
    const at = plane(p.which);
    const scene = doc.scenes[at.scene];
    return scene ? (
      <div key={p.which} style={{ position: 'absolute', inset: 0, ...planeCss(p, width, height) }}>
        <SceneFrame scene={scene} local={at.local} {...common} />
      </div>
    ) : null;
  };
  return (
    <div data-testid="frame-view" data-time={time.toFixed(3)} data-transition={view.progress.toFixed(3)} style={{ position: 'absolute', inset: 0, background: '#000', filter: blur > 0 ? `blur(${blur.toFixed(2)}px)` : undefined }}>
      {layerOf(composite.bottom)}
      {layerOf(composite.top)}
      {composite.flash.alpha > 0 && <div style={{ position: 'absolute', inset: 0, background: `rgb(${composite.flash.rgb.join(',')})`, opacity: composite.flash.alpha }} />}
    </div>
  );
}
