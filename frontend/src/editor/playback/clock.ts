/**
 * The playhead's clock: the current document time, playing or paused, and whether the user is
 * scrubbing. It ticks every animation frame while playing, so it lives outside Redux (the store
 * holds no timers, and a change per frame would wake every view); views read it through
 * `useSyncExternalStore` and only the ones that show the time re-render.
 */

/** What the clock says. */
export interface ClockState {
  /** Document time, seconds. */
  time: number;
  playing: boolean;
  /** The playhead is being dragged: the stage shows the frame under it. */
  scrubbing: boolean;
}

/** Where the clock reads the time and asks for the next frame (the browser's, or a test's). */
export interface ClockHost {
  now: () => number;
  frame: (tick: () => void) => number;
  cancel: (handle: number) => void;
}

const browserHost: ClockHost = {
  now: () => performance.now(),
  frame: (tick) => requestAnimationFrame(tick),
  cancel: (handle) => cancelAnimationFrame(handle),
};

/** A playhead clock; `duration` is the document's length. */
export class PlaybackClock {
  private state: ClockState = { time: 0, playing: false, scrubbing: false };
  private listeners = new Set<() => void>();
  private duration = 0;
  private startedAt = 0;
  private startTime = 0;
  private handle: number | null = null;

  constructor(private readonly host: ClockHost = browserHost) {}

  /** Subscribes to changes; returns the unsubscribe. */
  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** The current state (a new object after each change). */
  get = (): ClockState => this.state;

  /** Sets the document's length; a playhead past it comes back to it. */
  setDuration(duration: number): void {
    this.duration = Math.max(0, duration);
    if (this.state.time > this.duration) this.seek(this.duration);
  }

  /** Starts playing from the playhead (from the start when it is at the end). */
  play(): void {
    if (this.state.playing || this.duration <= 0) return;
    const time = this.state.time >= this.duration - 1e-3 ? 0 : this.state.time;
    this.startTime = time;
    this.startedAt = this.host.now();
    this.set({ time, playing: true });
    this.handle = this.host.frame(this.tick);
  }

  /** Stops at the current time. */
  pause(): void {
    if (!this.state.playing) return;
    if (this.handle !== null) this.host.cancel(this.handle);
    this.handle = null;
    this.set({ time: this.elapsed(), playing: false });
  }

  /** Plays or pauses. */
  toggle(): void {
    if (this.state.playing) this.pause();
    else this.play();
  }

  /** Moves the playhead (kept inside the document); playing goes on from there. */
  seek(time: number): void {
    const t = Math.min(Math.max(Number.isFinite(time) ? time : 0, 0), this.duration);
    this.startTime = t;
    this.startedAt = this.host.now();
    this.set({ time: t });
  }

  /** Marks the start or end of a scrub. */
  setScrubbing(scrubbing: boolean): void {
    if (scrubbing !== this.state.scrubbing) this.set({ scrubbing });
  }

  private elapsed(): number {
    return Math.min(this.startTime + (this.host.now() - this.startedAt) / 1000, this.duration);
  }

  private tick = (): void => {
    this.handle = null;
    if (!this.state.playing) return;
    const time = this.elapsed();
    if (time >= this.duration) {
      this.set({ time: this.duration, playing: false });
      return;
    }
    this.set({ time });
    this.handle = this.host.frame(this.tick);
  };

  private set(change: Partial<ClockState>): void {
    this.state = { ...this.state, ...change };
    for (const l of this.listeners) l();
  }
}
