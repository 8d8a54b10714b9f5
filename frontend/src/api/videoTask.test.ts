import { parseProblems } from './videoTask';

describe('parseProblems', () => {
  it('splits the server list into path and message, keeping a tail without a path', () => {
    expect(parseProblems('scenes[0].layers[1].w: must be positive; scenes[1].timeLength: below 2 s; and 3 more')).toEqual([
      { path: 'scenes[0].layers[1].w', message: 'must be positive' },
      { path: 'scenes[1].timeLength', message: 'below 2 s' },
      { path: '', message: 'and 3 more' },
    ]);
  });

  it('keeps a sentence that names no path whole', () => {
    expect(parseProblems('taskInfo: expected value at line 1')).toEqual([{ path: 'taskInfo', message: 'expected value at line 1' }]);
    expect(parseProblems('the document is not valid: x')).toEqual([{ path: '', message: 'the document is not valid: x' }]);
    expect(parseProblems('the document is empty')).toEqual([{ path: '', message: 'the document is empty' }]);
  });
});
