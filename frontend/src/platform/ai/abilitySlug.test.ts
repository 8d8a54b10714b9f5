import { parseAbilitySlug } from './abilitySlug';

describe('parseAbilitySlug', () => {
  it('splits kind and ability', () => {
    expect(parseAbilitySlug('create-text-to-image')).toEqual({ kind: 'create', ability: 'text-to-image' });
    expect(parseAbilitySlug('analyze-keyword')).toEqual({ kind: 'analyze', ability: 'keyword' });
  });

  it('rejects other kinds and empty abilities', () => {
    expect(parseAbilitySlug('other-gesture')).toBeNull();
    expect(parseAbilitySlug('create-')).toBeNull();
    expect(parseAbilitySlug(undefined)).toBeNull();
  });
});
