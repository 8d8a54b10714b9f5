/**
 * The editor's one store slice: the document (the generated Rule), selection, current scene, view
 * and save state, and the undo history. Every edit is a named command; a command that leaves the
 * document as it was records nothing, and a gesture (a drag, a slider) records one step at its end.
 */
import { createSlice, current, original, type Draft, type PayloadAction } from '@reduxjs/toolkit';
import { audioReducers } from '@/editor/audio/audioCommands';
import { findFilter, findTransition } from '@/editor/model/catalogue';
import type { Id } from '@/editor/model/gen/Id';
import type { Layer } from '@/editor/model/gen/Layer';
import type { PictureLayer } from '@/editor/model/gen/PictureLayer';
import type { DocumentProblem as Problem } from '@/api/videoTask';
import type { Rule } from '@/editor/model/gen/Rule';
import type { Scene } from '@/editor/model/gen/Scene';
import type { ShapeLayer } from '@/editor/model/gen/ShapeLayer';
import type { TextLayer } from '@/editor/model/gen/TextLayer';
import type { VideoLayer } from '@/editor/model/gen/VideoLayer';
import type { ArtWordLayer } from '@/editor/model/gen/ArtWordLayer';
import type { SpecialEffectLayer } from '@/editor/model/gen/SpecialEffectLayer';
import { extendedSceneLength } from '@/editor/model/layout';
import { BRIDGE_SCOPE, CLOSING_NAME, CROSSFADE, closingPlan, seamCrossfade, seamFade } from '@/editor/ringtone/loop';
import type { AudioItem } from '@/editor/model/gen/AudioItem';
import {
  buildLayer,
  DEFAULT_EFFECT_TIME,
  DEFAULT_TASK_NAME,
  GROUP_MIN,
  HISTORY_LIMIT,
  isBlankScene,
  MAX_SCENES,
  MIN_FONT_SIZE,
  MIN_SCENE_LENGTH,
  MIN_Z,
  newRule,
  newScene,
  PASTE_OFFSET,
  RECENT_COLORS,
  ratioByName,
  type NewLayer,
} from './defaults';
import { makeGroup, rescaleToStage, scaleLayer, ungroupMembers } from './geometry';
import { clipCut, spansScene, stretchLayers, withCut, withSpan, type SourceDurations } from './timing';
import type { Cut } from '@/editor/timeline/timelineMath';
import type { PlacedSubtitle } from '@/editor/subtitles/srt';
import { clearedRule, modeOf, ruleForMode } from '@/editor/modes/modes';

/** Zoom limits of the stage, as a share of the editing size (spec: fit, 50–200 %). */
export const ZOOM_MIN = 0.5;
export const ZOOM_MAX = 2;

/** Where the last save stands. */
export type SaveStatus = 'idle' | 'saving' | 'error';

/** The editor's state. */
export interface EditorState {
  /** The document being edited. */
  doc: Rule;
  /** Task id, -1 until the first save. */
  taskId: number;
  /** Task name (spec: default 未命名). */
  name: string;
  /** Editor mode (spec §2 usedFor), written with the task. */
  usedFor: string;
  /** frontendId of the scene on the stage. */
  sceneId: Id;
  /** Selected layer ids of the current scene. */
  selection: Id[];
  /** Index in `doc.audio` of the selected audio item (its properties show); absent or null for none. */
  audioSelected?: number | null;
  /** Copied layers. */
  clipboard: Layer[];
  /** Time range a new layer takes; null means the whole scene. */
  attachScope: [number, number] | null;
  /** Whether a scene's new length stretches the layers that spanned its old one (kept across documents). */
  stretchLayers: boolean;
  /** Stage view: fitted to the window, or at a fixed zoom. */
  view: { fit: boolean; zoom: number };
  /** Earlier documents, oldest first (at most HISTORY_LIMIT). */
  past: Rule[];
  /** Undone documents, the next redo last. */
  future: Rule[];
  /** The document when the running gesture began; null when none runs. */
  gesture: Rule | null;
  /** Counts document and name changes; the save state compares it. */
  revision: number;
  /** Revision last saved. */
  savedRevision: number;
  /** Revision the running save sent. */
  savingRevision: number;
  save: { status: SaveStatus; savedAt: number | null; problems: Problem[] };
  /** The stored version the document is based on, sent with a save for its stale check; 0: not known, no check. */
  version: number;
  /** Whether the last save was refused because the task was saved elsewhere since (the conflict prompt is open). */
  conflict: boolean;
  /** The colours last picked, newest first (spec §9: 14); kept across documents, per user in localStorage. */
  recentColors: string[];
  /** Most scenes a document may have: the server's configured limit (spec §9: 48, or 45), kept across documents. */
  maxScenes: number;
}

/** Fields a layer edit may set (any kind's; `id` and `type` never change). */
export type LayerPatch = Partial<Omit<TextLayer & ShapeLayer & PictureLayer & VideoLayer & ArtWordLayer & SpecialEffectLayer, 'id'>>;

/** The four z moves. */
export type ZMove = 'forward' | 'backward' | 'front' | 'back';

/** Whether a text is a colour the pickers write (#rrggbb or #rrggbbaa). */
export function isHexColour(c: string): boolean {
  return /^#[0-9a-f]{6}([0-9a-f]{2})?$/i.test(c);
}

function freshState(doc: Rule, taskId = -1, name = DEFAULT_TASK_NAME, usedFor = 'ALL', recentColors: string[] = []): EditorState {
  const normalised = normalise(doc);
  const active = normalised.scenes.find((s) => s.isActive) ?? (normalised.scenes[0] as Scene);
  return {
    doc: normalised,
    taskId,
    name,
    usedFor,
    sceneId: active.frontendId as Id,
    selection: [],
    clipboard: [],
    attachScope: null,
    stretchLayers: true,
    view: { fit: true, zoom: 1 },
    past: [],
    future: [],
    gesture: null,
    revision: 0,
    savedRevision: 0,
    savingRevision: 0,
    save: { status: 'idle', savedAt: null, problems: [] },
    version: 0,
    conflict: false,
    recentColors,
    maxScenes: MAX_SCENES,
  };
}

/** Gives every scene a frontendId and the document at least one scene. */
function normalise(doc: Rule): Rule {
  const scenes = doc.scenes.length > 0 ? doc.scenes : [newScene(1)];
  let next = maxNumeric(scenes.map((s) => s.frontendId)) + 1;
  return { ...doc, scenes: scenes.map((s) => (s.frontendId === undefined ? { ...s, frontendId: next++ } : s)) };
}

function maxNumeric(ids: ReadonlyArray<Id | undefined>): number {
  return ids.reduce<number>((m, id) => (typeof id === 'number' && id > m ? id : m), 0);
}

function allLayers(layers: ReadonlyArray<Layer>): Layer[] {
  return layers.flatMap((l) => (l.type === 'group' ? [l, ...allLayers(l.attachList)] : [l]));
}

/** The next unused numeric layer id of the document. */
function nextLayerId(doc: Rule): number {
  return maxNumeric(doc.scenes.flatMap((s) => allLayers(s.layers).map((l) => l.id))) + 1;
}

function sceneIndex(doc: Rule, id: Id): number {
  const i = doc.scenes.findIndex((s) => s.frontendId === id);
  return i < 0 ? 0 : i;
}

function currentScene(state: Draft<EditorState>): Draft<Scene> {
  return state.doc.scenes[sceneIndex(state.doc as Rule, state.sceneId)] as Draft<Scene>;
}

function topZ(scene: Scene): number {
  return Math.max(MIN_Z - 1, ...scene.layers.map((l) => l.z));
}

function editable(layer: Layer): boolean {
  return !layer.isLock;
}

/** Applies a document change and records it: nothing when identical, once per gesture. */
function edit(state: Draft<EditorState>, change: (doc: Draft<Rule>) => void): void {
  const before = (original(state.doc) ?? current(state.doc)) as Rule;
  change(state.doc);
  const after = current(state.doc) as Rule;
  if (JSON.stringify(before) === JSON.stringify(after)) {
    state.doc = before as Draft<Rule>;
    return;
  }
  state.revision += 1;
  if (state.gesture !== null) return;
  push(state, before);
}

function push(state: Draft<EditorState>, before: Rule): void {
  state.past.push(before as Draft<Rule>);
  if (state.past.length > HISTORY_LIMIT) state.past.splice(0, state.past.length - HISTORY_LIMIT);
  state.future = [];
}

/** Keeps the current scene and the selection pointing at things that exist. */
function repair(state: Draft<EditorState>): void {
  const doc = state.doc as Rule;
  if (!doc.scenes.some((s) => s.frontendId === state.sceneId)) state.sceneId = (doc.scenes[0] as Scene).frontendId as Id;
  const ids = new Set(currentScene(state).layers.map((l) => l.id));
  state.selection = state.selection.filter((id) => ids.has(id));
}

/** Copies layers with new ids (members too) for paste and duplicate. */
function renumber(layers: ReadonlyArray<Layer>, nextId: () => number, groupId?: Id): Layer[] {
  return layers.map((l) => {
    const id = nextId();
    const copy = { ...structuredClone(l), id } as Layer;
    if (groupId !== undefined) copy.groupId = groupId;
    if (copy.type === 'group') copy.attachList = renumber(copy.attachList, nextId, id);
    return copy;
  });
}

function counter(start: number): () => number {
  let n = start;
  return () => n++;
}

/** Places copies on top of the current scene, shifted, and selects them. */
function placeCopies(state: Draft<EditorState>, layers: ReadonlyArray<Layer>): void {
  if (layers.length === 0) return;
  edit(state, (doc) => {
    const scene = currentScene(state);
    const copies = renumber(layers, counter(nextLayerId(doc as Rule)));
    let z = topZ(scene as Scene);
    for (const c of copies) {
      c.x += PASTE_OFFSET;
      c.y += PASTE_OFFSET;
      c.z = ++z;
      scene.layers.push(c as Draft<Layer>);
    }
    state.selection = copies.map((c) => c.id);
  });
}

function reorderedIds(order: Id[], selected: Set<Id>, move: ZMove): Id[] {
  const picked = order.filter((id) => selected.has(id));
  const rest = order.filter((id) => !selected.has(id));
  if (move === 'front') return [...rest, ...picked];
  if (move === 'back') return [...picked, ...rest];
  const out = [...order];
  const step = move === 'forward' ? 1 : -1;
  const indices = out.map((_, i) => i).filter((i) => selected.has(out[i] as Id));
  if (step === 1) indices.reverse();
  for (const i of indices) {
    const j = i + step;
    if (j >= 0 && j < out.length && !selected.has(out[j] as Id)) [out[i], out[j]] = [out[j] as Id, out[i] as Id];
  }
  return out;
}

const initialState: EditorState = freshState(newRule());

const editorSlice = createSlice({
  name: 'editor',
  initialState,
  reducers: {
    /** Opens a document (a saved task or a blank one); history starts empty. */
    loaded(state, action: PayloadAction<{ rule: Rule; taskId?: number; name?: string; usedFor?: string; version?: number }>) {
      const { rule, taskId, name, usedFor, version = 0 } = action.payload;
      return { ...freshState(rule, taskId, name || DEFAULT_TASK_NAME, usedFor, state.recentColors), version, maxScenes: state.maxScenes, stretchLayers: state.stretchLayers };
    },
    /** Starts a new blank document. */
    newDocument(state, action: PayloadAction<{ usedFor?: string } | undefined>) {
      const usedFor = action.payload?.usedFor ?? 'ALL';
      const rule = ruleForMode(newRule(), modeOf(usedFor));
      return { ...freshState(rule, -1, DEFAULT_TASK_NAME, usedFor, state.recentColors), maxScenes: state.maxScenes, stretchLayers: state.stretchLayers };
    },
    /** Sets the scene limit the server is configured with (not an undo step). */
    setSceneLimit(state, action: PayloadAction<number>) {
      if (Number.isInteger(action.payload) && action.payload > 0) state.maxScenes = action.payload;
    },
    /**
     * Clears the task (spec §4): one blank scene, sounds cleared unless the mode keeps them (IVVR),
     * the name back to 未命名. One undo step for the document; the name is not undone.
     */
    clearTask(state) {
      const cleared = clearedRule(current(state.doc) as Rule, modeOf(state.usedFor));
      edit(state, (doc) => {
        doc.scenes = cleared.scenes as Draft<Scene>[];
        doc.actionArrange = cleared.actionArrange;
        doc.audio = cleared.audio as Draft<Rule['audio']>;
      });
      state.sceneId = (cleared.scenes[0] as Scene).frontendId as Id;
      state.selection = [];
      if (state.name !== DEFAULT_TASK_NAME) {
        state.name = DEFAULT_TASK_NAME;
        state.revision += 1;
      }
    },

    /** Puts a picked colour first among the recent ones (once, at most RECENT_COLORS); not an undo step. */
    colorUsed(state, action: PayloadAction<string>) {
      const c = action.payload.toLowerCase();
      if (!isHexColour(c)) return;
      state.recentColors = [c, ...state.recentColors.filter((x) => x !== c)].slice(0, RECENT_COLORS);
    },
    /** Sets the recent colours (the user's stored ones, when the editor opens). */
    setRecentColors(state, action: PayloadAction<string[]>) {
      const seen = new Set<string>();
      state.recentColors = action.payload
        .map((c) => c.toLowerCase())
        .filter((c) => isHexColour(c) && !seen.has(c) && seen.add(c))
        .slice(0, RECENT_COLORS);
    },

    /**
     * Adds a layer at the spec's defaults over the whole scene (or the attach scope, extending the
     * scene when it ends after it).
     */
    addLayer(state, action: PayloadAction<NewLayer>) {
      edit(state, (doc) => {
        const scene = currentScene(state);
        const range: [number, number] = state.attachScope ?? [0, scene.timeLength];
        const id = nextLayerId(doc as Rule);
        const layer = buildLayer(action.payload, id, topZ(scene as Scene) + 1, range, doc.resolutionRatio);
        scene.layers.push(layer as Draft<Layer>);
        scene.timeLength = extendedSceneLength(scene.timeLength, layer.endTime);
        state.selection = [id];
      });
    },
    /** Adds subtitles as caption layers on the scenes they were placed on: one undo step. */
    addSubtitles(state, action: PayloadAction<PlacedSubtitle[]>) {
      edit(state, (doc) => {
        let id = nextLayerId(doc as Rule);
        for (const sub of action.payload) {
          const scene = doc.scenes[sub.scene];
          if (!scene) continue;
          const layer = buildLayer({ kind: 'text', size: 'CAPTION', content: sub.text }, id, topZ(scene as Scene) + 1, [sub.start, sub.end], doc.resolutionRatio);
          scene.layers.push(layer as Draft<Layer>);
          id += 1;
        }
        state.selection = [];
      });
    },
    /** Sets fields of one layer; text never goes below the minimum size. */
    updateLayer(state, action: PayloadAction<{ id: Id; changes: LayerPatch }>) {
      edit(state, () => {
        const layer = currentScene(state).layers.find((l) => l.id === action.payload.id);
        if (!layer) return;
        const changes = { ...action.payload.changes } as Record<string, unknown>;
        delete changes.type;
        Object.assign(layer, changes);
        if ((layer.type === 'word' || layer.type === 'dynamicWord' || layer.type === 'artWord') && layer.fontSize < MIN_FONT_SIZE) layer.fontSize = MIN_FONT_SIZE;
      });
    },
    /** Moves layers by dx/dy editing pixels; locked ones stay. */
    moveLayers(state, action: PayloadAction<{ ids: Id[]; dx: number; dy: number }>) {
      const ids = new Set(action.payload.ids);
      edit(state, () => {
        for (const l of currentScene(state).layers) {
          if (!ids.has(l.id) || !editable(l as Layer)) continue;
          l.x += action.payload.dx;
          l.y += action.payload.dy;
        }
      });
    },
    /** Sets a layer's box (and rotation); a group's members scale with it. */
    resizeLayer(state, action: PayloadAction<{ id: Id; x: number; y: number; w: number; h: number; rotate?: number }>) {
      const { id, x, y, w, h, rotate } = action.payload;
      edit(state, () => {
        const scene = currentScene(state);
        const i = scene.layers.findIndex((l) => l.id === id);
        if (i < 0 || !editable(scene.layers[i] as Layer) || !(w > 0 && h > 0)) return;
        const layer = scene.layers[i] as Layer;
        let next: Layer = { ...layer, x, y, w, h, rotate: rotate ?? layer.rotate } as Layer;
        if (next.type === 'group' && layer.w > 0 && layer.h > 0) {
          const sx = w / layer.w;
          const sy = h / layer.h;
          next = { ...next, attachList: next.attachList.map((m) => scaleLayer(m, sx, sy)) } as Layer;
        }
        scene.layers[i] = next as Draft<Layer>;
      });
    },
    /** Deletes layers (locked ones stay). */
    deleteLayers(state, action: PayloadAction<{ ids: Id[] }>) {
      const ids = new Set(action.payload.ids);
      edit(state, () => {
        const scene = currentScene(state);
        scene.layers = scene.layers.filter((l) => !ids.has(l.id) || !editable(l as Layer));
      });
      repair(state);
    },
    /** Moves layers in the stacking order; z is renumbered from 100 up. */
    reorderZ(state, action: PayloadAction<{ ids: Id[]; move: ZMove }>) {
      edit(state, () => {
        const scene = currentScene(state);
        const order = [...scene.layers].sort((a, b) => a.z - b.z).map((l) => l.id);
        const ids = reorderedIds(order, new Set(action.payload.ids), action.payload.move);
        ids.forEach((id, i) => {
          const layer = scene.layers.find((l) => l.id === id);
          if (layer) layer.z = MIN_Z + i;
        });
      });
    },
    /** Groups two or more unlocked layers into one group layer. */
    group(state, action: PayloadAction<{ ids: Id[] }>) {
      const ids = new Set(action.payload.ids);
      const scene = currentScene(state);
      const members = (current(scene) as Scene).layers.filter((l) => ids.has(l.id) && editable(l));
      if (members.length < GROUP_MIN) return;
      edit(state, (doc) => {
        const s = currentScene(state);
        const at = s.layers.findIndex((l) => ids.has(l.id));
        const g = makeGroup(members, nextLayerId(doc as Rule));
        s.layers = s.layers.filter((l) => !members.some((m) => m.id === l.id));
        s.layers.splice(Math.min(at, s.layers.length), 0, g as Draft<Layer>);
        state.selection = [g.id];
      });
    },
    /** Breaks a group into its members at their absolute positions. */
    ungroup(state, action: PayloadAction<{ id: Id }>) {
      edit(state, () => {
        const s = currentScene(state);
        const i = s.layers.findIndex((l) => l.id === action.payload.id);
        const g = s.layers[i] as Layer | undefined;
        if (!g || g.type !== 'group') return;
        const members = ungroupMembers(g);
        s.layers.splice(i, 1, ...(members as Draft<Layer>[]));
        state.selection = members.map((m) => m.id);
      });
    },
    /** Breaks every 'once' group of the document (spec §4 decompose-all). */
    decomposeAll(state) {
      edit(state, () => {
        for (const s of state.doc.scenes) {
          s.layers = (s.layers as Layer[]).flatMap((l) => (l.type === 'group' && l.groupType === 'once' ? ungroupMembers(l) : [l])) as Draft<Layer>[];
        }
      });
      repair(state);
    },

    /** Adds a blank scene after the current one and shows it; refused at the scene limit. */
    addScene(state) {
      if (state.doc.scenes.length >= state.maxScenes) return;
      edit(state, (doc) => {
        const id = maxNumeric(doc.scenes.map((s) => s.frontendId)) + 1;
        doc.scenes.splice(sceneIndex(doc as Rule, state.sceneId) + 1, 0, newScene(id) as Draft<Scene>);
        state.sceneId = id;
        state.selection = [];
      });
    },
    /** Copies a scene (its layers with new ids) after itself and shows the copy; refused at the scene limit. */
    duplicateScene(state, action: PayloadAction<{ id: Id }>) {
      if (state.doc.scenes.length >= state.maxScenes) return;
      edit(state, (doc) => {
        const i = doc.scenes.findIndex((s) => s.frontendId === action.payload.id);
        if (i < 0) return;
        const source = current(doc.scenes[i]) as Scene;
        const id = maxNumeric(doc.scenes.map((s) => s.frontendId)) + 1;
        const layers = renumber(source.layers, counter(nextLayerId(doc as Rule)));
        doc.scenes.splice(i + 1, 0, { ...structuredClone(source), frontendId: id, layers } as Draft<Scene>);
        state.sceneId = id;
        state.selection = [];
      });
    },
    /** Deletes a scene; the last scene stays. */
    deleteScene(state, action: PayloadAction<{ id: Id }>) {
      edit(state, (doc) => {
        const i = doc.scenes.findIndex((s) => s.frontendId === action.payload.id);
        if (i < 0 || doc.scenes.length <= 1) return;
        doc.scenes.splice(i, 1);
        if (state.sceneId === action.payload.id) state.sceneId = doc.scenes[Math.min(i, doc.scenes.length - 1)]?.frontendId as Id;
      });
      repair(state);
    },
    /** Deletes the blank scenes (no background material, no layer), as a save does; one scene always stays. */
    removeBlankScenes(state) {
      edit(state, (doc) => {
        const kept = (current(doc) as Rule).scenes.filter((s) => !isBlankScene(s));
        if (kept.length === doc.scenes.length) return;
        const keep = new Set(kept.length > 0 ? kept.map((s) => s.frontendId) : [doc.scenes[0]?.frontendId]);
        // The shown scene, when removed, gives way to the nearest kept scene before it.
        const at = doc.scenes.findIndex((s) => s.frontendId === state.sceneId);
        const before = doc.scenes.slice(0, at + 1).filter((s) => keep.has(s.frontendId));
        doc.scenes = doc.scenes.filter((s) => keep.has(s.frontendId));
        if (!keep.has(state.sceneId)) state.sceneId = (before[before.length - 1] ?? doc.scenes[0])?.frontendId as Id;
      });
      repair(state);
    },
    /** Moves the scene at `from` to index `to`. */
    reorderScenes(state, action: PayloadAction<{ from: number; to: number }>) {
      const { from, to } = action.payload;
      edit(state, (doc) => {
        if (from < 0 || from >= doc.scenes.length || to < 0 || to >= doc.scenes.length) return;
        const [moved] = doc.scenes.splice(from, 1);
        if (moved) doc.scenes.splice(to, 0, moved);
      });
    },
    /**
     * Sets a scene's length, never below 2 s. With `stretch` (default: the user's `stretchLayers`)
     * the layers that spanned the old length span the new one, a clip's out point within its source
     * (`sources`: the clips' durations the caller knows). During a gesture the old length and the
     * spanning layers are those when the gesture began.
     */
    setSceneLength(state, action: PayloadAction<{ id: Id; length: number; stretch?: boolean; sources?: SourceDurations }>) {
      const { id, length, sources } = action.payload;
      if (!Number.isFinite(length)) return;
      const stretch = action.payload.stretch ?? state.stretchLayers;
      edit(state, (doc) => {
        const s = doc.scenes.find((x) => x.frontendId === id);
        if (!s) return;
        const before = (state.gesture?.scenes.find((x) => x.frontendId === id) ?? (current(s) as Scene)) as Scene;
        s.timeLength = Math.max(MIN_SCENE_LENGTH, length);
        if (!stretch) return;
        const spanning = new Set(allLayers(before.layers).filter((l) => spansScene(l, before.timeLength)).map((l) => l.id));
        s.layers = stretchLayers(current(s).layers as Layer[], (layerId) => spanning.has(layerId), s.timeLength, sources) as Draft<Layer>[];
      });
    },
    /**
     * "Make it loop" (ringtone): `fade` crossfades the music across the seam (`seamCrossfade`: the
     * item fades out while the music just before its cut fades in over the end, so the end flows
     * into the start), or, when no music item can carry that, fades the whole mix in at the start
     * and out at the end (`seamFade`); `matchFrame` gives the last scene's closing seconds to
     * a copy of the opening scene (its layers shown at the start, new ids), crossfaded in, so the
     * loop's last picture is its first (`closingPlan`; done once: a closing copy is not copied
     * again). The document keeps its length; one undo step.
     */
    makeLoop(state, action: PayloadAction<{ fade: boolean; matchFrame: boolean }>) {
      edit(state, (doc) => {
        const scenes = current(doc).scenes as Scene[];
        const seconds = scenes.reduce((sum, x) => sum + x.timeLength, 0);
        if (action.payload.fade) {
          // The first music item crosses the seam with a bridge when it can; the whole mix fades otherwise.
          const items = current(doc).audio as AudioItem[];
          const bridged = items.some((x) => x.scope === BRIDGE_SCOPE);
          const music = items.findIndex((x) => x.type !== 'voice' && x.scope !== BRIDGE_SCOPE);
          const cross = bridged || music < 0 ? null : seamCrossfade(items[music] as AudioItem, seconds);
          if (cross) {
            Object.assign(doc.audio[music] as AudioItem, cross.patch);
            doc.audio.push(cross.bridge);
          } else if (!bridged) Object.assign(doc.audioFade, seamFade(seconds));
        }
        const plan = action.payload.matchFrame && scenes[scenes.length - 1]?.name !== CLOSING_NAME ? closingPlan(scenes) : null;
        const first = scenes[0];
        const last = doc.scenes[doc.scenes.length - 1];
        if (!plan || !first || !last || doc.scenes.length >= state.maxScenes) return;
        const before = current(last) as Scene;
        const spanning = new Set(allLayers(before.layers).filter((l) => spansScene(l, before.timeLength)).map((l) => l.id));
        last.timeLength = plan.lastLength;
        last.layers = stretchLayers(before.layers, (id) => spanning.has(id), plan.lastLength, undefined) as Draft<Layer>[];
        last.effect = CROSSFADE;
        last.effectTime = plan.effectTime;
        const opening = first.layers.filter((l) => l.startTime <= 0.01);
        const layers = stretchLayers(renumber(opening, counter(nextLayerId(doc as Rule))), () => true, plan.closing, undefined);
        const id = maxNumeric(doc.scenes.map((x) => x.frontendId)) + 1;
        doc.scenes.push({ ...structuredClone(first), frontendId: id, name: CLOSING_NAME, timeLength: plan.closing, effect: '', effectTime: 0, isActive: false, layers } as Draft<Scene>);
      });
    },
    /** Sets whether a scene's new length stretches the layers that spanned it (a preference, not an undo step). */
    setStretchLayers(state, action: PayloadAction<boolean>) {
      state.stretchLayers = action.payload;
    },
    /**
     * Sets a scene's background: colour, fit ("" or "cover"), blur, and its picture or video
     * (`material`: the material id the render looks up, null for none; a new one starts at its
     * beginning, so the old one's `range` goes).
     */
    setBackground(state, action: PayloadAction<{ id: Id; bgColor?: string; bgFit?: string; bgBlur?: number; material?: Id | null }>) {
      const { id, material, ...changes } = action.payload;
      edit(state, (doc) => {
        const s = doc.scenes.find((x) => x.frontendId === id);
        if (!s) return;
        Object.assign(s, changes);
        if (material === undefined || material === s.id) return;
        delete s.range;
        if (material === null) delete s.id;
        else s.id = material;
      });
    },
    /** Sets the transition into the next scene: a catalogue key or "" for a cut. */
    setTransition(state, action: PayloadAction<{ id: Id; effect: string; effectTime?: number }>) {
      const { id, effect, effectTime } = action.payload;
      if (effect !== '' && !findTransition(effect)) return;
      edit(state, (doc) => {
        const s = doc.scenes.find((x) => x.frontendId === id);
        if (!s) return;
        s.effect = effect;
        if (effectTime !== undefined && effectTime > 0) s.effectTime = effectTime;
        else if (!(s.effectTime > 0)) s.effectTime = DEFAULT_EFFECT_TIME;
      });
    },
    /**
     * Sets a layer's span in its scene (seconds, from the timeline); a span ending after the scene
     * lengthens it, as adding a layer does. A video's out point follows the bar's length within its
     * source (`source`, seconds, when known), unless cut mode passes the `cut` it made. During a
     * gesture the scene grows from its length when the gesture began, so dragging back shortens it again.
     */
    setLayerTime(state, action: PayloadAction<{ id: Id; start: number; end: number; cut?: Cut; source?: number }>) {
      const { id, start, end, cut, source } = action.payload;
      if (!(Number.isFinite(start) && Number.isFinite(end) && start >= 0 && end > start)) return;
      edit(state, () => {
        const scene = currentScene(state);
        const i = scene.layers.findIndex((l) => l.id === id);
        const layer = scene.layers[i] as Layer | undefined;
        if (!layer || !editable(layer)) return;
        scene.layers[i] = withSpan(current(scene.layers[i]) as Layer, start, end, source, cut) as Draft<Layer>;
        const before = state.gesture?.scenes.find((s) => s.frontendId === scene.frontendId)?.timeLength ?? scene.timeLength;
        scene.timeLength = extendedSceneLength(before, end);
      });
    },
    /**
     * Sets a video's in and out points (source seconds) within its source (`source`, when known);
     * its bar becomes as long as the cut, lengthening the scene when it then ends after it. A point
     * left out keeps the layer's own as it is now, so two quick edits never undo each other.
     */
    setVideoCut(state, action: PayloadAction<{ id: Id; start?: number; end?: number; source?: number }>) {
      const { id, source } = action.payload;
      const given = [action.payload.start, action.payload.end].filter((v) => v !== undefined);
      if (given.length === 0 || !given.every(Number.isFinite)) return;
      edit(state, () => {
        const scene = currentScene(state);
        const i = scene.layers.findIndex((l) => l.id === id);
        const layer = scene.layers[i] as Layer | undefined;
        if (!layer || layer.type !== 'video' || !editable(layer)) return;
        const now = current(scene.layers[i]) as Layer & { type: 'video' };
        const was = clipCut(now, source);
        const next = withCut(now, action.payload.start ?? was.start, action.payload.end ?? was.end, source);
        scene.layers[i] = next as Draft<Layer>;
        scene.timeLength = extendedSceneLength(scene.timeLength, next.endTime);
      });
    },
    /** Sets a scene's filter: a catalogue key or "" for none. */
    setSceneFilter(state, action: PayloadAction<{ id: Id; filter: string }>) {
      const { id, filter } = action.payload;
      if (filter !== '' && !findFilter(filter)) return;
      edit(state, (doc) => {
        const s = doc.scenes.find((x) => x.frontendId === id);
        if (s) s.visualFilter = filter;
      });
    },
    /** Switches the aspect ratio; each layer keeps its centre's share of the stage and scales without stretching. */
    setAspect(state, action: PayloadAction<string>) {
      const ratio = ratioByName(action.payload);
      if (!ratio) return;
      edit(state, (doc) => {
        const old = doc.resolutionRatio;
        const sx = ratio.width / old.width;
        const sy = ratio.height / old.height;
        for (const s of doc.scenes) s.layers = (current(s) as Scene).layers.map((l) => rescaleToStage(l, sx, sy)) as Draft<Layer>[];
        doc.resolutionRatio = ratio;
      });
    },
    /**
     * Puts back edits the autosave kept (the document as saved then, and the name): one undo step,
     * so undo returns to the document as opened; the change is unsaved until the user saves.
     */
    restoreEdit(state, action: PayloadAction<{ rule: Rule; name: string }>) {
      push(state, current(state.doc) as Rule);
      state.doc = normalise(action.payload.rule) as Draft<Rule>;
      state.name = action.payload.name.trim() || DEFAULT_TASK_NAME;
      state.selection = [];
      state.gesture = null;
      state.revision += 1;
      repair(state);
    },
    /** Renames the task (not an undo step). */
    renameTask(state, action: PayloadAction<string>) {
      const name = action.payload.trim() || DEFAULT_TASK_NAME;
      if (name === state.name) return;
      state.name = name;
      state.revision += 1;
    },

    /** Shows a scene; the selection clears. */
    selectScene(state, action: PayloadAction<Id>) {
      if (!state.doc.scenes.some((s) => s.frontendId === action.payload)) return;
      state.sceneId = action.payload;
      state.selection = [];
    },
    /** Selects layers: replace, toggle (shift/ctrl click) or clear with an empty list. */
    select(state, action: PayloadAction<{ ids: Id[]; toggle?: boolean }>) {
      state.audioSelected = null;
      const present = new Set(currentScene(state).layers.map((l) => l.id));
      const ids = action.payload.ids.filter((id) => present.has(id));
      if (!action.payload.toggle) {
        state.selection = ids;
        return;
      }
      for (const id of ids) {
        const at = state.selection.indexOf(id);
        if (at >= 0) state.selection.splice(at, 1);
        else state.selection.push(id);
      }
    },
    /** Sets the time range new layers take. */
    setAttachScope(state, action: PayloadAction<[number, number] | null>) {
      state.attachScope = action.payload;
    },
    /** Fits the stage to the window. */
    fitView(state) {
      state.view.fit = true;
    },
    /** Sets a fixed zoom, 50–200 %. */
    setZoom(state, action: PayloadAction<number>) {
      state.view = { fit: false, zoom: Math.min(ZOOM_MAX, Math.max(ZOOM_MIN, action.payload)) };
    },

    /** Copies the selected layers. */
    copy(state) {
      const ids = new Set(state.selection);
      state.clipboard = (current(currentScene(state)) as Scene).layers.filter((l) => ids.has(l.id)) as Draft<Layer>[];
    },
    /** Pastes the copied layers into the current scene. */
    paste(state) {
      placeCopies(state, current(state).clipboard);
    },
    /** Duplicates the selected layers in one step (the clipboard stays). */
    duplicate(state) {
      const ids = new Set(state.selection);
      placeCopies(state, (current(currentScene(state)) as Scene).layers.filter((l) => ids.has(l.id)));
    },

    /** Starts a gesture: edits until commit are one undo step. */
    beginGesture(state) {
      if (state.gesture === null) state.gesture = current(state.doc) as Draft<Rule>;
    },
    /** Ends a gesture, recording one step when it changed the document. */
    commitGesture(state) {
      const start = state.gesture;
      if (start === null) return;
      state.gesture = null;
      if (JSON.stringify(current(start)) !== JSON.stringify(current(state.doc))) push(state, current(start) as Rule);
    },
    /** Steps back. */
    undo(state) {
      const before = state.past.pop();
      if (!before) return;
      state.future.push(current(state.doc) as Draft<Rule>);
      state.doc = before;
      state.gesture = null;
      state.revision += 1;
      repair(state);
    },
    /** Steps forward again. */
    redo(state) {
      const next = state.future.pop();
      if (!next) return;
      state.past.push(current(state.doc) as Draft<Rule>);
      state.doc = next;
      state.revision += 1;
      repair(state);
    },

    ...audioReducers(edit),

    /** A save began, sending the current revision. */
    saveStarted(state) {
      state.save.status = 'saving';
      state.savingRevision = state.revision;
      state.conflict = false;
    },
    /** The save answered with the task id; `version` is the one now stored (0 when not known). */
    saveSucceeded(state, action: PayloadAction<{ taskId: number; at: number; version: number }>) {
      state.taskId = action.payload.taskId;
      state.version = action.payload.version;
      state.savedRevision = state.savingRevision;
      state.save = { status: 'idle', savedAt: action.payload.at, problems: [] };
    },
    /** The save was refused as stale (saved elsewhere since): nothing was stored, the user chooses. */
    saveConflicted(state) {
      state.save.status = 'error';
      state.save.problems = [];
      state.conflict = true;
    },
    /** The user keeps this document over the stored `version`: the next save overwrites it on purpose. */
    keepMine(state, action: PayloadAction<{ version: number }>) {
      state.version = action.payload.version;
      state.conflict = false;
    },
    /** The save failed; the document stays as it is, with the server's problems. */
    saveFailed(state, action: PayloadAction<Problem[]>) {
      state.save.status = 'error';
      state.save.problems = action.payload;
    },
  },
});

export const editorActions = editorSlice.actions;
export const editorReducer = editorSlice.reducer;
export { freshState as editorStateFor };
