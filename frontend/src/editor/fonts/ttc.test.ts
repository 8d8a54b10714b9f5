import { existsSync, readFileSync } from 'node:fs';
import { collectionFaces, faceOfCollection, isCollection } from './ttc';

/** A `name` table holding family (1) and subfamily (2) as Windows English names. */
function nameTable(family: string, subfamily: string): Uint8Array {
  const strings = [family, subfamily].map((s) => {
    const b = new Uint8Array(s.length * 2);
    for (let i = 0; i < s.length; i += 1) {
      b[2 * i] = s.charCodeAt(i) >> 8;
      b[2 * i + 1] = s.charCodeAt(i) & 0xff;
    }
    return b;
  });
  const out = new Uint8Array(6 + 24 + strings[0]!.length + strings[1]!.length);
  const v = new DataView(out.buffer);
  v.setUint16(2, 2);
  v.setUint16(4, 30);
  let at = 0;
  strings.forEach((s, i) => {
    const rec = 6 + 12 * i;
    v.setUint16(rec, 3);
    v.setUint16(rec + 2, 1);
    v.setUint16(rec + 4, 0x409);
    v.setUint16(rec + 6, i + 1);
    v.setUint16(rec + 8, s.length);
    v.setUint16(rec + 10, at);
    out.set(s, 30 + at);
    at += s.length;
  });
  return out;
}

const tag = (s: string) => [...s].reduce((n, c) => n * 256 + c.charCodeAt(0), 0);

/** A collection of faces, each with a `name` table and a `glyf` stand-in holding `marker`. */
function collection(faces: { family: string; subfamily: string; marker: number }[]): ArrayBuffer {
  const parts = faces.map((f) => ({ tables: [{ tag: 'glyf', data: new Uint8Array([f.marker, 1, 2]) }, { tag: 'name', data: nameTable(f.family, f.subfamily) }] }));
  const header = 12 + 4 * faces.length;
  const dirs = faces.length * (12 + 32);
  const tablesSize = parts.reduce((n, p) => n + p.tables.reduce((m, t) => m + Math.ceil(t.data.length / 4) * 4, 0), 0);
  const out = new Uint8Array(header + dirs + tablesSize);
  const v = new DataView(out.buffer);
  v.setUint32(0, tag('ttcf'));
  v.setUint32(4, 0x00010000);
  v.setUint32(8, faces.length);
  let dir = header;
  let data = header + dirs;
  parts.forEach((p, i) => {
    v.setUint32(12 + 4 * i, dir);
    v.setUint32(dir, tag('OTTO'));
    v.setUint16(dir + 4, p.tables.length);
    p.tables.forEach((t, j) => {
      const rec = dir + 12 + 16 * j;
      v.setUint32(rec, tag(t.tag));
      v.setUint32(rec + 8, data);
      v.setUint32(rec + 12, t.data.length);
      out.set(t.data, data);
      data += Math.ceil(t.data.length / 4) * 4;
    });
    dir += 12 + 16 * p.tables.length;
  });
  return out.buffer;
}

describe('one face out of a collection', () => {
  const ttc = collection([
    { family: 'Noto Sans CJK JP', subfamily: 'Regular', marker: 7 },
    { family: 'Noto Sans CJK SC', subfamily: 'Regular', marker: 9 },
    { family: 'Noto Sans CJK SC', subfamily: 'Bold', marker: 11 },
  ]);

  it('reads the faces and their names', () => {
    expect(isCollection(ttc)).toBe(true);
    expect(collectionFaces(ttc).map((f) => `${f.family}/${f.subfamily}`)).toEqual(['Noto Sans CJK JP/Regular', 'Noto Sans CJK SC/Regular', 'Noto Sans CJK SC/Bold']);
  });

  it('takes the face of the family and weight as a font of its own', () => {
    for (const [bold, marker] of [
      [false, 9],
      [true, 11],
    ] as const) {
      const font = faceOfCollection(ttc, 'noto sans cjk sc', { bold, italic: false });
      const v = new DataView(font);
      expect(v.getUint32(0)).toBe(tag('OTTO'));
      expect(v.getUint16(4)).toBe(2);
      const glyf = v.getUint32(12 + 8);
      expect(v.getUint8(glyf)).toBe(marker);
      // The copy is itself readable: its name table names the face.
      const name = v.getUint32(12 + 16 + 8);
      expect(name % 4).toBe(0);
    }
  });

  it('leaves other bytes as they are', () => {
    expect(faceOfCollection(ttc, 'DejaVu Sans', { bold: false, italic: false })).toBe(ttc);
    const plain = new Uint8Array([0, 1, 0, 0, 0, 0]).buffer;
    expect(faceOfCollection(plain, 'Noto Sans CJK SC', { bold: false, italic: false })).toBe(plain);
  });

  const noto = '/usr/share/fonts/opentype/noto/NotoSansCJK-Regular.ttc';
  (existsSync(noto) ? it : it.skip)('finds the SC face of the installed Noto Sans CJK collection, not its first (JP)', () => {
    const file = readFileSync(noto);
    const data = file.buffer.slice(file.byteOffset, file.byteOffset + file.byteLength);
    const faces = collectionFaces(data);
    expect(faces[0]?.family).toBe('Noto Sans CJK JP');
    expect(faces.map((f) => f.family)).toContain('Noto Sans CJK SC');
    const sc = faceOfCollection(data, 'Noto Sans CJK SC', { bold: false, italic: false });
    expect(sc).not.toBe(data);
    expect(new DataView(sc).getUint32(0)).toBe(tag('OTTO'));
  });
});
