//! Still pictures and GIFs with the `image` crate (HEIF/HEIC and AVIF through libheif), prepared
//! once into bitmaps at their drawn size: cover-cropped, mirrored, filtered, blurred, rounded and
//! bordered.

use super::{Bitmap, colour, resize};
use crate::error::MediaError;
use image::AnimationDecoder;
use resvg::tiny_skia as sk;
use std::path::Path;

/// Most pixels a still picture may have (uploads are refused above it too).
const MAX_PICTURE_PIXELS: u64 = 100_000_000;
/// Most frames of a GIF (uploads are refused above 1000).
const MAX_GIF_FRAMES: usize = 2000;
/// Most pixels of all a GIF's frames together, decoded whole (uploads are refused above 200 million).
const MAX_GIF_PIXELS: u64 = 400_000_000;

/// Returns the picture at `path` as a premultiplied bitmap at its own size.
pub fn load(path: &Path) -> Result<Bitmap, MediaError> {
    if !path.is_file() {
        return Err(MediaError::Missing(path.display().to_string()));
    }
    let ext = path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default();
    if matches!(ext.as_str(), "heic" | "heif" | "avif") {
        let pic = reelforge_heif::decode(&std::fs::read(path)?, MAX_PICTURE_PIXELS).map_err(|e| MediaError::Image(e.to_string()))?;
        return Ok(Bitmap::from_straight(pic.width, pic.height, pic.rgba));
    }
    let mut decoder = image::ImageReader::open(path)?
        .with_guessed_format()?
        .into_decoder()
        .map_err(|e| MediaError::Image(e.to_string()))?;
    let (w, h) = image::ImageDecoder::dimensions(&decoder);
    if u64::from(w) * u64::from(h) > MAX_PICTURE_PIXELS {
        return Err(MediaError::Image(format!("picture of {w}x{h} pixels is larger than {MAX_PICTURE_PIXELS} pixels")));
    }
    // Upright as its EXIF orientation says (a phone photo stored on its side), as the editor's
    // browser draws it.
    let orientation = image::ImageDecoder::orientation(&mut decoder).map_err(|e| MediaError::Image(e.to_string()))?;
    let mut img = image::DynamicImage::from_decoder(decoder).map_err(|e| MediaError::Image(e.to_string()))?;
    img.apply_orientation(orientation);
    let img = img.into_rgba8();
    let (w, h) = img.dimensions();
    Ok(Bitmap::from_straight(w, h, img.into_raw()))
}

/// Returns the frames of a GIF (premultiplied, full size) with each one's delay in seconds.
pub fn load_gif(path: &Path) -> Result<Vec<(Bitmap, f64)>, MediaError> {
    if !path.is_file() {
        return Err(MediaError::Missing(path.display().to_string()));
    }
    let file = std::io::BufReader::new(std::fs::File::open(path)?);
    let dec =
        image::codecs::gif::GifDecoder::new(file).map_err(|e| MediaError::Image(e.to_string()))?;
    let (gw, gh) = image::ImageDecoder::dimensions(&dec);
    let frame_pixels = u64::from(gw) * u64::from(gh);
    let mut out = Vec::new();
    for f in dec.into_frames() {
        if out.len() == MAX_GIF_FRAMES {
            return Err(MediaError::Image(format!("gif of more than {MAX_GIF_FRAMES} frames")));
        }
        if (out.len() as u64 + 1) * frame_pixels > MAX_GIF_PIXELS {
            return Err(MediaError::Image(format!("gif of {gw}x{gh} decodes to more than {MAX_GIF_PIXELS} pixels")));
        }
        let f = f.map_err(|e| MediaError::Image(e.to_string()))?;
        let (n, d) = f.delay().numer_denom_ms();
        // Browsers play delays under 20 ms as 100 ms; doing the same keeps preview and export equal.
        let secs = if d == 0 || n * 50 < d {
            0.1
        } else {
            f64::from(n) / f64::from(d) / 1000.0
        };
        let buf = f.into_buffer();
        let (w, h) = buf.dimensions();
        out.push((Bitmap::from_straight(w, h, buf.into_raw()), secs));
    }
    if out.is_empty() {
        return Err(MediaError::Image("gif without frames".to_owned()));
    }
    Ok(out)
}

/// Returns `src` cropped to the aspect of `w`×`h` about its centre and scaled to that size.
pub fn cover(src: &Bitmap, w: u32, h: u32) -> Bitmap {
    let (sw, sh) = (f64::from(src.w), f64::from(src.h));
    let target = f64::from(w.max(1)) / f64::from(h.max(1));
    let (cw, ch) = if sw / sh > target {
        (sh * target, sh)
    } else {
        (sw, sw / target)
    };
    let crop = ((sw - cw) / 2.0, (sh - ch) / 2.0, cw, ch);
    if src.w == w && src.h == h {
        return src.clone();
    }
    resize(src.view(), w, h, Some(crop))
}

/// Multiplies a picture by a mask of the same size: the mask's alpha where it has any
/// transparency, otherwise its brightness (white keeps, black removes).
pub fn apply_mask(b: &mut Bitmap, mask: &Bitmap) {
    let by_alpha = mask.px.chunks_exact(4).any(|p| p[3] < 255);
    multiply(b, mask, by_alpha);
}

/// Multiplies a picture by the alpha of a bitmap of the same size (a shape's coverage).
pub fn apply_alpha(b: &mut Bitmap, mask: &Bitmap) {
    multiply(b, mask, true);
}

fn multiply(b: &mut Bitmap, mask: &Bitmap, by_alpha: bool) {
    if mask.w != b.w || mask.h != b.h {
        return;
    }
    for (p, m) in b.px.chunks_exact_mut(4).zip(mask.px.chunks_exact(4)) {
        let k = if by_alpha {
            m[3]
        } else {
            ((u32::from(m[0]) * 54 + u32::from(m[1]) * 183 + u32::from(m[2]) * 19) >> 8) as u8
        };
        for c in p.iter_mut() {
            *c = super::blend::mul255(*c, k);
        }
    }
    b.update_opaque();
}

/// Mirrors a bitmap left to right.
pub fn mirror(b: &mut Bitmap) {
    let row = b.w as usize * 4;
    for r in b.px.chunks_exact_mut(row) {
        let n = r.len() / 4;
        for i in 0..n / 2 {
            for c in 0..4 {
                r.swap(i * 4 + c, (n - 1 - i) * 4 + c);
            }
        }
    }
}

/// Rounds the corners (radius in output pixels) and draws a border over the picture's edge as a
/// CSS border draws it (the editor's stage draws it so): a ring from the box's rounded edge to an
/// edge `border` inside it, whose corners are rounded by the radius less the border.
pub fn round_and_border(b: &mut Bitmap, radius: f32, border: f32, border_colour: &str) {
    let (w, h) = (b.w as f32, b.h as f32);
    if radius <= 0.0 && border <= 0.0 {
        return;
    }
    let Some(mut pm) = b.to_pixmap() else { return };
    if radius > 0.0 {
        let outer = rounded_rect(0.0, 0.0, w, h, radius);
        if let (Some(outer), Some(mut mask)) = (outer, sk::Mask::new(b.w, b.h)) {
            mask.fill_path(
                &outer,
                sk::FillRule::Winding,
                true,
                sk::Transform::identity(),
            );
            pm.apply_mask(&mask);
        }
    }
    if border > 0.0
        && let Some(c) = colour::parse(border_colour)
    {
        let mut pb = sk::PathBuilder::new();
        push_rounded_rect(&mut pb, 0.0, 0.0, w, h, radius);
        let (iw, ih) = (w - 2.0 * border, h - 2.0 * border);
        if iw > 0.0 && ih > 0.0 {
            push_rounded_rect(&mut pb, border, border, iw, ih, (radius - border).max(0.0));
        }
        if let Some(ring) = pb.finish() {
            let mut paint = sk::Paint::default();
            paint.set_color(colour::skia(c));
            paint.anti_alias = true;
            pm.fill_path(&ring, &paint, sk::FillRule::EvenOdd, sk::Transform::identity(), None);
        }
    }
    *b = Bitmap::from_pixmap(pm);
}

/// Returns a rounded-rectangle path (a plain rectangle when `r` is 0).
pub fn rounded_rect(x: f32, y: f32, w: f32, h: f32, r: f32) -> Option<sk::Path> {
    let mut pb = sk::PathBuilder::new();
    push_rounded_rect(&mut pb, x, y, w, h, r);
    pb.finish()
}

/// Adds a rounded rectangle to `pb` as a closed contour (a plain rectangle when `r` is 0).
fn push_rounded_rect(pb: &mut sk::PathBuilder, x: f32, y: f32, w: f32, h: f32, r: f32) {
    let r = r.min(w / 2.0).min(h / 2.0).max(0.0);
    if r <= 0.0 {
        if let Some(rect) = sk::Rect::from_xywh(x, y, w, h) {
            pb.push_rect(rect);
        }
        return;
    }
    // Cubic approximation of quarter circles.
    let k = r * 0.552_284_8;
    pb.move_to(x + r, y);
    pb.line_to(x + w - r, y);
    pb.cubic_to(x + w - r + k, y, x + w, y + r - k, x + w, y + r);
    pb.line_to(x + w, y + h - r);
    pb.cubic_to(x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h);
    pb.line_to(x + r, y + h);
    pb.cubic_to(x + r - k, y + h, x, y + h - r + k, x, y + h - r);
    pb.line_to(x, y + r);
    pb.cubic_to(x, y + r - k, x + r - k, y, x + r, y);
    pb.close();
}
