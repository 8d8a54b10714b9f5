/**
 * Editor defaults of spec editor-core §9 and the factories that build a new document, scene and
 * layer from them. Sizes and positions are editing pixels of the rule's resolutionRatio.
 */
import type { Id } from '@/editor/model/gen/Id';
import type { Layer } from '@/editor/model/gen/Layer';
import type { ResolutionRatio } from '@/editor/model/gen/ResolutionRatio';
import type { Rule } from '@/editor/model/gen/Rule';
import type { Scene } from '@/editor/model/gen/Scene';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import { artWordLayer, type ArtWordStyle } from '@/editor/artword/artWords';

/** Default layer box (spec §9: 200×130). */
export const DEFAULT_LAYER_SIZE = { w: 200, h: 130 } as const;
/** Default layer offset from the stage's top-left corner (spec §9: left 10, top 10). */
export const DEFAULT_OFFSET = 10;
/** Lowest z a layer takes (spec §9: minimum z start 100). */
export const MIN_Z = 100;
/** Length of a scene the editor adds, seconds (spec §9: 3 s in the editor). */
export const NEW_SCENE_LENGTH = 3;
/** Shortest scene, seconds (spec §5). */
export const MIN_SCENE_LENGTH = 2;
/**
 * Most scenes a document holds (spec §9: 48) until the server says its configured limit
 * (`/system/info` `sceneLimit`: 48, or 45 with `REELFORGE_TIMELINE_SCENE_LIMIT=45`).
 */
export const MAX_SCENES = 48;
/** Default transition length, seconds (spec §3 effectTime default 1). */
export const DEFAULT_EFFECT_TIME = 1;
/** Undo stack size (spec §9). */
export const HISTORY_LIMIT = 20;
/** How many recently picked colours every colour picker offers (spec §9). */
export const RECENT_COLORS = 14;
/** Fewest layers a group holds (spec §5). */
export const GROUP_MIN = 2;
/** Smallest text size in editing pixels (spec §5: about 12 / scale; the editor stores unscaled). */
export const MIN_FONT_SIZE = 12;
/** A picture's default height (spec §9: base height 250). */
export const PICTURE_BASE_HEIGHT = 250;
/** A video's default width as a share of the stage width (spec §9: fit 80 %). */
export const VIDEO_FIT_WIDTH = 0.8;
/** Shortest side a default text box has (spec §9: at least 240 or half the stage). */
export const TEXT_MIN_WIDTH = 240;
/** Line height of new text, as a multiple of the font size. */
export const TEXT_LINE_HEIGHT = 1.5;
/** Default text of a new text layer (spec §9); the page passes the translated one. */
export const DEFAULT_TEXT = '双击编辑文字';
/** Default task name (spec §3); the pages show it in their language (`useTaskName`). */
export { DEFAULT_TASK_NAME } from '@/components/task/taskName';
/** Offset of a pasted copy from its original, editing pixels. */
export const PASTE_OFFSET = 10;

/** Text sizes of spec §9. */
export const TEXT_SIZES = { TOP: 34, MIDDLE: 24, LOW: 18, CAPTION: 24 } as const;
export type TextSize = keyof typeof TEXT_SIZES;

/** The editing size of a named ratio from the catalogue. */
export function ratioByName(name: string): ResolutionRatio | undefined {
  const r = CATALOGUE.ratios.find((x) => x.name === name && x.editing !== null);
  if (!r || !r.editing) return undefined;
  const [width, height] = r.editing;
  return { name: r.name, width, height, ratio: width / height, sizeId: r.sizeId, targetWidth: r.target ? r.target[0] : width };
}

/** The ratios a user may pick (catalogue order, hidden ones left out). */
export const PICKABLE_RATIOS: string[] = CATALOGUE.ratios.filter((r) => !r.hidden && r.editing !== null).map((r) => r.name);

/** A new blank scene. */
export function newScene(frontendId: Id): Scene {
  return {
    frontendId,
    type: 'canvas',
    name: '',
    effect: '',
    effectTime: DEFAULT_EFFECT_TIME,
    bgColor: '#000000',
    timeLength: NEW_SCENE_LENGTH,
    visualFilter: '',
    canvasBlur: 0,
    bgFit: '',
    bgBlur: 0,
    audio: [],
    voice: [],
    videoAudios: [],
    isActive: true,
    layers: [],
  };
}

/** A scene with no background material and no layer (spec §4: removed; a document keeps one scene). */
export function isBlankScene(scene: Scene): boolean {
  return (scene.id === undefined || scene.id === '') && scene.layers.length === 0;
}

/** A new document: 16:9, one blank scene. */
export function newRule(): Rule {
  const ratio = ratioByName('16:9');
  if (!ratio) throw new Error('catalogue has no 16:9 ratio');
  return {
    version: 1,
    renderVersion: 2,
    ruleType: 'VIDEO_EDIT',
    videoQuality: 30,
    frameRate: 80,
    audioFade: { status: false, inTime: 0, outTime: 0 },
    loudness: { status: true, target: CATALOGUE.audio.loudnessTargetLufs },
    scenes: [newScene(1)],
    resolutionRatio: ratio,
    actionArrange: [],
    audio: [],
    visualFilter: '',
  };
}

/** What a command needs to make a new layer; the slice fills id, z and time. */
export type NewLayer =
  | { kind: 'text'; size: TextSize; content?: string }
  | { kind: 'shape'; shape: string; shapeCode?: string }
  | { kind: 'picture'; src: string; materialId?: Id; width?: number; height?: number; gif?: boolean; cover?: boolean }
  | { kind: 'video'; src: string; materialId?: Id; width?: number; height?: number; duration?: number }
  | { kind: 'artWord'; style: ArtWordStyle; content?: string }
  | { kind: 'effect'; src: string; materialId?: Id; name: string };

/** Fields every layer has, at the defaults of spec §9. */
function common(id: Id, z: number, range: readonly [number, number]) {
  return {
    id,
    startTime: range[0],
    endTime: range[1],
    x: DEFAULT_OFFSET,
    y: DEFAULT_OFFSET,
    z,
    ...DEFAULT_LAYER_SIZE,
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
  };
}

/**
 * Builds a layer for a stage of `stage` size over `range` (the slice gives the whole scene). A
 * clip of known `duration` gets the cut of its range: from its start, never past its end.
 */
export function buildLayer(spec: NewLayer, id: Id, z: number, range: readonly [number, number], stage: ResolutionRatio): Layer {
  const base = common(id, z, range);
  switch (spec.kind) {
    case 'text': {
      const fontSize = TEXT_SIZES[spec.size];
      const h = Math.ceil(fontSize * TEXT_LINE_HEIGHT) + 2 * DEFAULT_OFFSET;
      const caption = spec.size === 'CAPTION';
      const w = caption ? stage.width : Math.min(stage.width, Math.max(TEXT_MIN_WIDTH, stage.width / 2));
      return {
        ...base,
        type: 'word',
        x: caption ? 0 : DEFAULT_OFFSET,
        y: caption ? stage.height - h - DEFAULT_OFFSET : DEFAULT_OFFSET,
        w,
        h,
        content: spec.content ?? DEFAULT_TEXT,
        showContent: spec.content ?? DEFAULT_TEXT,
        color: '#ffffff',
        reqColor: '',
        fontSize,
        fontFamily: '',
        lineHeight: TEXT_LINE_HEIGHT,
        bold: false,
        italic: false,
        strikeThrough: false,
        underline: false,
        textAlign: 'center',
        alignMod: '',
        borderWidth: 0,
        borderColor: '',
        bgFillColor: '',
        letterSpacing: 0,
        businessType: caption ? 'subtitle' : '',
      };
    }
    case 'shape':
      return {
        ...base,
        type: 'shape',
        shape: spec.shape,
        // The catalogue's drawings are named by their key (GET /shape/{key}).
        uuid: spec.shapeCode ? spec.shape : '',
        ...(spec.shapeCode ? { shapeCode: spec.shapeCode } : {}),
        stroke: '',
        strokeWidth: 0,
        fill: '#4096ff',
        borderRadius: 0,
        fillType: 'color',
        gradientColors: [],
        backgroundSrc: '',
        svgStyleType: 'baseSvg',
        shadowBlur: 0,
        shadowSetX: 0,
        shadowSetY: 0,
        shadowColor: '',
      };
    case 'picture': {
      // An overlay (a border, an atmosphere effect) covers the whole stage.
      const box = spec.cover ? { x: 0, y: 0, w: stage.width, h: stage.height } : pictureBox(spec.width, spec.height, stage);
      return {
        ...base,
        ...box,
        type: spec.gif ? 'gif' : 'picture',
        materialId: spec.materialId,
        src: spec.src,
        opacity: 1,
        blur: 0,
        maskBlur: 0,
        filter: '',
        mirror: false,
        maskClip: -1,
        borderWidth: 0,
        borderColor: '',
        borderRadius: 0,
        isCutting: false,
      };
    }
    case 'video': {
      const w = stage.width * VIDEO_FIT_WIDTH;
      const h = spec.width && spec.height ? (w * spec.height) / spec.width : (w * stage.height) / stage.width;
      return {
        ...base,
        type: 'video',
        materialId: spec.materialId,
        x: (stage.width - w) / 2,
        y: (stage.height - h) / 2,
        w,
        h,
        videoSrc: spec.src,
        source: spec.src,
        cutBy: '',
        ...(spec.duration && spec.duration > 0 ? { cutInfo: { start: 0, end: Math.min(spec.duration, range[1] - range[0]) } } : {}),
        volume: 50,
        noAudio: false,
        sharpen: 0,
        brightness: 100,
        contrast: 100,
        saturation: 100,
        isTransparent: false,
      };
    }
    case 'artWord':
      return artWordLayer(buildLayer({ kind: 'text', size: 'TOP', content: spec.content }, id, z, range, stage) as Layer & { type: 'word' }, spec.style, stage);
    case 'effect':
      // A special effect (a border, an atmosphere) is an overlay of the whole stage.
      return { ...base, x: 0, y: 0, w: stage.width, h: stage.height, type: 'specialEffects', materialId: spec.materialId, name: spec.name, src: spec.src };
  }
}

/** A picture's box: 250 high at its own ratio, shrunk to fit the stage; 200×130 when its size is unknown. */
function pictureBox(width: number | undefined, height: number | undefined, stage: ResolutionRatio): { w: number; h: number } {
  if (!width || !height) return { ...DEFAULT_LAYER_SIZE };
  const h = PICTURE_BASE_HEIGHT;
  const w = (h * width) / height;
  const fit = Math.min(1, (stage.width - 2 * DEFAULT_OFFSET) / w, (stage.height - 2 * DEFAULT_OFFSET) / h);
  return { w: w * fit, h: h * fit };
}
