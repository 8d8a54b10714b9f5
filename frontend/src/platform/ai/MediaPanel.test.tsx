import { DEFAULT_MEDIA_OPTIONS, isMediaAbility, MEDIA_ABILITIES, mediaParams } from './MediaPanel';

describe('media abilities', () => {
  it('maps each ability to its tool run and its options to the parameters the server takes', () => {
    expect(Object.keys(MEDIA_ABILITIES)).toHaveLength(5);
    expect(MEDIA_ABILITIES['video-highlight-extraction']).toBe('INTELLIGENT_TASK');
    expect(isMediaAbility('gain-control')).toBe(true);
    expect(isMediaAbility('text-generation')).toBe(false);
    const o = { ...DEFAULT_MEDIA_OPTIONS, targetSeconds: 12.5, count: 5, picture: 'png' as const, sound: 'wav' as const, video: false };
    expect(mediaParams('video-highlight-extraction', o)).toEqual({ targetMs: 12500 });
    expect(mediaParams('cover-generation', o)).toEqual({ count: 5, format: 'png' });
    expect(mediaParams('audio-noise-reduction', o)).toEqual({ level: 'high', format: 'wav', video: false });
    expect(mediaParams('echo-cancellation', { ...o, level: 'low' })).toEqual({ level: 'low', format: 'wav', video: false });
    expect(mediaParams('gain-control', { ...o, targetLufs: -20 })).toEqual({ targetLufs: -20, format: 'wav', video: false });
  });
});
