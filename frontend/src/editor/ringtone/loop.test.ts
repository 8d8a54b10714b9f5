import { climaxPatch, closingPlan, CROSSFADE, seamCrossfade, seamFade } from './loop';

describe('climaxPatch', () => {
  it('cuts the section the server found and spans the document', () => {
    expect(climaxPatch({ len: 60 }, 12_340, 15)).toEqual({ start: 12.34, end: 27.34, startTime: 0, endTime: 15, isLoop: false });
  });
  it('keeps the cut inside the track', () => {
    expect(climaxPatch({ len: 20 }, 18_000, 5)).toEqual({ start: 15, end: 20, startTime: 0, endTime: 5, isLoop: false });
  });
  it('loops a track shorter than the document from its start', () => {
    expect(climaxPatch({ len: 4 }, 0, 10)).toEqual({ start: 0, end: 0, startTime: 0, endTime: 10, isLoop: true });
  });
  it('refuses what cannot be applied', () => {
    expect(climaxPatch({ len: 60 }, Number.NaN, 10)).toBeNull();
    expect(climaxPatch({ len: 60 }, 1000, 0)).toBeNull();
  });
});

describe('seamFade', () => {
  it('is a tenth of the document, at most half a second', () => {
    expect(seamFade(3)).toEqual({ status: true, inTime: 0.3, outTime: 0.3 });
    expect(seamFade(15)).toEqual({ status: true, inTime: 0.5, outTime: 0.5 });
  });
  it('is off for an empty document', () => {
    expect(seamFade(0)).toEqual({ status: false, inTime: 0, outTime: 0 });
  });
});

describe('closingPlan', () => {
  it('takes the closing copy from the last scene, the document keeping its length', () => {
    expect(closingPlan([{ timeLength: 4 }, { timeLength: 6 }])).toEqual({ lastLength: 5, closing: 1, effectTime: 1 });
    expect(closingPlan([{ timeLength: 4 }, { timeLength: 1.5 }])).toEqual({ lastLength: 1, closing: 0.5, effectTime: 0.5 });
  });
  it('has nothing to do with one scene or a last scene too short', () => {
    expect(closingPlan([{ timeLength: 10 }])).toBeNull();
    expect(closingPlan([{ timeLength: 4 }, { timeLength: 0.3 }])).toBeNull();
  });
  it('crossfades with the catalogue’s overlay transition', () => {
    expect(CROSSFADE).toBe('OVERLAY');
  });
});

describe('seamCrossfade', () => {
  const music = {
    id: 'm1', type: 'audio', name: 'song', src: '/m1', start: 12, end: 27, scope: '', len: 60, startTime: 0, endTime: 15,
    volume: 100, originalVolume: -30, isLoop: false, fadeInTime: 0, fadeOutTime: 0, status: 0, duck: true, duckDepth: 12,
  };
  it('fades the item out and bridges the end with the music just before its cut', () => {
    const cross = seamCrossfade(music, 15);
    expect(cross?.patch).toEqual({ fadeOutTime: 1, fadeInTime: 0 });
    expect(cross?.bridge).toMatchObject({ id: 'm1', start: 11, end: 12, startTime: 14, endTime: 15, fadeInTime: 1, fadeOutTime: 0, isLoop: false, scope: 'loop-bridge' });
  });
  it('bridges no more than the cut leaves before it, and a quarter of the document', () => {
    expect(seamCrossfade({ ...music, start: 0.4 }, 15)?.bridge).toMatchObject({ start: 0, end: 0.4, startTime: 14.6 });
    expect(seamCrossfade(music, 2)?.patch).toEqual({ fadeOutTime: 0.5, fadeInTime: 0 });
  });
  it('has no bridge for a loop, a voice, a partial placement or a cut at the start', () => {
    expect(seamCrossfade({ ...music, isLoop: true }, 15)).toBeNull();
    expect(seamCrossfade({ ...music, type: 'voice' }, 15)).toBeNull();
    expect(seamCrossfade({ ...music, endTime: 10 }, 15)).toBeNull();
    expect(seamCrossfade({ ...music, start: 0 }, 15)).toBeNull();
  });
});
