import { currentVariant, resolveVariant, servedVariant, setCurrentVariant } from './variant';

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

  it("takes the variant the server named for the page's host after the address and the runtime config", () => {
    expect(resolveVariant({ search: '', hash: '' }, undefined, 'migu')).toBe('migu');
    expect(resolveVariant({ search: '?variant=cc', hash: '' }, undefined, 'migu')).toBe('cc');
    expect(resolveVariant({ search: '', hash: '' }, { variant: 'cu' }, 'migu')).toBe('cu');
    expect(resolveVariant({ search: '', hash: '' }, undefined, 'zz')).toBe('qs');
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

  it("reads the server's meta tag when nothing else names one", () => {
    const meta = document.createElement('meta');
    meta.name = 'reelforge-variant';
    meta.content = 'cu';
    document.head.appendChild(meta);
    try {
      expect(servedVariant(document)).toBe('cu');
      expect(currentVariant()).toBe('cu');
    } finally {
      meta.remove();
    }
    expect(servedVariant(document)).toBeNull();
  });
});
