import { api } from '@/api/client';
import { loadFontFace, resetFontFaces, styleFlags, testGlyphs, type FaceHost } from './fonts';

const REGULAR = { bold: false, italic: false };

afterEach(() => {
  jest.restoreAllMocks();
  resetFontFaces();
});

function host() {
  const loaded: { family: string; size: number }[] = [];
  // Faces are made with the weight and slant the layer draws them with.
  const added: unknown[] = [];
  const h: FaceHost = {
    make: (family, data, descriptors) => {
      const face = { family, load: async () => loaded.push({ family, size: data.byteLength, ...descriptors }) };
      return face;
    },
    add: (face) => added.push(face),
  };
  return { h, loaded, added };
}

describe('font faces', () => {
  it('fetches a library font file once and adds it as the face of its family', async () => {
    const get = jest.spyOn(api, 'get').mockResolvedValue({ arrayBuffer: async () => new ArrayBuffer(8) } as unknown as Blob);
    const { h, loaded, added } = host();
    await Promise.all([loadFontFace('sys-1', 'Noto Serif', REGULAR, h), loadFontFace('sys-1', 'Noto Serif', REGULAR, h)]);
    expect(get).toHaveBeenCalledTimes(1);
    expect(get).toHaveBeenCalledWith('/font/file/sys-1', undefined, { responseType: 'blob', silent: true });
    expect(loaded).toEqual([{ family: 'Noto Serif', size: 8, weight: '400', style: 'normal' }]);
    expect(added).toHaveLength(1);
  });

  it('tries a failed load again', async () => {
    const get = jest.spyOn(api, 'get').mockRejectedValueOnce(new Error('down')).mockResolvedValue({ arrayBuffer: async () => new ArrayBuffer(4) } as unknown as Blob);
    const { h, added } = host();
    await expect(loadFontFace('u-2', 'Mine', REGULAR, h)).rejects.toThrow('down');
    await loadFontFace('u-2', 'Mine', REGULAR, h);
    expect(get).toHaveBeenCalledTimes(2);
    expect(added).toHaveLength(1);
  });

  it('does nothing without the FontFace API or a font id', async () => {
    const get = jest.spyOn(api, 'get');
    await loadFontFace('sys-1', 'Noto Serif', REGULAR, null);
    await loadFontFace('', 'Noto Serif', REGULAR, host().h);
    expect(get).not.toHaveBeenCalled();
  });
});

describe('styleFlags', () => {
  it('reads bold and italic from a library style', () => {
    expect(styleFlags('Regular')).toEqual({ bold: false, italic: false });
    expect(styleFlags('Bold Italic')).toEqual({ bold: true, italic: true });
    expect(styleFlags('Oblique')).toEqual({ bold: false, italic: true });
  });
});

describe('glyph check', () => {
  it('reads the envelope the client hands back as it came', async () => {
    const post = jest.spyOn(api, 'post').mockResolvedValue({ code: 2000, data: { missing: '铃', ok: false } });
    expect(await testGlyphs('sys-1', '铃声')).toEqual({ missing: '铃', ok: false });
    expect(post).toHaveBeenCalledWith('/font/test', { text: '铃声', fontId: 'sys-1' }, { silent: true });
  });

  it('fails with the server reason', async () => {
    jest.spyOn(api, 'post').mockResolvedValue({ code: 3000, data: null, desc: 'font x does not exist' });
    await expect(testGlyphs('x', 'a')).rejects.toThrow('font x does not exist');
  });
});
