/**
 * The document's music (`rule.audio`) in step with the playhead: each item plays over its
 * placement (`startTime`–`endTime` on the document), from its cut (`start`–`end` in the source),
 * looped when `isLoop`, at its volume with its fades, music ducked under the voice-overs as the
 * render ducks it (the browser's volume at most 1); an item without an address plays its
 * material's signed one.
 */
import { useEffect, useMemo, useRef } from 'react';
import { useMaterialInfo } from '@/api/material';
import { duckGain, voiceSpans } from '@/editor/audio/ducking';
import type { AudioItem } from '@/editor/model/gen/AudioItem';
import { sliderToGain } from '@/editor/model/volume';
import { useMediaSync } from './useMediaSync';

/** Returns the source time of an item at a document time, or null when it is silent then. */
export function musicSourceTime(item: AudioItem, time: number, duration: number): number | null {
  const end = item.endTime > item.startTime ? item.endTime : duration;
  if (time < item.startTime || time >= end) return null;
  const cutEnd = item.end > item.start ? item.end : item.len > item.start ? item.len : null;
  const into = time - item.startTime;
  if (cutEnd === null) return item.start + into;
  const span = cutEnd - item.start;
  if (into < span) return item.start + into;
  return item.isLoop && span > 0 ? item.start + (into % span) : null;
}

/** Returns an item's gain at a document time: its volume with the fade-in and fade-out ramps. */
export function musicGain(item: AudioItem, time: number, duration: number): number {
  const end = item.endTime > item.startTime ? item.endTime : duration;
  const fadeIn = item.fadeInTime > 0 ? Math.min(1, (time - item.startTime) / item.fadeInTime) : 1;
  const fadeOut = item.fadeOutTime > 0 ? Math.min(1, (end - time) / item.fadeOutTime) : 1;
  return Math.max(0, sliderToGain(item.volume) * Math.min(fadeIn, fadeOut));
}

function MusicItem({ item, spans, time, playing, fps, duration }: { item: AudioItem; spans: Array<[number, number]>; time: number; playing: boolean; fps: number; duration: number }) {
  const ref = useRef<HTMLAudioElement>(null);
  const target = musicSourceTime(item, time, duration);
  useMediaSync(ref, target, playing, fps);
  const gain = Math.min(1, musicGain(item, time, duration) * duckGain(item, spans, time));
  useEffect(() => {
    if (ref.current) ref.current.volume = gain;
  }, [gain]);
  // An opened task's addresses are signed afresh; an item saved without one plays its material's.
  const info = useMaterialInfo(item.src || item.id === undefined || item.id === '' ? null : String(item.id));
  return <audio ref={ref} src={item.src || info.data?.url} preload="auto" data-testid="music-audio" />;
}

export function MusicPlayer({ items, time, playing, fps, duration }: { items: AudioItem[]; time: number; playing: boolean; fps: number; duration: number }) {
  const spans = useMemo(() => voiceSpans(items, duration), [items, duration]);
  return (
    <>
      {items.map((item, i) => (
        <MusicItem key={i} item={item} spans={spans} time={time} playing={playing} fps={fps} duration={duration} />
      ))}
    </>
  );
}
