/**
 * Smart subtitles (智能字幕, docs/ai.md "Speech recognition"): a video layer's or a voice item's
 * material recognised on the render farm, its words grouped into lines of a readable length and
 * placed on the document at the times they are heard: offset by where the layer sits on the
 * timeline and its in point, words outside its cut left out. The cues then go through the SRT
 * import's placement (ends shaved by 50 ms, past the document's end dropped: spec editor-core §5).
 */
import { fetchTranscript, voiceToText, type HeardWord, type SpeechLanguage, type Transcript } from '@/api/ai';
import { followToEnd, watchTaskProgress, type WatchHandlers } from '@/api/taskProgress';
import { TaskStatus, type TaskState } from '@/api/videoTask';
import type { Rule } from '@/editor/model/gen/Rule';
import type { VideoLayer } from '@/editor/model/gen/VideoLayer';
import { clipCut, type SourceDurations } from '@/editor/state/timing';
import type { Cue } from './srt';

/** A line holds at most this many characters (a CJK character counts as two). */
export const LINE_MAX_COLUMNS = 42;
/** A line lasts at most this long, seconds. */
export const LINE_MAX_S = 6;
/** A pause at least this long between two words ends a line, seconds. */
export const LINE_PAUSE_S = 0.5;

/** A layer or item whose sound can be recognised, with where its sound plays on the document. */
export interface SpeechSource {
  /** `video:<layer id>` or `voice:<index in doc.audio>`. */
  key: string;
  kind: 'video' | 'voice';
  materialId: string;
  /** A voice item's name; a video layer's is its scene's number. */
  name: string;
  /** Document seconds where the in point plays. */
  at: number;
  /** In point, seconds in the material. */
  from: number;
  /** Out point, seconds in the material. */
  to: number;
}

/**
 * The document's video layers with a material (each scene's start added to the layer's) and its
 * voice items (recordings and dubbings), in timeline order.
 */
export function speechSources(doc: Rule, sources?: SourceDurations): SpeechSource[] {
  const found: SpeechSource[] = [];
  let sceneStart = 0;
  doc.scenes.forEach((scene, index) => {
    for (const layer of scene.layers) {
      if (layer.type !== 'video' || layer.materialId === undefined || layer.materialId === '') continue;
      const video = layer as VideoLayer & { type: 'video' };
      const cut = clipCut(video, sources?.[String(video.materialId)]);
      found.push({
        key: `video:${String(video.id)}`,
        kind: 'video',
        materialId: String(video.materialId),
        name: String(index + 1),
        at: sceneStart + video.startTime,
        from: cut.start,
        to: cut.end,
      });
    }
    sceneStart += scene.timeLength;
  });
  doc.audio.forEach((item, i) => {
    if (item.type !== 'voice' || item.id === undefined || item.id === '') return;
    const to = item.end > 0 ? item.end : item.start + (item.endTime - item.startTime);
    found.push({ key: `voice:${i}`, kind: 'voice', materialId: String(item.id), name: item.name, at: item.startTime, from: item.start, to });
  });
  return found.sort((a, b) => a.at - b.at);
}

const CJK = /[\u3040-\u30ff\u3400-\u9fff\uf900-\ufaff]/;

function columns(text: string): number {
  let n = 0;
  for (const c of text) n += CJK.test(c) ? 2 : 1;
  return n;
}

/** Joins words: CJK with nothing between them, others with a space. */
function join(line: string, word: string): string {
  if (line === '') return word;
  const tight = CJK.test(line.slice(-1)) && CJK.test(word.charAt(0));
  return tight ? line + word : `${line} ${word}`;
}

/**
 * Groups words (seconds in the material, in order) into lines: a line ends at a pause of
 * LINE_PAUSE_S, before it would pass LINE_MAX_COLUMNS or last longer than LINE_MAX_S.
 */
export function linesOf(words: readonly { word: string; start: number; end: number }[]): Cue[] {
  const lines: Cue[] = [];
  let current: Cue | null = null;
  for (const w of words) {
    const text: string = current ? join(current.text, w.word) : w.word;
    const breaks: boolean =
      current !== null && (w.start - current.end >= LINE_PAUSE_S || columns(text) > LINE_MAX_COLUMNS || w.end - current.start > LINE_MAX_S);
    if (current === null || breaks) {
      current = { start: w.start, end: w.end, text: w.word };
      lines.push(current);
    } else {
      current.text = text;
      current.end = w.end;
    }
  }
  return lines;
}

/**
 * The subtitles of `source` from its heard words: the words inside its cut grouped into lines,
 * each moved to the document's time (`at + t − from`), an end past the out point cut there.
 */
export function subtitleCues(words: readonly HeardWord[], source: SpeechSource): Cue[] {
  const inside = words
    .map((w) => ({ word: w.word, start: w.startMs / 1000, end: Math.min(w.endMs / 1000, source.to) }))
    .filter((w) => w.start >= source.from && w.start < source.to && w.end > w.start);
  return linesOf(inside).map((c) => ({ text: c.text, start: round(source.at + c.start - source.from), end: round(source.at + c.end - source.from) }));
}

function round(s: number): number {
  return Math.round(s * 1000) / 1000;
}

/** The run ended without its transcript: failed (the farm's reason) or cancelled. */
export class RecognitionFailed extends Error {
  constructor(
    readonly status: number,
    readonly reason: string,
  ) {
    super(reason || `recognition ended with status ${status}`);
  }
}

/** What a recognition calls; tests pass their own. */
export interface RecognitionDeps {
  start(input: { materialId: string; language: SpeechLanguage }): Promise<{ taskId: number }>;
  watch(taskId: number, handlers: WatchHandlers, signal: AbortSignal): Promise<void>;
  transcript(taskId: number): Promise<Transcript>;
}

const DEFAULT_DEPS: RecognitionDeps = {
  start: voiceToText,
  watch: (taskId, handlers, signal) => watchTaskProgress(taskId, handlers, signal),
  transcript: fetchTranscript,
};

/**
 * Recognises a material on the farm and answers its transcript. `onStarted` hears the run's task
 * id (for a cancel), `onState` each progress report. Throws the server's refusal as it came (its
 * `data.field` or `data.reason` says why), `RecognitionFailed` when the run ends otherwise than
 * done, an AbortError when `signal` stops the following.
 */
export async function recognise(
  input: { materialId: string; language: SpeechLanguage },
  handlers: { onStarted(taskId: number): void; onState(state: TaskState): void },
  signal: AbortSignal,
  deps: RecognitionDeps = DEFAULT_DEPS,
): Promise<Transcript> {
  const { taskId } = await deps.start(input);
  handlers.onStarted(taskId);
  const end = await followToEnd(taskId, handlers.onState, signal, deps.watch, 'recognition');
  if (!end || end.status !== TaskStatus.success) throw new RecognitionFailed(end?.status ?? TaskStatus.error, end?.reason ?? '');
  return deps.transcript(taskId);
}
