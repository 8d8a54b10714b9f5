import { PlaybackClock, type ClockHost } from './clock';

function fakeHost() {
  let now = 0;
  let queued: (() => void) | null = null;
  const host: ClockHost = {
    now: () => now,
    frame: (tick) => {
      queued = tick;
      return 1;
    },
    cancel: () => {
      queued = null;
    },
  };
  const advance = (ms: number) => {
    now += ms;
    const tick = queued;
    queued = null;
    tick?.();
  };
  return { host, advance };
}

describe('the playhead clock', () => {
  it('plays from the playhead at real speed and stops at the end', () => {
    const { host, advance } = fakeHost();
    const clock = new PlaybackClock(host);
    clock.setDuration(3);
    clock.seek(1);
    clock.play();
    advance(500);
    expect(clock.get()).toMatchObject({ time: 1.5, playing: true });
    advance(2000);
    expect(clock.get()).toMatchObject({ time: 3, playing: false });
  });

  it('plays from the start again when at the end; pause keeps the time', () => {
    const { host, advance } = fakeHost();
    const clock = new PlaybackClock(host);
    clock.setDuration(2);
    clock.seek(5);
    expect(clock.get().time).toBe(2);
    clock.toggle();
    advance(250);
    clock.toggle();
    expect(clock.get()).toMatchObject({ time: 0.25, playing: false });
  });

  it('tells its listeners, and seeks while playing', () => {
    const { host, advance } = fakeHost();
    const clock = new PlaybackClock(host);
    const seen: number[] = [];
    const stop = clock.subscribe(() => seen.push(clock.get().time));
    clock.setDuration(10);
    clock.play();
    advance(100);
    clock.seek(5);
    advance(100);
    stop();
    advance(100);
    expect(seen.map((t) => Math.round(t * 10) / 10)).toEqual([0, 0.1, 5, 5.1]);
  });
});
