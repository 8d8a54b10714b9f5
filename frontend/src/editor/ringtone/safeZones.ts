/**
 * The in-call safe zones (docs/ringtone.md "Delivery profiles"): the bands at the top (caller name
 * and number) and the bottom (answer and decline) of the incoming-call screen, and the layers of a
 * document whose boxes reach into them. Pure: the editor's warning list and its tests read it.
 */
import type { Layer } from '@/editor/model/gen/Layer';
import type { Rule } from '@/editor/model/gen/Rule';

/** A band of the incoming-call screen. */
export type SafeZone = 'top' | 'bottom';

/** The bands' heights, percent of the frame's height (the profile's `safeTopPercent`, `safeBottomPercent`). */
export interface SafeZonePercents {
  top: number;
  bottom: number;
}

/** The layer kinds a caller must be able to see: texts, art words and pictures. */
export const WATCHED_KINDS: ReadonlySet<Layer['type']> = new Set(['word', 'dynamicWord', 'artWord', 'picture', 'gif']);

/** A layer that reaches into a band. */
export interface ZoneHit {
  sceneIndex: number;
  layer: Layer;
  zones: SafeZone[];
}

/** An axis-aligned box. */
export interface Box {
  left: number;
  top: number;
  right: number;
  bottom: number;
}

/** Returns the box a layer covers, its rotation about its centre included. */
export function layerBox(layer: Pick<Layer, 'x' | 'y' | 'w' | 'h' | 'rotate'>): Box {
  const cx = layer.x + layer.w / 2;
  const cy = layer.y + layer.h / 2;
  const rad = ((layer.rotate || 0) * Math.PI) / 180;
  const cos = Math.abs(Math.cos(rad));
  const sin = Math.abs(Math.sin(rad));
  const halfW = (layer.w * cos + layer.h * sin) / 2;
  const halfH = (layer.w * sin + layer.h * cos) / 2;
  return { left: cx - halfW, top: cy - halfH, right: cx + halfW, bottom: cy + halfH };
}

/**
 * Returns the bands a box reaches into, on a frame of `width` × `height`: only the part of the
 * box inside the frame counts, and touching a band's edge is not reaching into it.
 */
export function zonesOf(box: Box, frame: { width: number; height: number }, percents: SafeZonePercents): SafeZone[] {
  const { width, height } = frame;
  const visible = box.right > 0 && box.left < width && box.bottom > 0 && box.top < height;
  if (!visible || width <= 0 || height <= 0) return [];
  const zones: SafeZone[] = [];
  const topEdge = (height * Math.max(0, percents.top)) / 100;
  const bottomEdge = height - (height * Math.max(0, percents.bottom)) / 100;
  if (topEdge > 0 && box.top < topEdge) zones.push('top');
  if (bottomEdge < height && box.bottom > bottomEdge) zones.push('bottom');
  return zones;
}

/**
 * Returns every text, art-word and picture layer of the document (each scene's, in document
 * order) whose box reaches into a safe zone, with the bands it reaches.
 */
export function safeZoneHits(doc: Pick<Rule, 'scenes' | 'resolutionRatio'>, percents: SafeZonePercents): ZoneHit[] {
  const frame = { width: doc.resolutionRatio.width, height: doc.resolutionRatio.height };
  const hits: ZoneHit[] = [];
  doc.scenes.forEach((scene, sceneIndex) => {
    for (const layer of scene.layers) {
      if (!WATCHED_KINDS.has(layer.type)) continue;
      const zones = zonesOf(layerBox(layer), frame, percents);
      if (zones.length > 0) hits.push({ sceneIndex, layer, zones });
    }
  });
  return hits;
}
