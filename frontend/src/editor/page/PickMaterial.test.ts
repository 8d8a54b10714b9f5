import { material } from '@/test/materials';
import { layerOf } from './PickMaterial';

describe('layerOf', () => {
  it('makes a still special effect an effect layer, a moving one a GIF overlay of the stage', () => {
    expect(layerOf(material('b', { type: 'specialEffects', codec: 'PNG', duration: 0 }))).toMatchObject({ kind: 'effect', materialId: 'b' });
    expect(layerOf(material('s', { type: 'specialEffects', codec: 'GIF', duration: 1.28 }))).toMatchObject({ kind: 'picture', gif: true, cover: true });
  });

  it('places pictures at their size and refuses kinds with no layer', () => {
    expect(layerOf(material('p'))).not.toHaveProperty('cover');
    expect(layerOf(material('a', { type: 'audio' }))).toBeNull();
  });
});
