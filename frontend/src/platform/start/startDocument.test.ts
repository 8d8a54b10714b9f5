import type { Layer } from '@/editor/model/gen/Layer';
import { material } from '@/test/materials';
import { fromJiancaiLink, idsParam } from './FromJiancaiPage';
import { blankRule, materialsProblem, materialsRule } from './startDocument';

const timed = (l: Layer) => l as Layer & { startTime: number; endTime: number; materialId?: string };

describe('blankRule', () => {
  it('is one blank scene of the chosen ratio in the chosen mode', () => {
    const rule = blankRule('9:16', 'TASK_TEMPLATE');
    expect(rule.resolutionRatio).toMatchObject({ name: '9:16', sizeId: 50 });
    expect(rule.resolutionRatio.height).toBeGreaterThan(rule.resolutionRatio.width);
    expect(rule.scenes).toHaveLength(1);
    expect(rule.scenes[0]?.layers).toEqual([]);
  });

  it('refuses a ratio the catalogue does not offer', () => {
    expect(() => blankRule('7:3', 'ALL')).toThrow('unknown ratio');
  });
});

describe('materialsRule', () => {
  const still = material('p1');
  const clip = material('v1', { type: 'video', duration: 7.5 });
  const gif = material('g1', { type: 'gif' });

  it('puts each material on its own scene, in order, a video as long as it plays', () => {
    const rule = materialsRule([still, clip, gif], '16:9', 'scenes');
    expect(rule.scenes.map((s) => s.layers.map((l) => timed(l).materialId))).toEqual([['p1'], ['v1'], ['g1']]);
    expect(rule.scenes.map((s) => s.timeLength)).toEqual([3, 7.5, 3]);
    expect(rule.scenes.map((s) => s.layers.map((l) => l.type))).toEqual([['picture'], ['video'], ['gif']]);
    // The document is saved as the editor saves it: no ticket in a material address, the first scene shown.
    expect(JSON.stringify(rule)).not.toContain('ticket');
    expect(JSON.stringify(rule)).toContain('/diyvrbt/material/file/v1/original');
    expect(rule.scenes.map((s) => s.isActive)).toEqual([true, false, false]);
  });

  it('lays materials one after another on a single scene', () => {
    const rule = materialsRule([still, clip, gif], '1:1', 'one');
    expect(rule.scenes).toHaveLength(1);
    const layers = rule.scenes[0]!.layers.map(timed);
    expect(layers.map((l) => [l.materialId, l.startTime, l.endTime])).toEqual([
      ['p1', 0, 3],
      ['v1', 3, 10.5],
      ['g1', 10.5, 13.5],
    ]);
    expect(rule.scenes[0]!.timeLength).toBe(13.5);
    expect(rule.resolutionRatio.name).toBe('1:1');
  });

  it('refuses a material that is no picture or video', () => {
    expect(() => materialsRule([material('a1', { type: 'audio' })], '16:9', 'one')).toThrow('cannot be placed');
  });
});

describe('materialsProblem', () => {
  it('names what keeps picked materials from starting a task', () => {
    expect(materialsProblem([], 'scenes')).toBe('none');
    expect(materialsProblem([material('1'), material('2'), material('3')], 'scenes', 2)).toBe('tooMany');
    expect(materialsProblem([material('1'), material('2'), material('3')], 'one', 2)).toBeNull();
    expect(materialsProblem([material('1', { state: 'processing' })], 'one')).toBe('notReady');
    expect(materialsProblem([material('1', { type: 'audio' })], 'one')).toBe('notPlaceable');
    expect(materialsProblem([material('1'), material('2', { type: 'video', duration: 4 })], 'scenes')).toBeNull();
  });
});

describe('idsParam', () => {
  it('reads the picked ids in order, each once, blanks dropped', () => {
    expect(idsParam(' b,a,,b , c')).toEqual(['b', 'a', 'c']);
    expect(idsParam(null)).toEqual([]);
    expect(fromJiancaiLink(['b', 'a c'])).toBe('/from-jiancai?ids=b,a%20c');
  });
});
