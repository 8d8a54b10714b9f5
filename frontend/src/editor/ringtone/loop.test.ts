import { climaxPatch, closingPlan, CROSSFADE, seamFade } from './loop';

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
