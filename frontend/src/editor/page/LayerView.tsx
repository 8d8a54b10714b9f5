/** One layer drawn on the stage as DOM (text stays crisp and selectable): `component{id}` with its handle `component-help{id}`. */
import { memo, useEffect, useId, useMemo, useRef, type CSSProperties } from 'react';
import { useAppSelector } from '@/app/hooks';
import { DEFAULT_FAMILY, familyFace, styleFlags, useFontFace, useFonts, type FaceState } from '@/editor/fonts/fonts';
import { useMaterialInfo } from '@/api/material';
import { ArtWordBody } from '@/editor/artword/ArtWordBody';
import type { ArtWordLayer } from '@/editor/model/gen/ArtWordLayer';
import type { Layer } from '@/editor/model/gen/Layer';
import type { PictureLayer } from '@/editor/model/gen/PictureLayer';
import type { TextLayer } from '@/editor/model/gen/TextLayer';
import type { VideoLayer } from '@/editor/model/gen/VideoLayer';
import { frameRateOf } from '@/editor/playback/frame';
import { usePlaybackPart } from '@/editor/playback/usePlayback';
import { cutRange, sourceTime, useMediaSync } from '@/editor/playback/useMediaSync';
import { selectCurrentSceneStart } from '@/editor/state/selectors';
import { textBoxStyle } from './textBoxStyle';
import { useEditorSelector } from './useEditor';
import { adjustmentsCss, blurCss, catalogueFilterCss, joinFilters } from '@/editor/model/filterCss';
import { shapeDrawing, shapeOutline } from '@/editor/model/shape';
import { shapeImageUrl } from '@/editor/model/shapeSvg';

/** How much of a layer shows while the paused playhead is outside its time. */
const FAINT = 0.3;

export interface LayerViewProps {
  layer: Layer;
  /** Stage scale: editing pixels to screen pixels. */
  scale: number;
  /** The layer's text is being edited in place. */
  editing: boolean;
  /** The server named a problem in this layer. */
  flagged: boolean;
  onEditEnd: (content: string) => void;
  /** The paused playhead is outside the layer's time: drawn faint (the frame there does not show it). */
  faint?: boolean;
}

/** Draws a shape's drawing (`shapeDrawing`: its `shapeCode`, a rectangle's at its size and radius) painted as the renderer paints it, or, without one, its basic kind's outline (`model/shape.ts`, the renderer's). */
function ShapeSvg({ layer }: { layer: Layer & { type: 'shape' } }) {
  const { w, h } = layer;
  const gradientId = `shape-fill-${useId().replace(/[^\w-]/g, '')}`;
  const src = useMemo(() => {
    const drawing = shapeDrawing(layer.shape, layer.shapeCode ?? '', layer.svgStyleType, layer.w, layer.h, layer.borderRadius);
    return drawing === null ? null : shapeImageUrl({ ...layer, shapeCode: drawing });
  }, [layer]);
  if (src !== null) return <img src={src} alt="" draggable={false} data-testid="shape-svg" style={{ display: 'block', width: '100%', height: '100%' }} />;
  // The renderer's fill of an outline: a gradient from the box's top-left to its bottom-right corner
  // (two colours), one colour, or the plain fill.
  const gradient = layer.fillType === 'gradient' ? layer.gradientColors.filter((c) => c.trim() !== '') : [];
  const fill = gradient.length >= 2 ? `url(#${gradientId})` : layer.fillType === 'gradient' ? (gradient[0] ?? 'none') : layer.fill || 'none';
  const common = { fill, stroke: layer.stroke || 'none', strokeWidth: layer.strokeWidth, vectorEffect: 'non-scaling-stroke' as const };
  const outline = shapeOutline(layer.shape, w, h);
  let body;
  switch (outline.kind) {
    case 'ellipse':
      body = <ellipse cx={w / 2} cy={h / 2} rx={w / 2} ry={h / 2} {...common} />;
      break;
    case 'polygon':
      body = <polygon points={outline.points.map(([x, y]) => `${x},${y}`).join(' ')} {...common} />;
      break;
    case 'line':
      body = <line x1={0} y1={h / 2} x2={w} y2={h / 2} stroke={layer.stroke || layer.fill || '#ffffff'} strokeWidth={Math.max(1, layer.strokeWidth)} vectorEffect="non-scaling-stroke" />;
      break;
    default:
      body = <rect x={0} y={0} width={w} height={h} rx={layer.borderRadius} {...common} />;
  }
  return (
    <svg viewBox={`0 0 ${w} ${h}`} preserveAspectRatio="none" width="100%" height="100%" style={{ display: 'block', overflow: 'visible' }}>
      {gradient.length >= 2 ? (
        <defs>
          <linearGradient id={gradientId} gradientUnits="userSpaceOnUse" x1={0} y1={0} x2={w} y2={h}>
            <stop offset={0} stopColor={gradient[0]} />
            <stop offset={1} stopColor={gradient[1]} />
          </linearGradient>
        </defs>
      ) : null}
      {body}
    </svg>
  );
}

/**
 * The family a text is drawn in and where its face stands. The face is the file of the family the
 * renderer draws this weight and slant from (`familyFace`), registered with that file's own style:
 * an italic text of a family with an Italic file is drawn from it, and one without is slanted by the
 * browser, never a Regular file taken for italic. Without a library font the renderer draws the text
 * in its default family: that family's system font file is loaded for it too.
 */
function useTextFace(layer: TextLayer): { family: string; face: FaceState } {
  const library = layer.fontId !== undefined && layer.fontId !== '';
  const userId = useAppSelector((s) => s.user.id) ?? '';
  const fonts = useFonts(userId);
  // A saved document may leave bold or italic out.
  const bold = Boolean(layer.bold);
  const italic = Boolean(layer.italic);
  const name = library ? layer.fontFamily : DEFAULT_FAMILY;
  const listed = familyFace(fonts.data ?? [], name, bold, italic, !library);
  // A library font the list does not show is drawn from the file the layer names; nothing is loaded
  // before the list says which file (a face is registered once per file).
  const fileId = fonts.isLoading ? undefined : (listed?.id ?? (library ? String(layer.fontId) : undefined));
  const flags = listed ? styleFlags(listed.style) : { bold, italic };
  const face = useFontFace(fileId, name, flags.bold, flags.italic);
  const family = layer.fontFamily ? `"${layer.fontFamily}", "${DEFAULT_FAMILY}"` : `"${DEFAULT_FAMILY}"`;
  return { family, face: fonts.isLoading ? 'loading' : face };
}

/**
 * A text laid out as the renderer lays it out (`compose/text.rs`): wrapped to the box width, lines
 * of fontSize × lineHeight with the glyphs centred in each (the CSS line box and cosmic-text agree
 * on that), the block centred vertically in the box and overflowing it evenly; the outline drawn
 * under the fill, as wide outside the glyph as the renderer's. It is laid out at the document's own
 * size and scaled to the stage as a whole: the browser puts each line's baseline on a whole pixel
 * of the size it lays out at, which at a stage's fractional font sizes (38 px for 40 at scale 0.95)
 * put every line up to a pixel and a half higher than the video (issue 33).
 */
function TextBody({ layer, scale, editing, onEditEnd }: { layer: TextLayer; scale: number; editing: boolean; onEditEnd: (c: string) => void }) {
  const ref = useRef<HTMLDivElement>(null);
  const { family, face } = useTextFace(layer);
  useEffect(() => {
    const el = ref.current;
    if (!editing || !el) return;
    el.focus({ preventScroll: true });
    const range = document.createRange();
    range.selectNodeContents(el);
    const sel = window.getSelection();
    sel?.removeAllRanges();
    sel?.addRange(range);
  }, [editing]);
  const outline = layer.borderWidth > 0 && layer.borderColor;
  const style: CSSProperties = {
    ...textBoxStyle(layer, 1, family),
    color: layer.color,
    WebkitTextStroke: outline ? `${2 * layer.borderWidth}px ${layer.borderColor}` : undefined,
    paintOrder: outline ? 'stroke fill' : undefined,
    outline: 'none',
    cursor: editing ? 'text' : 'inherit',
  };
  return (
    <div style={{ width: '100%', height: '100%', background: layer.bgFillColor || undefined }}>
      <div style={{ width: layer.w, height: layer.h, transform: `scale(${scale})`, transformOrigin: '0 0', display: 'flex', flexDirection: 'column', justifyContent: 'center' }}>
        <div
          ref={ref}
          style={style}
          contentEditable={editing}
          suppressContentEditableWarning
          data-testid="layer-text"
          data-font={face}
          onBlur={(e) => editing && onEditEnd(e.currentTarget.innerText)}
          onKeyDown={(e) => {
            if (e.key === 'Escape') e.currentTarget.blur();
            e.stopPropagation();
          }}
        >
          {layer.content}
        </div>
      </div>
    </div>
  );
}

/** An art word in the face its text names (see `artword/ArtWordBody.tsx`). */
function ArtWordText({ layer, scale }: { layer: ArtWordLayer; scale: number }) {
  const { family, face } = useTextFace(layer);
  return <ArtWordBody layer={layer} scale={scale} family={family} face={face} />;
}

function Body({ layer, scale, editing, onEditEnd }: Omit<LayerViewProps, 'flagged'>) {
  switch (layer.type) {
    case 'word':
    case 'dynamicWord':
      return <TextBody layer={layer} scale={scale} editing={editing} onEditEnd={onEditEnd} />;
    case 'shape':
      return (
        <div
          style={{
            width: '100%',
            height: '100%',
            filter: layer.shadowColor ? `drop-shadow(${layer.shadowSetX * scale}px ${layer.shadowSetY * scale}px ${(layer.shadowBlur * scale) / 2}px ${layer.shadowColor})` : undefined,
          }}
        >
          <ShapeSvg layer={layer} />
        </div>
      );
    case 'artWord':
      return <ArtWordText layer={layer} scale={scale} />;
    case 'specialEffects':
      // The renderer draws an effect as a picture at its defaults, cropped to its box's ratio.
      return <img src={layer.src} alt="" draggable={false} style={{ display: 'block', width: '100%', height: '100%', objectFit: 'cover' }} />;
    case 'picture':
    case 'gif':
      return layer.maskClip > 0 ? <MaskedPicture layer={layer} scale={scale} /> : <Picture layer={layer} scale={scale} />;
    case 'video':
      return <StageVideo layer={layer} />;
    case 'group':
      return (
        <>
          {[...layer.attachList]
            .sort((a, b) => a.z - b.z)
            .map((m) => (
              <div key={String(m.id)} style={boxStyle(m, scale)}>
                <Body layer={m} scale={scale} editing={false} onEditEnd={() => undefined} />
              </div>
            ))}
        </>
      );
    default:
      return null;
  }
}

/**
 * A picture with its opacity, radius, mirror, catalogue filter, blur and border, masked by `mask` (an
 * image address) when given. As the renderer draws it (`image::round_and_border`), the picture fills
 * the whole box and the border lies over its edge, unmasked.
 */
function Picture({ layer, scale, mask }: { layer: PictureLayer; scale: number; mask?: string }) {
  const border = layer.borderWidth > 0 && layer.borderColor ? `${layer.borderWidth * scale}px solid ${layer.borderColor}` : undefined;
  const radius = layer.borderRadius * scale;
  const masked: CSSProperties = mask
    ? { maskImage: `url("${mask}")`, maskSize: '100% 100%', WebkitMaskImage: `url("${mask}")`, WebkitMaskSize: '100% 100%' }
    : {};
  return (
    <div style={{ position: 'relative', width: '100%', height: '100%', opacity: layer.opacity }}>
      <div style={{ width: '100%', height: '100%', borderRadius: radius, overflow: 'hidden', ...masked }}>
        <img
          src={layer.src}
          alt=""
          draggable={false}
          style={{
            display: 'block',
            width: '100%',
            height: '100%',
            // The renderer crops a picture to its box's ratio (`image::cover`) rather than stretching it.
            objectFit: 'cover',
            transform: layer.mirror ? 'scaleX(-1)' : undefined,
            filter: joinFilters([...catalogueFilterCss(layer.filter, scale), blurCss(layer.blur * scale)]),
          }}
        />
      </div>
      {border && <div data-testid="picture-border" style={{ position: 'absolute', inset: 0, boxSizing: 'border-box', border, borderRadius: radius, pointerEvents: 'none' }} />}
    </div>
  );
}

/** A picture masked by the mask material `maskClip` names (its signed address from the library). */
function MaskedPicture({ layer, scale }: { layer: PictureLayer; scale: number }) {
  const mask = useMaterialInfo(String(layer.maskClip));
  return <Picture layer={layer} scale={scale} mask={mask.data?.url} />;
}

function boxStyle(layer: Layer, scale: number): CSSProperties {
  return {
    position: 'absolute',
    left: layer.x * scale,
    top: layer.y * scale,
    width: layer.w * scale,
    height: layer.h * scale,
    transform: layer.rotate ? `rotate(${layer.rotate}deg)` : undefined,
  };
}

/** A layer on the stage. */
export const LayerView = memo(function LayerView({ layer, scale, editing, flagged, onEditEnd, faint = false }: LayerViewProps) {
  const id = String(layer.id);
  return (
    <div
      id={`component${id}`}
      className="rf-layer"
      data-id={id}
      data-type={layer.type}
      data-slot={layer.canModify === 1 ? 1 : undefined}
      data-faint={faint || undefined}
      style={{ ...boxStyle(layer, scale), zIndex: layer.z, outline: flagged ? '2px solid #ff4d4f' : undefined, opacity: faint ? FAINT : undefined }}
    >
      <Body layer={layer} scale={scale} editing={editing} onEditEnd={onEditEnd} />
      {!editing && <div id={`component-help${id}`} className="rf-layer-help" data-id={id} style={{ position: 'absolute', inset: 0, cursor: layer.isLock ? 'not-allowed' : 'move' }} />}
    </div>
  );
});

/**
 * A clip on the editing stage: the frame under the paused playhead (a layer before its start shows
 * its first frame, one past its cut's end its last), as the renderer draws that time.
 */
function StageVideo({ layer }: { layer: VideoLayer }) {
  const ref = useRef<HTMLVideoElement>(null);
  const sceneStart = useEditorSelector(selectCurrentSceneStart);
  const fps = useEditorSelector((s) => frameRateOf(s.doc).num);
  const time = usePlaybackPart((s) => s.time);
  const [start, end] = cutRange(layer);
  useMediaSync(ref, sourceTime(time - sceneStart - layer.startTime, start, end, fps), false, fps);
  return (
    <video
      ref={ref}
      src={layer.videoSrc}
      muted
      preload="auto"
      data-testid="stage-video"
      style={{ width: '100%', height: '100%', objectFit: 'contain', filter: joinFilters(adjustmentsCss(layer.brightness, layer.contrast, layer.saturation)) }}
    />
  );
}
