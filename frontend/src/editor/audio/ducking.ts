/**
 * The render's ducking (services/render/src/mix.rs `Ducking`, engine/audio.rs) in seconds, so the
 * page's playback lowers music under voice-overs as the MP4 will: the voices' spans (from where each
 * starts to where its sound ends; an unlooped voice stops with its source), merged when closer than
 * attack + release, and music going down linearly over the attack before a span and back over the
 * release after it.
 */
import type { AudioItem } from '@/editor/model/gen/AudioItem';
import { CATALOGUE } from '@/editor/model/gen/catalogue';
import { sliderToGain } from '@/editor/model/volume';

/** Returns the merged [start, end) spans, seconds, where the document's voices sound. */
export function voiceSpans(items: ReadonlyArray<AudioItem>, duration: number): Array<[number, number]> {
  const { duckAttackS: attack, duckReleaseS: release } = CATALOGUE.audio;
  const spans = items
    .filter((v) => v.type === 'voice' && sliderToGain(v.volume) > 0)
    .map((v): [number, number] => {
      const start = Math.max(0, v.startTime);
      const placed = (v.endTime > v.startTime ? v.endTime : duration) - start;
      const cutEnd = v.end > v.start ? v.end : v.len;
      const source = cutEnd > v.start ? cutEnd - v.start : placed;
      return [start, start + (v.isLoop ? placed : Math.min(placed, source))];
    })
    .filter(([a, b]) => b > a)
    .sort((x, y) => x[0] - y[0]);
  const merged: Array<[number, number]> = [];
  for (const [a, b] of spans) {
    const last = merged[merged.length - 1];
    if (last && a <= last[1] + attack + release) last[1] = Math.max(last[1], b);
    else merged.push([a, b]);
  }
  return merged;
}

/** Returns how far down music is at a time: 0 (not at all) to 1 (the full depth). */
export function duckAmount(spans: ReadonlyArray<[number, number]>, time: number): number {
  const { duckAttackS: attack, duckReleaseS: release } = CATALOGUE.audio;
  let d = 0;
  for (const [a, b] of spans) {
    if (time >= a && time < b) return 1;
    if (time >= b && time < b + release) d = Math.max(d, 1 - (time - b) / release);
    if (time >= a - attack && time < a) d = Math.max(d, 1 - (a - time) / attack);
  }
  return d;
}

/** Returns the gain factor ducking gives a music item at a time (1 for voices, unducked music and video audio). */
export function duckGain(item: AudioItem, spans: ReadonlyArray<[number, number]>, time: number): number {
  if (item.type === 'voice' || item.type === 'video' || !item.duck || spans.length === 0) return 1;
  const floor = 10 ** (-item.duckDepth / 20);
  return 1 - duckAmount(spans, time) * (1 - floor);
}
