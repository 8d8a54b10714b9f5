import { BUILT_TOOLS, builtToolOf, intervalPictures, paramProblems, type InputFacts } from './params';

const clip: InputFacts = { durationMs: 5_200, bytes: 1_000_000, width: 320, height: 180, hasAudio: false, kind: 'video' };
const fields = (problems: { field: string }[]) => problems.map((p) => p.field);

describe('ai-frame-cut options', () => {
  it('maps the page to VIDEO_KEY_FRAMES, one picture per scene to start with', () => {
    expect(builtToolOf('ai-frame-cut')?.type).toBe('VIDEO_KEY_FRAMES');
    expect(BUILT_TOOLS.VIDEO_KEY_FRAMES.defaults(clip)).toEqual({ mode: 'scenes', sensitivity: 60, minSceneMs: 1_000 });
  });

  it('counts an interval’s pictures as the server does and names each problem’s parameter', () => {
    expect(intervalPictures(1_000, 5_200)).toBe(6);
    expect(intervalPictures(1_000, 5_000)).toBe(5);
    expect(paramProblems('VIDEO_KEY_FRAMES', { mode: 'interval', everyMs: 1_000 }, clip)).toEqual([]);
    expect(fields(paramProblems('VIDEO_KEY_FRAMES', { mode: 'interval', everyMs: 100 }, clip))).toEqual(['params.everyMs']);
    const long = { ...clip, durationMs: 120_000 };
    expect(paramProblems('VIDEO_KEY_FRAMES', { mode: 'interval', everyMs: 1_000 }, long)).toEqual([
      { field: 'params.everyMs', key: 'toolboxFrames.problem.tooManyPictures', values: { max: 100, seconds: 1.2 } },
    ]);
    expect(fields(paramProblems('VIDEO_KEY_FRAMES', { mode: 'scenes', sensitivity: 0, minSceneMs: 1_000 }, clip))).toEqual(['params.sensitivity']);
  });
});
