/**
 * The crop's maths (spec editor-core §3 `isCutting`, the 'photo cut' panel; the video layer's
 * 裁剪画面). The renderer draws a picture or a video cropped about its centre to its box's ratio
 * (`compose/image.rs` `cover`), so a crop the user picks is made into a material of its own by the
 * server (`/material/croppicture`, `/material/cropVideo`) and the layer's box takes the crop's
 * ratio: the stage and the video then show exactly the part picked.
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

/** `r` kept inside the picture and at least `min` pixels a side, in whole pixels. */
export function clampCrop(r: Rect, imgW: number, imgH: number, min = MIN_CROP_PX): Rect {
  const w = Math.round(Math.min(imgW, Math.max(min, r.w)));
  const h = Math.round(Math.min(imgH, Math.max(min, r.h)));
  const x = Math.round(Math.min(imgW - w, Math.max(0, r.x)));
  const y = Math.round(Math.min(imgH - h, Math.max(0, r.y)));
  return { x, y, w, h };
}

/** The layer's new box for a crop: the same width and centre, the crop's ratio. */
export function boxForCrop(box: { x: number; y: number; w: number; h: number }, crop: Rect): { x: number; y: number; w: number; h: number } {
  const h = (box.w * crop.h) / crop.w;
  return { x: box.x, y: box.y + (box.h - h) / 2, w: box.w, h };
}

/** A width and height, pixels. */
export interface Size {
  w: number;
  h: number;
}

/**
 * The picture's own size as the crop counts it, from what the library says (`library`, upright when
 * its probe read the orientation) and what the browser shows (`shown`, always upright: it applies
 * the EXIF orientation). A library size of the other orientation than the one shown is the stored,
 * sideways size of a picture turned by its EXIF orientation: the shown picture is that size turned.
 * An unknown library size is the shown one.
 */
export function uprightSize(library: Size | null, shown: Size): Size {
  if (!library || !(library.w > 0 && library.h > 0)) return shown;
  const landscape = (s: Size) => s.w > s.h;
  const square = (s: Size) => s.w === s.h;
  if (!square(library) && !square(shown) && landscape(library) !== landscape(shown)) return { w: library.h, h: library.w };
  return library;
}

/**
 * `crop`, picked on the picture as shown (`shown` pixels: a preview may be smaller than the file),
 * in the pixels of the picture itself (`source`, upright), whole and inside it: the box the server
 * cuts (`/material/croppicture` turns the picture upright before cutting).
 */
export function toSourceBox(crop: Rect, shown: Size, source: Size): Rect {
  const sx = shown.w > 0 ? source.w / shown.w : 1;
  const sy = shown.h > 0 ? source.h / shown.h : 1;
  const x = Math.max(0, Math.round(crop.x * sx));
  const y = Math.max(0, Math.round(crop.y * sy));
  const w = Math.max(1, Math.min(source.w - x, Math.round(crop.w * sx)));
  const h = Math.max(1, Math.min(source.h - y, Math.round(crop.h * sy)));
  return { x, y, w, h };
}

/** The smallest side of a video crop, pixels (the toolbox's VIDEO_CROP: sides 16–8192). */
export const MIN_VIDEO_CROP_PX = 16;

/**
 * A video crop as `/material/cropVideo` takes it: `crop` (frame pixels, the size the browser plays,
 * `frame`) in the video's own pixels (`source`), every value even (its pictures are 4:2:0), sides
 * at least 16, inside the video.
 */
export function toVideoBox(crop: Rect, frame: Size, source: Size): Rect {
  const r = toSourceBox(crop, frame, source);
  const down = (n: number) => Math.floor(n / 2) * 2;
  const fw = down(source.w);
  const fh = down(source.h);
  const w = Math.min(fw, Math.max(MIN_VIDEO_CROP_PX, down(r.w)));
  const h = Math.min(fh, Math.max(MIN_VIDEO_CROP_PX, down(r.h)));
  const x = Math.max(0, Math.min(fw - w, down(r.x)));
  const y = Math.max(0, Math.min(fh - h, down(r.y)));
  return { x, y, w, h };
}
