/**
 * The files a material upload takes (spec platform §5, widened in issue 23): the extensions the
 * gateway accepts (`gateway/src/upload.rs` `EXTENSIONS`, the same list in its order), the material
 * type each becomes, and the MIME types a browser's file picker may know a file by instead.
 */
import type { MaterialType } from './material';

/** A kind of file as the accepted-formats list groups them. */
export type FormatGroup = 'video' | 'picture' | 'audio' | 'slides';

/** One accepted extension: its material type, its group in the list, and its MIME types. */
export interface UploadFormat {
  ext: string;
  type: MaterialType;
  group: FormatGroup;
  mime: readonly string[];
}

/** Every accepted extension, grouped in the order the list names them. */
export const UPLOAD_FORMATS: readonly UploadFormat[] = [
  { ext: 'mp4', type: 'video', group: 'video', mime: ['video/mp4'] },
  { ext: 'mov', type: 'video', group: 'video', mime: ['video/quicktime'] },
  { ext: 'm4v', type: 'video', group: 'video', mime: ['video/x-m4v'] },
  { ext: 'webm', type: 'video', group: 'video', mime: ['video/webm'] },
  { ext: 'mkv', type: 'video', group: 'video', mime: ['video/x-matroska'] },
  { ext: 'avi', type: 'video', group: 'video', mime: ['video/x-msvideo', 'video/avi'] },
  { ext: 'mpeg', type: 'video', group: 'video', mime: ['video/mpeg'] },
  { ext: 'mpg', type: 'video', group: 'video', mime: [] },
  { ext: 'vob', type: 'video', group: 'video', mime: [] },
  { ext: 'wmv', type: 'video', group: 'video', mime: ['video/x-ms-wmv'] },
  { ext: '3gp', type: 'video', group: 'video', mime: ['video/3gpp'] },
  { ext: 'png', type: 'picture', group: 'picture', mime: ['image/png'] },
  { ext: 'jpg', type: 'picture', group: 'picture', mime: ['image/jpeg'] },
  { ext: 'jpeg', type: 'picture', group: 'picture', mime: [] },
  { ext: 'gif', type: 'gif', group: 'picture', mime: ['image/gif'] },
  { ext: 'webp', type: 'picture', group: 'picture', mime: ['image/webp'] },
  { ext: 'heic', type: 'picture', group: 'picture', mime: ['image/heic'] },
  { ext: 'heif', type: 'picture', group: 'picture', mime: ['image/heif'] },
  { ext: 'avif', type: 'picture', group: 'picture', mime: ['image/avif'] },
  { ext: 'bmp', type: 'picture', group: 'picture', mime: ['image/bmp'] },
  { ext: 'mp3', type: 'audio', group: 'audio', mime: ['audio/mpeg'] },
  { ext: 'm4a', type: 'audio', group: 'audio', mime: ['audio/mp4', 'audio/x-m4a'] },
  { ext: 'aac', type: 'audio', group: 'audio', mime: ['audio/aac'] },
  { ext: 'wav', type: 'audio', group: 'audio', mime: ['audio/wav', 'audio/x-wav'] },
  { ext: 'ogg', type: 'audio', group: 'audio', mime: ['audio/ogg'] },
  { ext: 'flac', type: 'audio', group: 'audio', mime: ['audio/flac'] },
  { ext: 'wma', type: 'audio', group: 'audio', mime: ['audio/x-ms-wma'] },
  { ext: 'pptx', type: 'pptx', group: 'slides', mime: ['application/vnd.openxmlformats-officedocument.presentationml.presentation'] },
];

/** The file picker's `accept`: every extension and the MIME types browsers may know them by. */
export const UPLOAD_ACCEPT = [...UPLOAD_FORMATS.map((f) => `.${f.ext}`), ...new Set(UPLOAD_FORMATS.flatMap((f) => f.mime))].join(',');

/** Returns the material type of a file from its lowercased extension, or null when it is not taken. */
export function materialTypeOf(fileName: string): MaterialType | null {
  const dot = fileName.lastIndexOf('.');
  if (dot === -1) return null;
  const ext = fileName.slice(dot + 1).toLowerCase();
  return UPLOAD_FORMATS.find((f) => f.ext === ext)?.type ?? null;
}

/**
 * The accepted extensions of each group, upper case, in list order; with `only` (lower-case
 * extensions, as a refusal's `data.accepted` names them), just those of the list, and groups left
 * empty are left out.
 */
export function formatsByGroup(only?: ReadonlySet<string>): [FormatGroup, string[]][] {
  const groups: FormatGroup[] = ['video', 'picture', 'audio', 'slides'];
  return groups
    .map((g): [FormatGroup, string[]] => [g, UPLOAD_FORMATS.filter((f) => f.group === g && (!only || only.has(f.ext))).map((f) => f.ext.toUpperCase())])
    .filter(([, exts]) => exts.length > 0);
}
