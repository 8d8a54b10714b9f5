/**
 * The picture crop's maths (spec editor-core §3 `isCutting`, the 'photo cut' panel). The renderer
 * draws a picture cropped about its centre to its box's ratio (`compose/image.rs` `cover`), so a
 * crop the user picks is made into a picture of its own (uploaded as a material) and the layer's
 * box takes the crop's ratio: the stage and the video then show exactly the part picked.
 */

/** A rectangle in source pixels. */
export interface Rect {
  x: number;
  y: number;
  w: number;
  h: number;
}

/** The smallest crop side, source pixels. */
export const MIN_CROP_PX = 8;

/** The part of a `imgW`×`imgH` picture a `boxW`×`boxH` box shows today: centred, the box's ratio. */
export function coverCrop(imgW: number, imgH: number, boxW: number, boxH: number): Rect {
  if (!(imgW > 0 && imgH > 0 && boxW > 0 && boxH > 0)) return { x: 0, y: 0, w: Math.max(0, imgW), h: Math.max(0, imgH) };
  const box = boxW / boxH;
  if (imgW / imgH > box) {
    const w = imgH * box;
    return { x: (imgW - w) / 2, y: 0, w, h: imgH };
  }
  const h = imgW / box;
  return { x: 0, y: (imgH - h) / 2, w: imgW, h };
}

/** `r` kept inside the picture and at least the minimum size, in whole pixels. */
export function clampCrop(r: Rect, imgW: number, imgH: number): Rect {
  const w = Math.round(Math.min(imgW, Math.max(MIN_CROP_PX, r.w)));
  const h = Math.round(Math.min(imgH, Math.max(MIN_CROP_PX, r.h)));
  const x = Math.round(Math.min(imgW - w, Math.max(0, r.x)));
  const y = Math.round(Math.min(imgH - h, Math.max(0, r.y)));
  return { x, y, w, h };
}

/** The layer's new box for a crop: the same width and centre, the crop's ratio. */
export function boxForCrop(box: { x: number; y: number; w: number; h: number }, crop: Rect): { x: number; y: number; w: number; h: number } {
  const h = (box.w * crop.h) / crop.w;
  return { x: box.x, y: box.y + (box.h - h) / 2, w: box.w, h };
}

/** Draws `crop` of `image` at its own resolution and answers it as a file to upload. */
export async function cropToFile(image: HTMLImageElement, crop: Rect, name: string): Promise<File> {
  const canvas = document.createElement('canvas');
  canvas.width = crop.w;
  canvas.height = crop.h;
  const ctx = canvas.getContext('2d');
  if (!ctx) throw new Error('no 2D canvas');
  ctx.drawImage(image, crop.x, crop.y, crop.w, crop.h, 0, 0, crop.w, crop.h);
  const blob = await new Promise<Blob | null>((resolve) => canvas.toBlob(resolve, 'image/png'));
  if (!blob) throw new Error('the crop could not be encoded');
  return new File([blob], name, { type: 'image/png' });
}
