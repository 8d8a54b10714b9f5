/**
 * One face out of a font collection (`.ttc`). The browser's FontFace API loads only the first face
 * of a collection, and the Noto Sans CJK collections start with the JP face, while the renderer
 * (fontdb, by family) draws the SC face: some Han characters have other forms. So the stage takes
 * the face whose family the layer names out of the collection and loads it as a font of its own:
 * the same tables, under a table directory of their own (OpenType §"Font Collections").
 */

const TTCF = 0x74746366;
const NAME = 0x6e616d65;

/** A face of a collection: where its table directory starts. */
interface Face {
  offset: number;
  family: string;
  subfamily: string;
}

/** Whether the bytes are a font collection. */
export function isCollection(data: ArrayBuffer): boolean {
  return data.byteLength >= 12 && new DataView(data).getUint32(0) === TTCF;
}

function utf16be(view: DataView, at: number, length: number): string {
  let s = '';
  for (let i = 0; i + 1 < length; i += 2) s += String.fromCharCode(view.getUint16(at + i));
  return s;
}

function latin1(view: DataView, at: number, length: number): string {
  let s = '';
  for (let i = 0; i < length; i += 1) s += String.fromCharCode(view.getUint8(at + i));
  return s;
}

/** The face's family and subfamily from its `name` table: the typographic names (16, 17) when present, else 1 and 2; Windows Unicode first. */
function names(view: DataView, face: number): { family: string; subfamily: string } {
  const tables = view.getUint16(face + 4);
  let table = -1;
  for (let i = 0; i < tables; i += 1) {
    const rec = face + 12 + 16 * i;
    if (view.getUint32(rec) === NAME) table = view.getUint32(rec + 8);
  }
  const found = new Map<number, string>();
  if (table >= 0) {
    const count = view.getUint16(table + 2);
    const strings = table + view.getUint16(table + 4);
    for (let i = 0; i < count; i += 1) {
      const rec = table + 6 + 12 * i;
      const platform = view.getUint16(rec);
      const encoding = view.getUint16(rec + 2);
      const language = view.getUint16(rec + 4);
      const id = view.getUint16(rec + 6);
      const length = view.getUint16(rec + 8);
      const at = strings + view.getUint16(rec + 10);
      if (at + length > view.byteLength) continue;
      // English (US) Windows names win; a Macintosh Roman name is kept when there is no other.
      if (platform === 3 && (encoding === 1 || encoding === 10) && language === 0x409) found.set(id, utf16be(view, at, length));
      else if (platform === 1 && encoding === 0 && !found.has(id)) found.set(id, latin1(view, at, length));
    }
  }
  return { family: found.get(16) ?? found.get(1) ?? '', subfamily: found.get(17) ?? found.get(2) ?? '' };
}

/** The faces of a collection with their names. */
export function collectionFaces(data: ArrayBuffer): Face[] {
  if (!isCollection(data)) return [];
  const view = new DataView(data);
  const count = view.getUint32(8);
  const faces: Face[] = [];
  for (let i = 0; i < count && 12 + 4 * i + 4 <= data.byteLength; i += 1) {
    const offset = view.getUint32(12 + 4 * i);
    faces.push({ offset, ...names(view, offset) });
  }
  return faces;
}

/** The face at `offset` as a font file of its own: its table directory, then each table, 4-byte aligned. */
function standalone(data: ArrayBuffer, offset: number): ArrayBuffer {
  const view = new DataView(data);
  const tables = view.getUint16(offset + 4);
  const records = Array.from({ length: tables }, (_, i) => {
    const rec = offset + 12 + 16 * i;
    return { rec, at: view.getUint32(rec + 8), length: view.getUint32(rec + 12) };
  });
  const head = 12 + 16 * tables;
  const size = records.reduce((n, r) => n + Math.ceil(r.length / 4) * 4, head);
  const out = new Uint8Array(size);
  const outView = new DataView(out.buffer);
  const src = new Uint8Array(data);
  out.set(src.subarray(offset, offset + head), 0);
  let at = head;
  records.forEach((r, i) => {
    out.set(src.subarray(r.at, r.at + r.length), at);
    outView.setUint32(12 + 16 * i + 8, at);
    at += Math.ceil(r.length / 4) * 4;
  });
  return out.buffer;
}

/**
 * The face of `family` (the subfamily with the layer's boldness and slant when the collection has
 * several) as a font of its own; the bytes as they are when they are not a collection or hold no
 * face of that family (the browser then loads the first face, as before).
 */
export function faceOfCollection(data: ArrayBuffer, family: string, flags: { bold: boolean; italic: boolean }): ArrayBuffer {
  const wanted = family.trim().toLowerCase();
  const faces = collectionFaces(data).filter((f) => f.family.trim().toLowerCase() === wanted);
  if (faces.length === 0) return data;
  const styled = faces.find((f) => /bold|black|heavy/i.test(f.subfamily) === flags.bold && /italic|oblique/i.test(f.subfamily) === flags.italic);
  return standalone(data, (styled ?? (faces[0] as Face)).offset);
}
