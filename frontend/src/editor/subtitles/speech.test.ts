import { ApiError } from '@/api/errors';
import type { HeardWord, Transcript } from '@/api/ai';
import type { TaskState } from '@/api/videoTask';
import type { Rule } from '@/editor/model/gen/Rule';
import { LINE_MAX_COLUMNS, linesOf, recognise, RecognitionFailed, speechSources, subtitleCues, type RecognitionDeps, type SpeechSource } from './speech';
import { placeSubtitles } from './srt';

const word = (w: string, start: number, end: number): HeardWord => ({ word: w, startMs: start, endMs: end });

describe('linesOf', () => {
  it('ends a line at a pause, before it grows too long and before it lasts too long', () => {
    const w = (text: string, start: number, end: number) => ({ word: text, start, end });
    expect(linesOf([w('hello', 0, 0.4), w('there', 0.45, 0.8), w('again', 1.5, 1.9)]).map((l) => l.text)).toEqual(['hello there', 'again']);
    const many = Array.from({ length: 12 }, (_, i) => w('word', i * 0.3, i * 0.3 + 0.25));
    const lines = linesOf(many);
    expect(lines.length).toBeGreaterThan(1);
    expect(lines.every((l) => l.text.length <= LINE_MAX_COLUMNS)).toBe(true);
    expect(lines.map((l) => l.text).join(' ')).toBe(many.map((m) => m.word).join(' '));
    const slow = Array.from({ length: 8 }, (_, i) => w('a', i, i + 0.9));
    expect(linesOf(slow).every((l) => l.end - l.start <= 6)).toBe(true);
    expect(linesOf([w('你好', 0, 0.5), w('世界', 0.5, 1)]).map((l) => l.text)).toEqual(['你好世界']);
  });
});

describe('subtitleCues', () => {
  const words = [word('before', 500, 900), word('hello', 2100, 2500), word('world', 2550, 3000), word('later', 6200, 6600)];
  it('moves the words heard inside the cut to where the layer plays them', () => {
    // A clip cut from 2 s to 5 s in its material, playing from 10 s on the document.
    const source: SpeechSource = { key: 'video:3', kind: 'video', materialId: 'm', name: '1', at: 10, from: 2, to: 5 };
    expect(subtitleCues(words, source)).toEqual([{ text: 'hello world', start: 10.1, end: 11 }]);
  });

  it('shaves each end and drops what passes the document through the SRT placement', () => {
    const source: SpeechSource = { key: 'voice:0', kind: 'voice', materialId: 'v', name: 'dub', at: 1, from: 0, to: 7 };
    const cues = subtitleCues(words, source);
    expect(cues.map((c) => [c.text, c.start, c.end])).toEqual([
      ['before', 1.5, 1.9],
      ['hello world', 3.1, 4],
      ['later', 7.2, 7.6],
    ]);
    const { placed, dropped } = placeSubtitles([3, 3], cues);
    expect(dropped).toBe(1);
    expect(placed).toEqual([
      { scene: 0, start: 1.5, end: 1.85, text: 'before' },
      { scene: 1, start: 0.1, end: 0.95, text: 'hello world' },
    ]);
  });
});

describe('speechSources', () => {
  it('lists video layers with their scene offset and in point, and voice items', () => {
    const doc = {
      scenes: [
        { timeLength: 4, layers: [{ type: 'word', id: 1 }] },
        { timeLength: 5, layers: [{ type: 'video', id: 7, materialId: 'm7', startTime: 1, endTime: 4, cutInfo: { start: 2.5, end: 5.5 } }] },
      ],
      audio: [
        { type: 'audio', id: 'music', name: 'song', start: 0, end: 0, startTime: 0, endTime: 9 },
        { type: 'voice', id: 'd1', name: '配音：你好', start: 0.5, end: 0, startTime: 2, endTime: 4 },
      ],
    } as unknown as Rule;
    expect(speechSources(doc)).toEqual([
      { key: 'voice:1', kind: 'voice', materialId: 'd1', name: '配音：你好', at: 2, from: 0.5, to: 2.5 },
      { key: 'video:7', kind: 'video', materialId: 'm7', name: '2', at: 5, from: 2.5, to: 5.5 },
    ]);
  });
});

const state = (status: number, reason = ''): TaskState => ({
  taskId: 4,
  status,
  percent: status === 10 ? 100 : 30,
  stage: status === 10 ? 'done' : 'rendering',
  framesDone: 0,
  framesTotal: 0,
  etaSeconds: 0,
  videoRelativePath: '',
  reason,
});
const TRANSCRIPT: Transcript = { language: 'en', text: 'hello', words: [word('hello', 0, 400)], durationMs: 1000, model: 'pocketsphinx en-us' };

function deps(states: TaskState[]): RecognitionDeps & { read: jest.Mock } {
  const read = jest.fn(async () => TRANSCRIPT);
  return { start: jest.fn(async () => ({ taskId: 4 })), watch: async (_id, h) => states.forEach((s) => h.onState(s)), transcript: read, read };
}

describe('recognise', () => {
  it('follows the run and answers its transcript', async () => {
    const d = deps([state(1), state(10)]);
    await expect(recognise({ materialId: 'm', language: 'en' }, { onStarted: () => {}, onState: () => {} }, new AbortController().signal, d)).resolves.toEqual(TRANSCRIPT);
    expect(d.read).toHaveBeenCalledWith(4);
  });

  it('says why a run failed and reads nothing', async () => {
    const d = deps([state(1), state(9, 'speech recognition: no speech was heard in the sound')]);
    const run = recognise({ materialId: 'm', language: 'en' }, { onStarted: () => {}, onState: () => {} }, new AbortController().signal, d);
    await expect(run).rejects.toBeInstanceOf(RecognitionFailed);
    await expect(run).rejects.toMatchObject({ reason: 'speech recognition: no speech was heard in the sound' });
    expect(d.read).not.toHaveBeenCalled();
  });

  it('passes a refusal on as it came', async () => {
    const d = deps([]);
    const refusal = new ApiError({ kind: 'business', url: '/ASR/voiceToText', code: 3000, desc: 'not-configured: no Mandarin speech model', message: 'x', data: { reason: 'not-configured', field: 'language' } });
    d.start = async () => Promise.reject(refusal);
    await expect(recognise({ materialId: 'm', language: 'cmn' }, { onStarted: () => {}, onState: () => {} }, new AbortController().signal, d)).rejects.toBe(refusal);
  });
});
