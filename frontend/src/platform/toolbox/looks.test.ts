import { BUILT_TOOLS, builtToolOf, inputProblems, paramProblems, upscaleSize, type InputFacts } from './params';

const clip: InputFacts = { durationMs: 4_000, bytes: 1_000_000, width: 320, height: 180, hasAudio: true, kind: 'video' };
const deck: InputFacts = { durationMs: 0, bytes: 30_000, width: 0, height: 0, hasAudio: false, kind: 'pptx' };
const fields = (problems: { field: string }[]) => problems.map((p) => p.field);
const limits = { maxInputBytes: 0, maxInputSeconds: 0 };

describe('ppt, beauty and upscale options', () => {
  it('maps their pages and takes a pptx for the ppt page', () => {
    expect(['ppt', 'intelligent-beauty', 'ai-recover-video'].map((p) => builtToolOf(p)?.type)).toEqual(['PPT_CONVERTER', 'VIDEO_BEAUTY', 'INCREASE_RESOLUTION']);
    expect(inputProblems(BUILT_TOOLS.PPT_CONVERTER, deck, limits)).toEqual([]);
    expect(inputProblems(BUILT_TOOLS.PPT_CONVERTER, clip, limits)).toEqual([{ field: 'materialIds', key: 'toolboxLooks.problem.needsPptx' }]);
  });

  it('names the parameter of each problem as the server does', () => {
    const slides = BUILT_TOOLS.PPT_CONVERTER.defaults(deck);
    expect(paramProblems('PPT_CONVERTER', slides, deck)).toEqual([]);
    expect(fields(paramProblems('PPT_CONVERTER', { ...slides, secondsPerPage: 0.2 }, deck))).toEqual(['params.secondsPerPage']);
    expect(fields(paramProblems('PPT_CONVERTER', { ...slides, secondsPerPage: 1, crossfadeMs: 1_000 }, deck))).toEqual(['params.crossfadeMs']);
    const look = BUILT_TOOLS.VIDEO_BEAUTY.defaults(clip);
    expect(fields(paramProblems('VIDEO_BEAUTY', { ...look, strength: 101, warmth: -101 }, clip))).toEqual(['params.strength', 'params.warmth']);
    const up = BUILT_TOOLS.INCREASE_RESOLUTION.defaults(clip);
    expect(paramProblems('INCREASE_RESOLUTION', up, clip)).toEqual([]);
    expect(fields(paramProblems('INCREASE_RESOLUTION', up, { ...clip, width: 2_560, height: 1_440 }))).toEqual(['params.target']);
  });

  it('sizes an upscale as the server does', () => {
    expect(upscaleSize('2x', clip)).toEqual({ width: 640, height: 360 });
    expect(upscaleSize('1080p', { width: 360, height: 640 })).toEqual({ width: 1_080, height: 1_920 });
    expect(upscaleSize('1080p', { width: 1_920, height: 1_080 })).toBeNull();
  });
});
