/**
 * The font library in the editor: the caller's uploads and the system fonts
 * (`GET /font/ofuseranddefault/{userId}`), each face loaded on demand from `/font/file/{id}` through
 * the FontFace API (the file is fetched with the usual auth headers, which a CSS `url()` cannot
 * send, and uploads are private), so the stage draws text with the very file the renderer uses;
 * and the missing-glyph check of spec §5 (`POST /font/test`).
 */
import { useQuery } from '@tanstack/react-query';
import { useEffect, useState } from 'react';
import { api, CODE_SUCCESS, type Envelope } from '@/api/client';
import { faceOfCollection } from './ttc';

/** A font as the server lists it. */
export interface LibraryFont {
  id: string;
  /** Family name: what a text layer's `fontFamily` carries and the renderer looks up. */
  name: string;
  nameCN: string;
  style: string;
  /** A system font (else the caller's upload). */
  system: boolean;
  format: string;
  /** `/font/file/{id}`. */
  relativePath: string;
}

/** Answer of the glyph check. */
export interface GlyphCheck {
  /** The distinct characters the font lacks, in text order. */
  missing: string;
  ok: boolean;
}

/** How long the text must rest before the glyph check runs, ms. */
export const GLYPH_CHECK_DELAY = 500;

const keys = {
  list: (userId: string) => ['font', 'ofuseranddefault', userId] as const,
  test: (fontId: string, text: string) => ['font', 'test', fontId, text] as const,
};

/** The caller's fonts and the system fonts. */
export function useFonts(userId: string) {
  return useQuery({
    queryKey: keys.list(userId),
    queryFn: () => api.get<LibraryFont[]>(`/font/ofuseranddefault/${encodeURIComponent(userId)}`),
    enabled: userId !== '',
    staleTime: 5 * 60_000,
  });
}

/** Faces loaded or loading, by font id: each file is fetched once per page. */
const faces = new Map<string, Promise<void>>();

/** What the FontFace API needs; tests and browsers without it pass their own or none. */
export interface FaceHost {
  make(family: string, data: ArrayBuffer, descriptors: FontFaceDescriptors): { load(): Promise<unknown> };
  add(face: unknown): void;
}

function browserHost(): FaceHost | null {
  if (typeof FontFace === 'undefined' || typeof document === 'undefined' || !document.fonts) return null;
  return {
    make: (family, data, descriptors) => new FontFace(family, data, descriptors),
    add: (face) => document.fonts.add(face as FontFace),
  };
}

/**
 * Whether a library style (Regular, Bold, Bold Italic, …) is bold and italic: the renderer picks a
 * face by family, weight and slant, so the layer's bold and italic say which file of a family it draws.
 */
export function styleFlags(style: string): { bold: boolean; italic: boolean } {
  return { bold: /bold|black|heavy/i.test(style), italic: /italic|oblique/i.test(style) };
}

/**
 * Loads a library font's file as a face of `family` with the weight and slant the layer draws it
 * with (once); a failed load may be tried again.
 */
export function loadFontFace(fontId: string, family: string, flags: { bold: boolean; italic: boolean }, host: FaceHost | null = browserHost()): Promise<void> {
  if (!host || fontId === '' || family === '') return Promise.resolve();
  const known = faces.get(fontId);
  if (known) return known;
  const loading = (async () => {
    const blob = await api.get<Blob>(`/font/file/${encodeURIComponent(fontId)}`, undefined, { responseType: 'blob', silent: true });
    // A collection (.ttc) gives the face of the family the renderer draws, not its first one.
    const bytes = faceOfCollection(await blob.arrayBuffer(), family, flags);
    const face = host.make(family, bytes, { weight: flags.bold ? '700' : '400', style: flags.italic ? 'italic' : 'normal' });
    await face.load();
    host.add(face);
  })();
  faces.set(fontId, loading);
  loading.catch(() => faces.delete(fontId));
  return loading;
}

/** Forgets the loaded faces (tests). */
export function resetFontFaces(): void {
  faces.clear();
}

/**
 * The family the renderer draws a text in when it names no library font, or one it does not have
 * (`services/render/src/compose/text.rs` DEFAULT_FAMILY).
 */
export const DEFAULT_FAMILY = 'Noto Sans CJK SC';

/**
 * The file a text of `family` in this weight and slant is drawn from, as the renderer picks a face
 * (by family, then slant, then weight, as CSS matches fonts): the family's face of that style, else
 * one of the same slant, else one of the same weight, else its Regular, else its first. `system`:
 * only the system fonts count.
 */
export function familyFace(fonts: ReadonlyArray<LibraryFont>, family: string, bold: boolean, italic: boolean, system = false): LibraryFont | undefined {
  const faces = fonts.filter((f) => f.name === family && (!system || f.system));
  const flags = (f: LibraryFont) => styleFlags(f.style);
  return (
    faces.find((f) => flags(f).bold === bold && flags(f).italic === italic) ??
    faces.find((f) => flags(f).italic === italic) ??
    faces.find((f) => flags(f).bold === bold) ??
    faces.find((f) => f.style === 'Regular') ??
    faces[0]
  );
}

/** The system font of the renderer's default family a text of this weight and slant is drawn from. */
export function defaultFont(fonts: ReadonlyArray<LibraryFont>, bold: boolean, italic: boolean): LibraryFont | undefined {
  return familyFace(fonts, DEFAULT_FAMILY, bold, italic, true);
}

/** Where a text's face stands: none needed, loading, loaded, or failed (drawn in a fallback). */
export type FaceState = 'none' | 'loading' | 'ready' | 'failed';

/** Loads the face a text layer is drawn in (a library font's file) and says where it stands. */
export function useFontFace(fontId: string | undefined, family: string, bold: boolean, italic: boolean): FaceState {
  const [state, setState] = useState<{ key: string; face: FaceState }>({ key: '', face: 'none' });
  const key = fontId ? `${fontId}|${family}|${bold}|${italic}` : '';
  useEffect(() => {
    if (!fontId) return;
    let live = true;
    loadFontFace(fontId, family, { bold, italic }).then(
      () => live && setState({ key, face: 'ready' }),
      () => live && setState({ key, face: 'failed' }),
    );
    return () => {
      live = false;
    };
  }, [fontId, family, bold, italic, key]);
  if (!fontId) return 'none';
  return state.key === key ? state.face : 'loading';
}

/** The value after it has rested `delay` ms. */
export function useDebounced<T>(value: T, delay: number): T {
  const [rested, setRested] = useState(value);
  useEffect(() => {
    const timer = setTimeout(() => setRested(value), delay);
    return () => clearTimeout(timer);
  }, [value, delay]);
  return rested;
}

/** Asks which characters of `text` the font lacks; the client hands this call's envelope back as it came. */
export async function testGlyphs(fontId: string, text: string): Promise<GlyphCheck> {
  const answer = await api.post<Envelope<GlyphCheck>>('/font/test', { text, fontId }, { silent: true });
  if (answer?.code !== CODE_SUCCESS || !answer.data) throw new Error(answer?.desc || 'font test failed');
  return answer.data;
}

/** The characters of `text` a library font lacks (debounced); nothing while no library font is chosen. */
export function useGlyphCheck(fontId: string | undefined, text: string) {
  const rested = useDebounced(text, GLYPH_CHECK_DELAY);
  return useQuery({
    queryKey: keys.test(fontId ?? '', rested),
    queryFn: () => testGlyphs(fontId ?? '', rested),
    enabled: !!fontId && rested.trim() !== '',
    staleTime: Infinity,
  });
}
