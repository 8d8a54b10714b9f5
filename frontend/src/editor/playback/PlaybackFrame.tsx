/**
 * The frame under the playhead on the stage. It re-draws when the playhead enters another frame of
 * the document, not at every tick of the clock: at 25 fps on a 60 Hz screen that is less than half
 * the ticks, and a tick that draws nothing new leaves the browser's frame to the videos.
 */
import { useMemo } from 'react';
import { useEditorSelector } from '@/editor/page/useEditor';
import { selectDuration } from '@/editor/state/selectors';
import { frameAtTime, frameRateOf, timelineOf } from './frame';
import { FrameView } from './FrameView';
import { MusicPlayer } from './MusicPlayer';
import { useClock, usePlaybackPart } from './usePlayback';

export function PlaybackFrame({ scale, outputPx }: { scale: number; outputPx: number }) {
  const doc = useEditorSelector((s) => s.doc);
  const duration = useEditorSelector(selectDuration);
  const timeline = useMemo(() => timelineOf(doc), [doc]);
  const clock = useClock();
  // The frame (and the playing flag) wake this view; the time it draws is the clock's at that moment.
  usePlaybackPart((s) => frameAtTime(timeline, s.time));
  const playing = usePlaybackPart((s) => s.playing);
  const { time } = clock.get();
  return (
    <>
      <FrameView doc={doc} timeline={timeline} time={time} playing={playing} scale={scale} outputPx={outputPx} />
      <MusicPlayer items={doc.audio} time={time} playing={playing} fps={frameRateOf(doc).num} duration={duration} />
    </>
  );
}
