//! The per-frame compositor: a premultiplied RGBA canvas and the few fast paths every frame
//! uses (design §4, 'The per-frame budget'): memcpy for opaque untransformed layers, a
//! constant-alpha blend, a source-over blend restricted to the layer's box, `fast_image_resize`
//! for scaling and a bilinear affine sampler only for rotated layers. tiny-skia, resvg and
//! cosmic-text only rasterise vector content into cached [`Bitmap`]s (`text`, `shape`).

pub mod blend;
pub mod blur;
pub mod colour;
pub mod filter;
pub mod image;
pub mod shape;
pub mod text;
pub mod transition;

pub use blend::{Rect, draw, draw_affine};

/// A premultiplied RGBA picture with tightly packed rows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bitmap {
    /// Width in pixels.
    pub w: u32,
    /// Height in pixels.
    pub h: u32,
    /// Premultiplied RGBA bytes, `w * h * 4`.
    pub px: Vec<u8>,
    /// True when every alpha is 255, so drawing can copy rows instead of blending.
    pub opaque: bool,
}

impl Bitmap {
    /// Returns a transparent bitmap.
    pub fn new(w: u32, h: u32) -> Self {
        Bitmap {
            w,
            h,
            px: vec![0; w as usize * h as usize * 4],
            opaque: false,
        }
    }

    /// Returns a bitmap filled with an opaque colour.
    pub fn filled(w: u32, h: u32, rgb: [u8; 3]) -> Self {
        let mut b = Bitmap::new(w, h);
        b.fill(rgb);
        b
    }

    /// Fills the whole bitmap with an opaque colour.
    pub fn fill(&mut self, rgb: [u8; 3]) {
        let px = [rgb[0], rgb[1], rgb[2], 255];
        // One row pixel by pixel, the others copied from it: four-byte stores do not vectorise,
        // row copies run at memcpy speed.
        let row = (self.w as usize * 4).min(self.px.len());
        let (first, rest) = self.px.split_at_mut(row);
        for p in first.chunks_exact_mut(4) {
            p.copy_from_slice(&px);
        }
        for r in rest.chunks_mut(row.max(1)) {
            r.copy_from_slice(&first[..r.len()]);
        }
        self.opaque = true;
    }

    /// Returns a borrowed view.
    pub fn view(&self) -> View<'_> {
        View {
            w: self.w,
            h: self.h,
            stride: self.w as usize * 4,
            data: &self.px,
            opaque: self.opaque,
        }
    }

    /// Returns a bitmap from straight-alpha RGBA bytes, premultiplying them.
    pub fn from_straight(w: u32, h: u32, mut px: Vec<u8>) -> Self {
        let mut opaque = true;
        for p in px.chunks_exact_mut(4) {
            let a = p[3];
            if a != 255 {
                opaque = false;
                for c in &mut p[..3] {
                    *c = blend::mul255(*c, a);
                }
            }
        }
        Bitmap { w, h, px, opaque }
    }

    /// Re-checks whether every pixel is opaque.
    pub fn update_opaque(&mut self) {
        self.opaque = self.px.chunks_exact(4).all(|p| p[3] == 255);
    }

    /// Returns a tiny-skia pixmap holding a copy of this bitmap (both are premultiplied RGBA).
    pub fn to_pixmap(&self) -> Option<resvg::tiny_skia::Pixmap> {
        let size = resvg::tiny_skia::IntSize::from_wh(self.w, self.h)?;
        resvg::tiny_skia::Pixmap::from_vec(self.px.clone(), size)
    }

    /// Returns a bitmap taking over a tiny-skia pixmap's pixels.
    pub fn from_pixmap(p: resvg::tiny_skia::Pixmap) -> Self {
        let (w, h) = (p.width(), p.height());
        let mut b = Bitmap {
            w,
            h,
            px: p.take(),
            opaque: false,
        };
        b.update_opaque();
        b
    }
}

/// A borrowed premultiplied RGBA picture whose rows are `stride` bytes apart.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    /// Width in pixels.
    pub w: u32,
    /// Height in pixels.
    pub h: u32,
    /// Bytes between row starts.
    pub stride: usize,
    /// The bytes.
    pub data: &'a [u8],
    /// True when every alpha is 255.
    pub opaque: bool,
}

impl View<'_> {
    /// Returns row `y`, `w * 4` bytes.
    pub fn row(&self, y: u32) -> &[u8] {
        let start = y as usize * self.stride;
        self.data
            .get(start..start + self.w as usize * 4)
            .unwrap_or(&[])
    }
}

/// Returns `src` scaled to `w`×`h` (bilinear, premultiplied), optionally from the crop
/// `(left, top, width, height)` of the source in source pixels.
pub fn resize(src: View<'_>, w: u32, h: u32, crop: Option<(f64, f64, f64, f64)>) -> Bitmap {
    let (w, h) = (w.max(1), h.max(1));
    let mut out = Bitmap::new(w, h);
    out.opaque = src.opaque;
    if !resize_into(src, &mut out.px, w, h, crop) {
        return Bitmap::new(w, h);
    }
    out
}

thread_local! {
    // Reused across frames: the resizer keeps its intermediate buffers.
    static RESIZER: std::cell::RefCell<fast_image_resize::Resizer> =
        std::cell::RefCell::new(fast_image_resize::Resizer::new());
}

/// Scales `src` into `dst`, a tightly packed `w`×`h` RGBA buffer (for example whole rows of a
/// canvas), like [`resize`] but without allocating the result. Returns false when it could not
/// (`dst` of the wrong size); `dst` is then left as it was or partly written.
pub fn resize_into(
    src: View<'_>,
    dst: &mut [u8],
    w: u32,
    h: u32,
    crop: Option<(f64, f64, f64, f64)>,
) -> bool {
    use fast_image_resize as fr;
    if src.w == 0 || src.h == 0 {
        return true;
    }
    let packed: std::borrow::Cow<'_, [u8]> = if src.stride == src.w as usize * 4 {
        std::borrow::Cow::Borrowed(&src.data[..src.h as usize * src.stride])
    } else {
        std::borrow::Cow::Owned((0..src.h).flat_map(|y| src.row(y).to_vec()).collect())
    };
    let Ok(src_img) = fr::images::ImageRef::new(src.w, src.h, &packed, fr::PixelType::U8x4) else {
        return true;
    };
    let Ok(mut dst_img) = fr::images::Image::from_slice_u8(w, h, dst, fr::PixelType::U8x4) else {
        return false;
    };
    // The pixels are already premultiplied, so the alpha-aware mode is switched off.
    let mut opts = fr::ResizeOptions::new()
        .resize_alg(fr::ResizeAlg::Convolution(fr::FilterType::Bilinear))
        .use_alpha(false);
    if let Some((l, t, cw, ch)) = crop {
        opts = opts.crop(l, t, cw.max(1.0), ch.max(1.0));
    }
    RESIZER.with(|r| r.borrow_mut().resize(&src_img, &mut dst_img, &opts).is_ok())
}

/// Scales the part `crop` `(left, top, width, height)` of one 8-bit plane (`stride` bytes a
/// row, `rows` rows) into `dst`, a tightly packed `w`×`h` plane (bilinear). A decoded clip's
/// Y, U and V planes are scaled this way before they are converted to RGBA, so a clip shown
/// smaller than it is decoded converts only the pixels that show. Returns false when it could
/// not (a plane or crop out of bounds).
///
/// The horizontal pass runs on four rows at once, interleaved as the bytes of four-channel
/// pixels: `fast_image_resize`'s one-channel horizontal convolution costs 1.6 times its
/// four-channel one per pixel, so a plane scaled in one call cost more than RGBA scaled
/// (docs/benchmarks.md, ninth pass). The vertical pass is the same either way.
pub fn resize_plane(
    src: &[u8],
    (stride, rows): (usize, usize),
    crop: (f64, f64, f64, f64),
    dst: &mut [u8],
    (w, h): (u32, u32),
) -> bool {
    use fast_image_resize as fr;
    let (Ok(sw), Ok(sh)) = (u32::try_from(stride), u32::try_from(rows)) else {
        return false;
    };
    let Some(src) = src.get(..stride * rows) else {
        return false;
    };
    let (left, top, cw, ch) = (crop.0, crop.1, crop.2.max(1.0), crop.3.max(1.0));
    if (cw - f64::from(w)).abs() < 1e-9 && left.fract() == 0.0 {
        // No horizontal scaling: the vertical pass alone.
        let Ok(src_img) = fr::images::ImageRef::new(sw, sh, src, fr::PixelType::U8) else {
            return false;
        };
        let Ok(mut dst_img) = fr::images::Image::from_slice_u8(w, h, dst, fr::PixelType::U8) else {
            return false;
        };
        let opts = fr::ResizeOptions::new()
            .resize_alg(fr::ResizeAlg::Convolution(fr::FilterType::Bilinear))
            .crop(left, top, cw, ch);
        return RESIZER.with(|r| r.borrow_mut().resize(&src_img, &mut dst_img, &opts).is_ok());
    }
    // The rows the vertical pass reads: the crop's and the filter's reach beyond it.
    let reach = (ch / f64::from(h.max(1))).ceil().max(1.0) + 2.0;
    let y0 = ((top - reach).floor().max(0.0) as usize).min(rows);
    let y1 = ((top + ch + reach).ceil().max(0.0) as usize).min(rows);
    let n = y1.saturating_sub(y0);
    if n == 0 || w == 0 || h == 0 {
        return false;
    }
    PLANE_WORK.with(|work| {
        let mut work = work.borrow_mut();
        let (packed_buf, across_buf) = &mut *work;
        // Four rows a pixel, the last group padded with the last row. The buffers only grow
        // (a clip's Y and chroma planes take turns), and every byte used is written first.
        let groups = n.div_ceil(4);
        let wide = w as usize;
        let need = groups * 4 * stride.max(wide);
        if packed_buf.len() < need {
            packed_buf.resize(need, 0);
        }
        if across_buf.len() < groups * wide * 4 {
            across_buf.resize(groups * wide * 4, 0);
        }
        let packed = &mut packed_buf[..groups * stride * 4];
        for (g, out) in packed.chunks_exact_mut(stride * 4).enumerate() {
            let row = |k: usize| {
                let y = y0 + (g * 4 + k).min(n - 1);
                &src[y * stride..(y + 1) * stride]
            };
            interleave4([row(0), row(1), row(2), row(3)], out);
        }
        let across = &mut across_buf[..groups * wide * 4];
        let Ok(packed_img) =
            fr::images::ImageRef::new(sw, groups as u32, packed, fr::PixelType::U8x4)
        else {
            return false;
        };
        let Ok(mut across_img) =
            fr::images::Image::from_slice_u8(w, groups as u32, across, fr::PixelType::U8x4)
        else {
            return false;
        };
        let horizontal = fr::ResizeOptions::new()
            .resize_alg(fr::ResizeAlg::Convolution(fr::FilterType::Bilinear))
            .use_alpha(false)
            .crop(left, 0.0, cw, groups as f64);
        if !RESIZER.with(|r| {
            r.borrow_mut()
                .resize(&packed_img, &mut across_img, &horizontal)
                .is_ok()
        }) {
            return false;
        }
        // Back to one row a row, for the vertical pass.
        let packed = &mut packed_buf[..groups * 4 * wide];
        for (group, rows) in across
            .chunks_exact(wide * 4)
            .zip(packed.chunks_exact_mut(wide * 4))
        {
            let (r0, rest) = rows.split_at_mut(wide);
            let (r1, rest) = rest.split_at_mut(wide);
            let (r2, r3) = rest.split_at_mut(wide);
            deinterleave4(group, [r0, r1, r2, r3]);
        }
        let Ok(rows_img) =
            fr::images::ImageRef::new(w, n as u32, &packed[..n * wide], fr::PixelType::U8)
        else {
            return false;
        };
        let Ok(mut dst_img) = fr::images::Image::from_slice_u8(w, h, dst, fr::PixelType::U8) else {
            return false;
        };
        let vertical = fr::ResizeOptions::new()
            .resize_alg(fr::ResizeAlg::Convolution(fr::FilterType::Bilinear))
            .crop(0.0, top - y0 as f64, f64::from(w), ch);
        RESIZER.with(|r| {
            r.borrow_mut()
                .resize(&rows_img, &mut dst_img, &vertical)
                .is_ok()
        })
    })
}

/// Returns the part `crop` of a `sw`×`sh` 8-bit plane scaled to `w`×`h` in one `fast_image_resize`
/// call (bilinear): what [`resize_plane`] must equal, within a level.
// Public for the crate's tests in tests/it: written there, it would build fast_image_resize's generic
// resizer again in the test binary (~110 s of CPU at opt-level 3).
#[doc(hidden)]
pub fn resize_plane_in_one_call(
    src: &[u8],
    (sw, sh): (u32, u32),
    crop: (f64, f64, f64, f64),
    (w, h): (u32, u32),
) -> Vec<u8> {
    use fast_image_resize as fr;
    let mut out = vec![0; (w * h) as usize];
    let Ok(src_img) = fr::images::ImageRef::new(sw, sh, src, fr::PixelType::U8) else {
        return out;
    };
    let Ok(mut dst_img) = fr::images::Image::from_slice_u8(w, h, &mut out, fr::PixelType::U8)
    else {
        return Vec::new();
    };
    let opts = fr::ResizeOptions::new()
        .resize_alg(fr::ResizeAlg::Convolution(fr::FilterType::Bilinear))
        .crop(crop.0, crop.1, crop.2, crop.3);
    let _ = fr::Resizer::new().resize(&src_img, &mut dst_img, &opts);
    out
}

/// Writes four rows of bytes as the channels of four-channel pixels: pixel `x` of `out` is
/// `[r0[x], r1[x], r2[x], r3[x]]`.
// Public for the crate's tests in tests/it.
#[doc(hidden)]
pub fn interleave4(rows: [&[u8]; 4], out: &mut [u8]) {
    let n = rows
        .iter()
        .map(|r| r.len())
        .min()
        .unwrap_or(0)
        .min(out.len() / 4);
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("sse2") {
        // SAFETY: the CPU has SSE2, checked just above.
        done = unsafe { simd::interleave4(rows, out, n) };
    }
    let [a, b, c, d] = rows.map(|r| &r[done..n]);
    let columns = a.iter().zip(b).zip(c.iter().zip(d));
    for (px, ((a, b), (c, d))) in out[done * 4..n * 4].chunks_exact_mut(4).zip(columns) {
        px.copy_from_slice(&[*a, *b, *c, *d]);
    }
}

/// The inverse of [`interleave4`]: channel `k` of `pixels` into `rows[k]`.
// Public for the crate's tests in tests/it.
#[doc(hidden)]
pub fn deinterleave4(pixels: &[u8], rows: [&mut [u8]; 4]) {
    let n = rows
        .iter()
        .map(|r| r.len())
        .min()
        .unwrap_or(0)
        .min(pixels.len() / 4);
    let [r0, r1, r2, r3] = rows;
    let mut done = 0;
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("ssse3") {
        // SAFETY: the CPU has SSSE3, checked just above.
        done = unsafe { simd::deinterleave4(pixels, [&mut *r0, &mut *r1, &mut *r2, &mut *r3], n) };
    }
    let outs = r0[done..n]
        .iter_mut()
        .zip(r1[done..n].iter_mut())
        .zip(r2[done..n].iter_mut().zip(r3[done..n].iter_mut()));
    for (px, ((a, b), (c, d))) in pixels[done * 4..n * 4].chunks_exact(4).zip(outs) {
        (*a, *b, *c, *d) = (px[0], px[1], px[2], px[3]);
    }
}

/// Sixteen pixels at a time with byte unpacks and shuffles; each returns how many pixels it did.
#[cfg(target_arch = "x86_64")]
mod simd {
    use std::arch::x86_64::*;

    /// Loads 16 bytes from the start of `s` (at least 16 long, or the bounds check panics).
    #[inline(always)]
    fn load(s: &[u8]) -> __m128i {
        let s = &s[..16];
        // SAFETY: `s` is 16 readable bytes; the load is unaligned.
        unsafe { _mm_loadu_si128(s.as_ptr().cast()) }
    }

    /// Stores 16 bytes at the start of `d` (at least 16 long, or the bounds check panics).
    #[inline(always)]
    fn store(d: &mut [u8], v: __m128i) {
        let d = &mut d[..16];
        // SAFETY: `d` is 16 writable bytes; the store is unaligned.
        unsafe { _mm_storeu_si128(d.as_mut_ptr().cast(), v) };
    }

    #[target_feature(enable = "sse2")]
    pub fn interleave4(rows: [&[u8]; 4], out: &mut [u8], n: usize) -> usize {
        let end = n / 16 * 16;
        for x in (0..end).step_by(16) {
            let (a, b) = (load(&rows[0][x..]), load(&rows[1][x..]));
            let (c, d) = (load(&rows[2][x..]), load(&rows[3][x..]));
            let (ab_lo, ab_hi) = (_mm_unpacklo_epi8(a, b), _mm_unpackhi_epi8(a, b));
            let (cd_lo, cd_hi) = (_mm_unpacklo_epi8(c, d), _mm_unpackhi_epi8(c, d));
            let o = &mut out[x * 4..x * 4 + 64];
            store(&mut o[0..], _mm_unpacklo_epi16(ab_lo, cd_lo));
            store(&mut o[16..], _mm_unpackhi_epi16(ab_lo, cd_lo));
            store(&mut o[32..], _mm_unpacklo_epi16(ab_hi, cd_hi));
            store(&mut o[48..], _mm_unpackhi_epi16(ab_hi, cd_hi));
        }
        end
    }

    #[target_feature(enable = "ssse3")]
    pub fn deinterleave4(pixels: &[u8], rows: [&mut [u8]; 4], n: usize) -> usize {
        let end = n / 16 * 16;
        // Within four pixels: the four bytes of channel 0, then of 1, 2 and 3.
        let by_channel = _mm_setr_epi8(0, 4, 8, 12, 1, 5, 9, 13, 2, 6, 10, 14, 3, 7, 11, 15);
        let [r0, r1, r2, r3] = rows;
        for x in (0..end).step_by(16) {
            let p = &pixels[x * 4..x * 4 + 64];
            let s = [0, 16, 32, 48].map(|o| _mm_shuffle_epi8(load(&p[o..]), by_channel));
            let (t0, t1) = (
                _mm_unpacklo_epi32(s[0], s[1]),
                _mm_unpackhi_epi32(s[0], s[1]),
            );
            let (t2, t3) = (
                _mm_unpacklo_epi32(s[2], s[3]),
                _mm_unpackhi_epi32(s[2], s[3]),
            );
            store(&mut r0[x..], _mm_unpacklo_epi64(t0, t2));
            store(&mut r1[x..], _mm_unpackhi_epi64(t0, t2));
            store(&mut r2[x..], _mm_unpacklo_epi64(t1, t3));
            store(&mut r3[x..], _mm_unpackhi_epi64(t1, t3));
        }
        end
    }
}

thread_local! {
    // The interleaved rows and their horizontally scaled form, reused from frame to frame.
    static PLANE_WORK: std::cell::RefCell<(Vec<u8>, Vec<u8>)> =
        const { std::cell::RefCell::new((Vec::new(), Vec::new())) };
}
