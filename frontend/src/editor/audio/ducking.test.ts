import type { Material } from '@/api/material';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import { musicItem, voiceItem } from './audioCommands';
import { duckAmount, duckGain, voiceSpans } from './ducking';

const m = (duration: number) => ({ id: 'a', materialName: 'a', url: '', duration }) as Material;
const { duckAttackS: attack, duckReleaseS: release, duckDepthDb } = CATALOGUE.audio;

describe('ducking in the page', () => {
  it('spans a voice as long as its source sounds, and merges voices closer than attack + release', () => {
    const short = { ...voiceItem(m(2), 1), endTime: 6 };
    expect(voiceSpans([short], 10)).toEqual([[1, 3]]);
    const next = voiceItem(m(1), 3 + attack + release - 0.01);
    expect(voiceSpans([next, short], 10)).toEqual([[1, next.endTime]]);
    expect(voiceSpans([voiceItem(m(1), 1), voiceItem(m(1), 5)], 10)).toEqual([[1, 2], [5, 6]]);
    expect(voiceSpans([{ ...voiceItem(m(1), 1), volume: 0 }, musicItem(m(5), 10)], 10)).toEqual([]);
  });

  it('goes down over the attack, holds, and comes back over the release', () => {
    const spans: Array<[number, number]> = [[2, 4]];
    expect(duckAmount(spans, 2 - attack - 0.01)).toBe(0);
    expect(duckAmount(spans, 2 - attack / 2)).toBeCloseTo(0.5);
    expect(duckAmount(spans, 3)).toBe(1);
    expect(duckAmount(spans, 4 + release / 2)).toBeCloseTo(0.5);
    expect(duckAmount(spans, 4 + release)).toBe(0);
  });

  it('lowers ducked music by its depth and leaves voices and unducked music alone', () => {
    const music = musicItem(m(20), 10);
    const spans: Array<[number, number]> = [[2, 4]];
    expect(20 * Math.log10(duckGain(music, spans, 3))).toBeCloseTo(-duckDepthDb);
    expect(duckGain({ ...music, duck: false }, spans, 3)).toBe(1);
    expect(duckGain(voiceItem(m(2), 2), spans, 3)).toBe(1);
    expect(duckGain(music, spans, 6)).toBe(1);
  });
});
