/**
 * The editor's audio commands (issue 16): the document's music and voice-overs (`rule.audio`,
 * placed on the document), the audio selection, and the whole mix (`audioFade`, `loudness`).
 * They are case reducers of the editor slice, made here from the slice's `edit` so that each
 * is an undo step recorded the same way as every other command.
 */
import type { Draft, PayloadAction } from '@reduxjs/toolkit';
import type { Material } from '@/api/material';
import type { AudioItem } from '@/editor/model/gen/AudioItem';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import type { Rule } from '@/editor/model/gen/Rule';
import { ORIGINAL_DB, SLIDER_MAX } from '@/editor/model/volume';
import type { EditorState } from '@/editor/state/editorSlice';

/** The slider value of an added item: 100 is the source's own level (0 dB). */
export const ADDED_VOLUME = 100;
/** The shortest placement or cut an item keeps, seconds. */
export const MIN_AUDIO_SPAN = 0.1;

/** A new music item for the whole document: 0 to its end, looped when the track is shorter, ducked under voices. */
export function musicItem(m: Material, documentLength: number): AudioItem {
  return {
    id: m.id,
    type: 'audio',
    name: m.materialName,
    src: m.url,
    start: 0,
    end: 0,
    scope: '',
    len: m.duration,
    startTime: 0,
    endTime: documentLength,
    volume: ADDED_VOLUME,
    originalVolume: ORIGINAL_DB,
    isLoop: m.duration > 0 && m.duration < documentLength,
    fadeInTime: 0,
    fadeOutTime: 0,
    status: 0,
    duck: true,
    duckDepth: CATALOGUE.audio.duckDepthDb,
  };
}

/** A new voice-over item at a document time, as long as its recording; voices are never ducked. */
export function voiceItem(m: Material, at: number): AudioItem {
  return { ...musicItem(m, 0), type: 'voice', startTime: at, endTime: at + m.duration, isLoop: false, duck: false };
}

/** The fields an item edit may set. */
export type AudioPatch = Partial<Pick<AudioItem, 'startTime' | 'endTime' | 'start' | 'end' | 'volume' | 'isLoop' | 'fadeInTime' | 'fadeOutTime' | 'duck' | 'duckDepth' | 'name'>>;

const clamp = (v: number, lo: number, hi: number) => Math.min(hi, Math.max(lo, v));

/**
 * Returns an item with a patch applied and held to what the renderer accepts: a placement and a
 * cut at least MIN_AUDIO_SPAN long (a cut end of 0 means the source's end), the volume slider
 * 0–200, fades not negative and together within the placement, the duck depth 0–max.
 */
export function patchedItem(item: AudioItem, patch: AudioPatch): AudioItem | null {
  const next = { ...item, ...patch };
  const numbers = [next.startTime, next.endTime, next.start, next.end, next.volume, next.fadeInTime, next.fadeOutTime, next.duckDepth];
  if (!numbers.every(Number.isFinite)) return null;
  next.startTime = Math.max(0, next.startTime);
  if (next.endTime - next.startTime < MIN_AUDIO_SPAN) return null;
  next.start = Math.max(0, next.start);
  if (next.end !== 0 && next.end - next.start < MIN_AUDIO_SPAN) return null;
  next.volume = clamp(next.volume, 0, SLIDER_MAX);
  const span = next.endTime - next.startTime;
  next.fadeInTime = clamp(next.fadeInTime, 0, span);
  next.fadeOutTime = clamp(next.fadeOutTime, 0, span - next.fadeInTime);
  next.duckDepth = clamp(next.duckDepth, 0, CATALOGUE.audio.duckDepthMaxDb);
  return next;
}

type Edit = (state: Draft<EditorState>, change: (doc: Draft<Rule>) => void) => void;

/** Returns the audio case reducers, recording through the slice's `edit`. */
export function audioReducers(edit: Edit) {
  return {
    /** Adds an item to the document's audio and selects it. */
    addAudio(state: Draft<EditorState>, action: PayloadAction<AudioItem>) {
      edit(state, (doc) => {
        doc.audio.push(action.payload);
        state.selection = [];
        state.audioSelected = doc.audio.length - 1;
      });
    },
    /** Sets fields of one item (see `patchedItem`); an edit the renderer would refuse changes nothing. */
    updateAudio(state: Draft<EditorState>, action: PayloadAction<{ index: number; changes: AudioPatch }>) {
      edit(state, (doc) => {
        const item = doc.audio[action.payload.index];
        const next = item && patchedItem(item as AudioItem, action.payload.changes);
        if (next) doc.audio[action.payload.index] = next;
      });
    },
    /** Deletes one item; the audio selection clears. */
    deleteAudio(state: Draft<EditorState>, action: PayloadAction<{ index: number }>) {
      edit(state, (doc) => {
        if (action.payload.index < 0 || action.payload.index >= doc.audio.length) return;
        doc.audio.splice(action.payload.index, 1);
      });
      state.audioSelected = null;
    },
    /** Selects one audio item (its properties show) or none; the layer selection clears. */
    selectAudio(state: Draft<EditorState>, action: PayloadAction<number | null>) {
      const i = action.payload;
      state.audioSelected = i !== null && i >= 0 && i < state.doc.audio.length ? i : null;
      if (state.audioSelected !== null) state.selection = [];
    },
    /** Sets the whole mix's fade in/out (seconds, not negative). */
    setAudioFade(state: Draft<EditorState>, action: PayloadAction<{ status?: boolean; inTime?: number; outTime?: number }>) {
      const { status, inTime, outTime } = action.payload;
      edit(state, (doc) => {
        if (status !== undefined) doc.audioFade.status = status;
        if (inTime !== undefined && Number.isFinite(inTime)) doc.audioFade.inTime = Math.max(0, inTime);
        if (outTime !== undefined && Number.isFinite(outTime)) doc.audioFade.outTime = Math.max(0, outTime);
      });
    },
    /** Sets the loudness target: on/off and LUFS within the catalogue's range. */
    setLoudness(state: Draft<EditorState>, action: PayloadAction<{ status?: boolean; target?: number }>) {
      const { status, target } = action.payload;
      const { loudnessTargetMin: lo, loudnessTargetMax: hi } = CATALOGUE.audio;
      edit(state, (doc) => {
        if (status !== undefined) doc.loudness.status = status;
        if (target !== undefined && Number.isFinite(target)) doc.loudness.target = clamp(target, lo, hi);
      });
    },
  };
}
