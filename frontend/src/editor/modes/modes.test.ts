import { makeStore } from '@/app/store';
import type { AudioItem } from '@/editor/model/gen/AudioItem';
import type { Layer } from '@/editor/model/gen/Layer';
import type { Rule } from '@/editor/model/gen/Rule';
import { buildLayer, DEFAULT_TASK_NAME, MAX_SCENES, newRule, newScene } from '@/editor/state/defaults';
import { editorActions as a } from '@/editor/state/editorSlice';
import { clearedRule, modeOf, slotCounts, slotKindOf, submitBlock } from './modes';

const stage = newRule().resolutionRatio;
const text = (id: number, extra: Partial<Layer> = {}) => ({ ...buildLayer({ kind: 'text', size: 'TOP' }, id, 100, [0, 3], stage), ...extra }) as Layer;
const picture = (id: number, extra: Partial<Layer> = {}) => ({ ...buildLayer({ kind: 'picture', src: 'a.png' }, id, 101, [0, 3], stage), ...extra }) as Layer;
const video = (id: number, extra: Partial<Layer> = {}) => ({ ...buildLayer({ kind: 'video', src: 'a.mp4' }, id, 102, [0, 3], stage), ...extra }) as Layer;

function ruleWith(layers: Layer[]): Rule {
  const rule = newRule();
  rule.scenes[0]!.layers = layers;
  return rule;
}

describe('modes (spec editor-core §2 usedFor)', () => {
  it('knows the five modes and reads anything else as a plain work', () => {
    expect(modeOf('TASK_TEMPLATE')).toMatchObject({ templateKind: 'classic', slots: true, cardFields: false, ruleType: 'VIDEO_EDIT' });
    expect(modeOf('AI_TEMPLATE').templateKind).toBe('ai');
    expect(modeOf('business_card_template')).toMatchObject({ templateKind: 'businessCard', cardFields: true });
    expect(modeOf('IVVR')).toMatchObject({ templateKind: 'ivvr', ruleType: 'IVVR', keepAudioOnClear: true });
    expect(modeOf('ALL')).toMatchObject({ templateKind: null, slots: false });
    expect(modeOf('').usedFor).toBe('ALL');
    expect(modeOf('SOMETHING').usedFor).toBe('ALL');
  });

  it('maps layer kinds to slot kinds as the server does (layout::slot_kind)', () => {
    expect(slotKindOf('word')).toBe('text');
    expect(slotKindOf('artWord')).toBe('text');
    expect(slotKindOf('dynamicWord')).toBeNull();
    expect(slotKindOf('gif')).toBe('picture');
    expect(slotKindOf('video')).toBe('video');
    expect(slotKindOf('shape')).toBeNull();
  });

  it('counts replaceable layers, group members included, and only canModify 1', () => {
    const rule = ruleWith([
      text(1, { canModify: 1 }),
      text(2),
      picture(3, { canModify: 1 }),
      video(4, { canModify: 1 }),
      {
        ...buildLayer({ kind: 'shape', shape: 'rect' }, 5, 104, [0, 3], stage),
        type: 'group',
        groupType: 'always',
        attachList: [text(6, { canModify: 1 }), picture(7, { canModify: 1, type: 'gif' } as Partial<Layer>)],
      } as unknown as Layer,
    ]);
    expect(slotCounts(rule)).toEqual({ text: 2, picture: 2, video: 1 });
  });

  it('says what blocks submitting: no slot, or a card without a card field', () => {
    const none = ruleWith([text(1)]);
    expect(submitBlock(none, modeOf('TASK_TEMPLATE'))).toBe('noSlot');
    expect(submitBlock(none, modeOf('ALL'))).toBe('notTemplate');
    const slotted = ruleWith([text(1, { canModify: 1 })]);
    expect(submitBlock(slotted, modeOf('TASK_TEMPLATE'))).toBeNull();
    expect(submitBlock(slotted, modeOf('BUSINESS_CARD_TEMPLATE'))).toBe('noCardField');
    expect(submitBlock(ruleWith([text(1, { canModify: 1, cardField: 1 } as Partial<Layer>)]), modeOf('BUSINESS_CARD_TEMPLATE'))).toBeNull();
  });

  it('clears to one blank scene, keeping the frame size, and the audio only for IVVR', () => {
    const rule = ruleWith([text(1)]);
    rule.scenes.push(newScene(2));
    rule.audio = [{ id: 'm1', src: 'a.mp3' } as unknown as AudioItem];
    const plain = clearedRule(rule, modeOf('ALL'));
    expect(plain.scenes).toHaveLength(1);
    expect(plain.scenes[0]!.layers).toEqual([]);
    expect(plain.audio).toEqual([]);
    expect(plain.resolutionRatio).toEqual(rule.resolutionRatio);
    expect(clearedRule(rule, modeOf('IVVR')).audio).toHaveLength(1);
  });
});

describe('mode commands of the editor slice', () => {
  const setup = (usedFor?: string) => {
    const store = makeStore();
    store.dispatch(a.newDocument(usedFor ? { usedFor } : undefined));
    return { store, s: () => store.getState().editor };
  };

  it('starts an IVVR document with ruleType IVVR, other modes with VIDEO_EDIT', () => {
    expect(setup('IVVR').s().doc.ruleType).toBe('IVVR');
    expect(setup('TASK_TEMPLATE').s().doc.ruleType).toBe('VIDEO_EDIT');
    expect(setup().s().usedFor).toBe('ALL');
  });

  it('clearTask empties the document in one undo step and resets the name', () => {
    const { store, s } = setup('IVVR');
    store.dispatch(a.renameTask('我的铃声'));
    store.dispatch(a.addLayer({ kind: 'text', size: 'TOP' }));
    store.dispatch(a.addScene());
    const audio = [{ id: 'm1', src: 'a.mp3' } as unknown as AudioItem];
    store.dispatch(a.loaded({ rule: { ...s().doc, audio }, name: '我的铃声', usedFor: 'IVVR' }));
    store.dispatch(a.clearTask());
    expect(s().doc.scenes).toHaveLength(1);
    expect(s().doc.scenes[0]!.layers).toEqual([]);
    expect(s().doc.audio).toEqual(audio);
    expect(s().name).toBe(DEFAULT_TASK_NAME);
    expect(s().sceneId).toBe(s().doc.scenes[0]!.frontendId);
    store.dispatch(a.undo());
    expect(s().doc.scenes).toHaveLength(2);
  });

  it('clearTask drops the audio of a plain work', () => {
    const { store, s } = setup();
    store.dispatch(a.loaded({ rule: { ...s().doc, audio: [{ id: 'm1' } as unknown as AudioItem] } }));
    store.dispatch(a.clearTask());
    expect(s().doc.audio).toEqual([]);
  });

  it('refuses scenes past the limit the server set, kept across documents', () => {
    const { store, s } = setup();
    expect(s().maxScenes).toBe(MAX_SCENES);
    store.dispatch(a.setSceneLimit(3));
    store.dispatch(a.newDocument());
    expect(s().maxScenes).toBe(3);
    store.dispatch(a.addScene());
    store.dispatch(a.addScene());
    store.dispatch(a.addScene());
    store.dispatch(a.duplicateScene({ id: s().sceneId }));
    expect(s().doc.scenes).toHaveLength(3);
    store.dispatch(a.setSceneLimit(0));
    expect(s().maxScenes).toBe(3);
  });
});
