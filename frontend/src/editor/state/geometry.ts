/** Layer geometry the editor commands share: boxes, groups, rescaling. Pure functions on plain layers. */
import type { Id } from '@/editor/model/gen/Id';
import type { Layer } from '@/editor/model/gen/Layer';
import { MIN_FONT_SIZE } from './defaults';

/** An axis-aligned box in editing pixels. */
export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The smallest box holding every layer (rotation ignored: boxes are stored unrotated). */
export function boundingBox(layers: ReadonlyArray<Box>): Box {
  const x = Math.min(...layers.map((l) => l.x));
  const y = Math.min(...layers.map((l) => l.y));
  const right = Math.max(...layers.map((l) => l.x + l.w));
  const bottom = Math.max(...layers.map((l) => l.y + l.h));
  return { x, y, w: right - x, h: bottom - y };
}

/** Returns a layer scaled by sx/sy about the origin; sizes in text and strokes follow the smaller factor. */
export function scaleLayer(layer: Layer, sx: number, sy: number): Layer {
  const k = Math.min(sx, sy);
  const out = { ...layer, x: layer.x * sx, y: layer.y * sy, w: layer.w * sx, h: layer.h * sy } as Layer;
  if (out.type === 'word' || out.type === 'dynamicWord') out.fontSize = Math.max(MIN_FONT_SIZE, out.fontSize * k);
  if (out.type === 'group') out.attachList = out.attachList.map((m) => scaleLayer(m, sx, sy));
  return out;
}

/**
 * Returns a layer moved to a new stage size: its centre keeps its place as a share of the stage,
 * its size scales by the smaller of the two factors so nothing is stretched.
 */
export function rescaleToStage(layer: Layer, sx: number, sy: number): Layer {
  const k = Math.min(sx, sy);
  const cx = (layer.x + layer.w / 2) * sx;
  const cy = (layer.y + layer.h / 2) * sy;
  const scaled = scaleLayer(layer, k, k);
  return { ...scaled, x: cx - scaled.w / 2, y: cy - scaled.h / 2 } as Layer;
}

/** Builds a group of layers: the group's box bounds them and members keep positions relative to it. */
export function makeGroup(members: ReadonlyArray<Layer>, id: Id): Layer {
  const box = boundingBox(members);
  const z = Math.max(...members.map((m) => m.z));
  const start = Math.min(...members.map((m) => m.startTime));
  const end = Math.max(...members.map((m) => m.endTime));
  return {
    type: 'group',
    id,
    ...box,
    z,
    startTime: start,
    endTime: end,
    rotate: 0,
    motion: '',
    motionIn: '',
    motionOut: '',
    inTime: 1,
    outTime: 1,
    retention: '',
    retentionTime: 0,
    canModify: 0,
    isLock: false,
    isActive: false,
    isPublic: false,
    groupType: 'always',
    attachList: members.map((m) => ({ ...m, groupId: id, x: m.x - box.x, y: m.y - box.y }) as Layer),
  };
}

/**
 * Returns a group's members at absolute positions, each out of the group; a rotated group turns
 * each member's centre about the group's centre and adds its rotation to the member's.
 */
export function ungroupMembers(group: Layer & { type: 'group' }): Layer[] {
  const rad = (group.rotate * Math.PI) / 180;
  const gx = group.x + group.w / 2;
  const gy = group.y + group.h / 2;
  return group.attachList.map((m) => {
    const dx = group.x + m.x + m.w / 2 - gx;
    const dy = group.y + m.y + m.h / 2 - gy;
    const cx = gx + dx * Math.cos(rad) - dy * Math.sin(rad);
    const cy = gy + dx * Math.sin(rad) + dy * Math.cos(rad);
    const out = { ...m, x: cx - m.w / 2, y: cy - m.h / 2, rotate: m.rotate + group.rotate } as Layer;
    delete out.groupId;
    return out;
  });
}
