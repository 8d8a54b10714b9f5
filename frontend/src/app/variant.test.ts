import { currentVariant, resolveVariant, setCurrentVariant } from './variant';

describe('resolveVariant', () => {
  it('defaults to qs', () => {
    expect(resolveVariant({ search: '', hash: '' }, undefined)).toBe('qs');
  });

  it('reads ?variant= from the query string first', () => {
    expect(resolveVariant({ search: '?variant=cc', hash: '#/?variant=migu' }, { variant: 'cu' })).toBe('cc');
  });

  it('reads ?variant= inside the hash', () => {
    expect(resolveVariant({ search: '', hash: '#/diy?variant=MIGU' }, undefined)).toBe('migu');
  });

  it('falls back to the runtime config and ignores unknown values', () => {
    expect(resolveVariant({ search: '?variant=nope', hash: '' }, { variant: 'cu' })).toBe('cu');
    expect(resolveVariant({ search: '', hash: '' }, { variant: 'zz' })).toBe('qs');
  });
});

describe('currentVariant', () => {
  afterEach(() => setCurrentVariant(null));

  it('resolves from window once', () => {
    window.__REELFORGE__ = { variant: 'cc' };
    expect(currentVariant()).toBe('cc');
    window.__REELFORGE__ = { variant: 'cu' };
    expect(currentVariant()).toBe('cc');
    delete window.__REELFORGE__;
  });
});
