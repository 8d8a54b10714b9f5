//! RGBA → I420 (BT.709, limited range) for the encoder, on the drawing thread: x264 takes the
//! planes as they are, so no `videoconvert` runs beside it on the two cores, and the queue in
//! front of x264 carries 1.5 bytes a pixel instead of 4. And I420 → RGBA for decoded clips,
//! straight from the decoder's planes into the frame the engine draws (one pass instead of a
//! `videoconvert` pass and a copy).

/// Bytes of an I420 frame of `w`×`h` (chroma planes rounded up for odd sizes).
pub fn i420_len(w: u32, h: u32) -> usize {
    let (w, h) = (w as usize, h as usize);
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    w * h + 2 * cw * ch
}

// BT.709 limited-range coefficients scaled by 2^8, small enough for 16-bit lanes (SSE2 has
// 16-bit multiplies, not 32-bit ones), so the loops below vectorise.
const YR: u16 = 47; // 0.1826
const YG: u16 = 157; // 0.6142
const YB: u16 = 16; // 0.0620
// UR to VB are public for the crate's tests in tests/it.
#[doc(hidden)]
pub const UR: i16 = -26; // -0.1006
#[doc(hidden)]
pub const UG: i16 = -87; // -0.3386
#[doc(hidden)]
pub const UB: i16 = 112; // 0.4392
#[doc(hidden)]
pub const VR: i16 = 112; // 0.4392
#[doc(hidden)]
pub const VG: i16 = -102; // -0.3989
#[doc(hidden)]
pub const VB: i16 = -10; // -0.0403

// Public for the crate's tests in tests/it.
#[doc(hidden)]
#[inline(always)]
pub fn luma(r: u8, g: u8, b: u8) -> u8 {
    let v = YR * u16::from(r) + YG * u16::from(g) + YB * u16::from(b) + 128;
    16 + (v >> 8) as u8
}

// Public for the crate's tests in tests/it.
#[doc(hidden)]
#[inline(always)]
pub fn chroma(r: i16, g: i16, b: i16, k: [i16; 3]) -> u8 {
    // Each product fits in 16 bits (|k| ≤ 112, channels ≤ 255) and so does their sum.
    let v = k[0]
        .wrapping_mul(r)
        .wrapping_add(k[1].wrapping_mul(g))
        .wrapping_add(k[2].wrapping_mul(b));
    (128 + ((i32::from(v) + 128) >> 8)).clamp(0, 255) as u8
}

/// Converts opaque RGBA (`w`×`h`, tightly packed) into I420 planes in `out`
/// (`i420_len(w, h)` bytes). Chroma is the mean of each 2×2 block.
pub fn rgba_to_i420(rgba: &[u8], w: u32, h: u32, out: &mut [u8]) {
    let (wu, hu) = (w as usize, h as usize);
    let (cw, ch) = (wu.div_ceil(2), hu.div_ceil(2));
    if out.len() < i420_len(w, h) {
        return;
    }
    let (y, chroma) = out.split_at_mut(wu * hu);
    let (u, v) = chroma.split_at_mut(cw * ch);
    let planes = PlanesMut {
        planes: [y, u, v],
        strides: [wu, cw, cw],
    };
    rgba_to_i420_strided(rgba, wu * 4, w, h, planes);
}

/// Three planes to write, each with its row stride in bytes.
pub struct PlanesMut<'a> {
    /// Y, U and V, each starting at the first pixel written.
    pub planes: [&'a mut [u8]; 3],
    /// Bytes between rows of each plane.
    pub strides: [usize; 3],
}

/// Converts opaque RGBA (`w`×`h`, rows `stride` bytes apart) into I420 `out`, so a rectangle
/// of a larger picture converts into a rectangle of a larger frame without copies.
pub fn rgba_to_i420_strided(rgba: &[u8], stride: usize, w: u32, h: u32, out: PlanesMut<'_>) {
    let (wu, hu) = (w as usize, h as usize);
    if wu == 0 || hu == 0 || stride < wu * 4 || rgba.len() < (hu - 1) * stride + wu * 4 {
        return;
    }
    let (cw, ch) = (wu.div_ceil(2), hu.div_ceil(2));
    let [ys, us, vs] = out.strides;
    let fits = |p: &[u8], s: usize, pw: usize, ph: usize| s >= pw && p.len() >= (ph - 1) * s + pw;
    let [yp, up, vp] = &out.planes;
    if !(fits(yp, ys, wu, hu) && fits(up, us, cw, ch) && fits(vp, vs, cw, ch)) {
        return;
    }
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("ssse3") && w.is_multiple_of(8) && h.is_multiple_of(2) {
        // SAFETY: the CPU has SSSE3, checked just above.
        unsafe { ssse3::convert(rgba, stride, wu, hu, out) };
        return;
    }
    convert(rgba, stride, wu, hu, out);
}

/// Fills I420 planes of `w`×`h` (`i420_len(w, h)` bytes) with one opaque colour, the same
/// bytes [`rgba_to_i420`] gives for a frame of that colour.
pub fn fill_i420(out: &mut [u8], w: u32, h: u32, rgb: [u8; 3]) {
    let block: Vec<u8> = (0..16)
        .flat_map(|_| [rgb[0], rgb[1], rgb[2], 255])
        .collect();
    let mut one = [0u8; 24];
    // 8×2 pixels take the same path as a frame whose width is a multiple of 8.
    let (bw, bh) = if w.is_multiple_of(8) { (8, 2) } else { (2, 2) };
    rgba_to_i420(&block, bw, bh, &mut one);
    let luma = (w * h) as usize;
    let (y, chroma) = out.split_at_mut(luma.min(out.len()));
    let half = chroma.len() / 2;
    let (u, v) = chroma.split_at_mut(half);
    y.fill(one[0]);
    u.fill(one[(bw * bh) as usize]);
    v.fill(one[(bw * bh + bw * bh / 4) as usize]);
}

/// Where rectangle `(x, y, w, h)` (even `x` and `y`) of an I420 frame of width `frame_w`,
/// tightly packed, starts in each plane, and each plane's row length.
fn plane_offsets(frame_w: usize, frame_h: usize, x: usize, y: usize) -> ([usize; 3], [usize; 3]) {
    let (cw, ch) = (frame_w.div_ceil(2), frame_h.div_ceil(2));
    let (u0, v0) = (frame_w * frame_h, frame_w * frame_h + cw * ch);
    (
        [
            y * frame_w + x,
            u0 + y / 2 * cw + x / 2,
            v0 + y / 2 * cw + x / 2,
        ],
        [frame_w, cw, cw],
    )
}

/// Converts rectangle `(x, y, w, h)` of the tightly packed I420 frame `frame` (`frame_w` ×
/// `frame_h`, even `x` and `y`) to opaque RGBA in `out`, with the encoder's own colours.
pub fn i420_region_to_rgba(
    frame: &[u8],
    (frame_w, frame_h): (usize, usize),
    (x, y, w, h): (usize, usize, usize, usize),
    out: &mut Vec<u8>,
) {
    let (at, strides) = plane_offsets(frame_w, frame_h, x, y);
    let plane = |i: usize| frame.get(at[i]..).unwrap_or(&[]);
    let src = I420 {
        w,
        h,
        planes: [plane(0), plane(1), plane(2)],
        strides,
    };
    i420_to_rgba(src, &YuvToRgb::encoder(), out);
}

/// Converts opaque RGBA (`w`×`h`, rows `stride` bytes apart) into rectangle `(x, y, w, h)`
/// (even `x` and `y`) of the tightly packed I420 frame `frame` (`frame_w` × `frame_h`).
pub fn rgba_to_i420_region(
    rgba: &[u8],
    stride: usize,
    frame: &mut [u8],
    (frame_w, frame_h): (usize, usize),
    (x, y, w, h): (usize, usize, usize, usize),
) {
    let (at, strides) = plane_offsets(frame_w, frame_h, x, y);
    let (cw, ch) = (frame_w.div_ceil(2), frame_h.div_ceil(2));
    if frame.len() < frame_w * frame_h + 2 * cw * ch {
        return;
    }
    let (yp, chroma) = frame.split_at_mut(frame_w * frame_h);
    let (up, vp) = chroma.split_at_mut(cw * ch);
    let (u0, v0) = (frame_w * frame_h, frame_w * frame_h + cw * ch);
    let (Some(yr), Some(ur), Some(vr)) = (
        yp.get_mut(at[0]..),
        up.get_mut(at[1] - u0..),
        vp.get_mut(at[2] - v0..),
    ) else {
        return;
    };
    let out = PlanesMut {
        planes: [yr, ur, vr],
        strides,
    };
    rgba_to_i420_strided(rgba, stride, w as u32, h as u32, out);
}

/// Copies the I420 picture `src` into the rectangle at even `at` of `frame`, tightly packed
/// I420 of `frame_size`. Returns false, having written nothing, when the rectangle is not
/// inside the frame or a plane of `src` is short.
///
/// A picture of odd width or height shares its last chroma column or row with the frame's
/// pixels beside it: there the two chromas are averaged, as converting the composed RGBA
/// picture would average that 2×2 block, instead of the picture's colour running one pixel
/// into the frame's.
pub fn put_i420(src: I420<'_>, frame: &mut [u8], frame_size: (u32, u32), at: (u32, u32)) -> bool {
    let (fw, fh) = (frame_size.0 as usize, frame_size.1 as usize);
    let (x, y) = (at.0 as usize, at.1 as usize);
    if x % 2 != 0
        || y % 2 != 0
        || x + src.w > fw
        || y + src.h > fh
        || frame.len() < i420_len(frame_size.0, frame_size.1)
    {
        return false;
    }
    let (cw, ch) = (src.w.div_ceil(2), src.h.div_ceil(2));
    let sizes = [(src.w, src.h), (cw, ch), (cw, ch)];
    let readable = sizes
        .iter()
        .enumerate()
        .all(|(i, &(pw, ph))| ph == 0 || src.planes[i].len() >= (ph - 1) * src.strides[i] + pw);
    if !readable {
        return false;
    }
    let (at_planes, strides) = plane_offsets(fw, fh, x, y);
    let (odd_col, odd_row) = (src.w % 2 == 1, src.h % 2 == 1);
    for (i, (pw, ph)) in sizes.into_iter().enumerate() {
        for row in 0..ph {
            let s = row * src.strides[i];
            let d = at_planes[i] + row * strides[i];
            let (Some(from), Some(to)) = (src.planes[i].get(s..s + pw), frame.get_mut(d..d + pw))
            else {
                continue;
            };
            if i == 0 {
                to.copy_from_slice(from);
            } else if odd_row && row + 1 == ph {
                for (t, f) in to.iter_mut().zip(from) {
                    *t = avg(*t, *f);
                }
            } else if odd_col {
                to[..pw - 1].copy_from_slice(&from[..pw - 1]);
                to[pw - 1] = avg(to[pw - 1], from[pw - 1]);
            } else {
                to.copy_from_slice(from);
            }
        }
    }
    true
}

/// The rounded mean of two bytes.
fn avg(a: u8, b: u8) -> u8 {
    (u16::from(a) + u16::from(b)).div_ceil(2) as u8
}

/// The conversion with SSSE3's byte multiply-add (as libyuv does it): 7-bit coefficients, four
/// pixels a register; rows averaged with `pavgb` for chroma. For widths in steps of 8 and even
/// heights (every output size); others take the portable loops.
#[cfg(target_arch = "x86_64")]
mod ssse3 {
    use std::arch::x86_64::*;

    // BT.709 limited range scaled by 2^7, as signed bytes for `maddubs` (pixel bytes R, G, B, A).
    const Y: [i8; 4] = [23, 79, 8, 0];
    const U: [i8; 4] = [-13, -43, 56, 0];
    const V: [i8; 4] = [56, -51, -5, 0];

    #[target_feature(enable = "ssse3")]
    fn coefficients(c: [i8; 4]) -> __m128i {
        _mm_set_epi8(
            c[3], c[2], c[1], c[0], c[3], c[2], c[1], c[0], c[3], c[2], c[1], c[0], c[3], c[2],
            c[1], c[0],
        )
    }

    /// Weighted sums of eight pixels (two registers of four) as eight 16-bit lanes.
    #[target_feature(enable = "ssse3")]
    fn sums(a: __m128i, b: __m128i, k: __m128i) -> __m128i {
        _mm_hadd_epi16(_mm_maddubs_epi16(a, k), _mm_maddubs_epi16(b, k))
    }

    #[target_feature(enable = "ssse3")]
    pub fn convert(rgba: &[u8], stride: usize, w: usize, h: usize, out: super::PlanesMut<'_>) {
        let ch = h / 2;
        let (ky, ku, kv) = (coefficients(Y), coefficients(U), coefficients(V));
        let (round, sixteen, mid) = (_mm_set1_epi16(64), _mm_set1_epi16(16), _mm_set1_epi16(128));
        let super::PlanesMut {
            planes: [y_plane, u_plane, v_plane],
            strides: [ys, us, vs],
        } = out;
        let load = |row: &[u8], x: usize| -> __m128i {
            let mut b = [0u8; 16];
            b.copy_from_slice(&row[x * 4..x * 4 + 16]);
            // SAFETY: `b` is 16 readable bytes.
            unsafe { _mm_loadu_si128(b.as_ptr().cast()) }
        };
        for y in 0..h {
            let row = &rgba[y * stride..y * stride + w * 4];
            let dst = &mut y_plane[y * ys..y * ys + w];
            for x in (0..w).step_by(8) {
                let v = sums(load(row, x), load(row, x + 4), ky);
                let v = _mm_add_epi16(_mm_srli_epi16(_mm_add_epi16(v, round), 7), sixteen);
                let mut b = [0u8; 16];
                // SAFETY: `b` is 16 writable bytes.
                unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), _mm_packus_epi16(v, v)) };
                dst[x..x + 8].copy_from_slice(&b[..8]);
            }
        }
        for cy in 0..ch {
            let top = &rgba[2 * cy * stride..2 * cy * stride + w * 4];
            let bottom = &rgba[(2 * cy + 1) * stride..(2 * cy + 1) * stride + w * 4];
            let (u_row, v_row) = (
                &mut u_plane[cy * us..cy * us + w / 2],
                &mut v_plane[cy * vs..cy * vs + w / 2],
            );
            for x in (0..w).step_by(8) {
                // Eight pixels of two rows → four 2×2 means.
                let a = _mm_avg_epu8(load(top, x), load(bottom, x));
                let b = _mm_avg_epu8(load(top, x + 4), load(bottom, x + 4));
                let (af, bf) = (_mm_castsi128_ps(a), _mm_castsi128_ps(b));
                let even = _mm_castps_si128(_mm_shuffle_ps::<0b10_00_10_00>(af, bf));
                let odd = _mm_castps_si128(_mm_shuffle_ps::<0b11_01_11_01>(af, bf));
                let m = _mm_avg_epu8(even, odd);
                let uv = sums(m, m, ku);
                let vv = sums(m, m, kv);
                let u = _mm_add_epi16(_mm_srai_epi16(_mm_add_epi16(uv, round), 7), mid);
                let v = _mm_add_epi16(_mm_srai_epi16(_mm_add_epi16(vv, round), 7), mid);
                let mut b = [0u8; 16];
                // SAFETY: `b` is 16 writable bytes.
                unsafe { _mm_storeu_si128(b.as_mut_ptr().cast(), _mm_packus_epi16(u, v)) };
                u_row[x / 2..x / 2 + 4].copy_from_slice(&b[..4]);
                v_row[x / 2..x / 2 + 4].copy_from_slice(&b[8..12]);
            }
        }
    }
}

// Public for the crate's tests in tests/it.
#[doc(hidden)]
pub fn convert(rgba: &[u8], stride: usize, w: usize, h: usize, out: PlanesMut<'_>) {
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    let PlanesMut {
        planes: [y_plane, u_plane, v_plane],
        strides: [ys, us, vs],
    } = out;
    for (y, y_row) in y_plane.chunks_mut(ys).take(h).enumerate() {
        let (Some(y_row), Some(src)) =
            (y_row.get_mut(..w), rgba.get(y * stride..y * stride + w * 4))
        else {
            return;
        };
        let mut yc = y_row.chunks_exact_mut(16);
        let mut sc = src.chunks_exact(64);
        for (y16, p) in (&mut yc).zip(&mut sc) {
            for i in 0..16 {
                y16[i] = luma(p[i * 4], p[i * 4 + 1], p[i * 4 + 2]);
            }
        }
        for (y, p) in yc
            .into_remainder()
            .iter_mut()
            .zip(sc.remainder().chunks_exact(4))
        {
            *y = luma(p[0], p[1], p[2]);
        }
    }
    // Per row pair: the two rows summed column by column (a plain 16-bit add that vectorises),
    // then each 2×2 block's mean from two neighbouring column sums.
    let mut pair = vec![0u16; w * 4];
    for cy in 0..ch {
        let r0 = (cy * 2).min(h - 1);
        let r1 = (cy * 2 + 1).min(h - 1);
        let (Some(top), Some(bottom)) = (
            rgba.get(r0 * stride..r0 * stride + w * 4),
            rgba.get(r1 * stride..r1 * stride + w * 4),
        ) else {
            return;
        };
        for ((p, t), b) in pair.iter_mut().zip(top).zip(bottom) {
            *p = u16::from(*t) + u16::from(*b);
        }
        let (Some(u_row), Some(v_row)) = (
            u_plane.get_mut(cy * us..cy * us + cw),
            v_plane.get_mut(cy * vs..cy * vs + cw),
        ) else {
            return;
        };
        let mut blocks = pair.chunks_exact(8);
        for ((u, v), p) in u_row.iter_mut().zip(v_row.iter_mut()).zip(&mut blocks) {
            let m = |c: usize| ((p[c] + p[c + 4] + 2) >> 2) as i16;
            let (r, g, b) = (m(0), m(1), m(2));
            *u = chroma(r, g, b, [UR, UG, UB]);
            *v = chroma(r, g, b, [VR, VG, VB]);
        }
        // An odd width: the last column's block is that column alone.
        if w % 2 == 1 {
            let p = &pair[(w - 1) * 4..w * 4];
            let m = |c: usize| ((p[c] * 2 + 2) >> 2) as i16;
            let (r, g, b) = (m(0), m(1), m(2));
            u_row[cw - 1] = chroma(r, g, b, [UR, UG, UB]);
            v_row[cw - 1] = chroma(r, g, b, [VR, VG, VB]);
        }
    }
}

/// How decoded Y′CbCr maps back to RGB: a matrix's coefficients in 14-bit fixed point and
/// where black sits (16 in limited range, 0 in full range).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct YuvToRgb {
    y: i32,
    y_black: i32,
    rv: i32,
    gu: i32,
    gv: i32,
    bu: i32,
}

impl YuvToRgb {
    /// Returns the conversion back from the encoder's own colours (BT.709, limited range).
    pub fn encoder() -> Self {
        Self::new(0.2126, 0.0722, false)
    }

    /// Returns the conversion for luma weights `kr`, `kb` (BT.709: 0.2126, 0.0722; BT.601:
    /// 0.299, 0.114), in limited (16–235) or full (0–255) range.
    pub fn new(kr: f64, kb: f64, full_range: bool) -> Self {
        let kg = 1.0 - kr - kb;
        let (ys, cs, y_black) = if full_range {
            (1.0, 1.0, 0)
        } else {
            (255.0 / 219.0, 255.0 / 224.0, 16)
        };
        let f = |v: f64| (v * 16384.0).round() as i32;
        YuvToRgb {
            y: f(ys),
            y_black,
            rv: f(cs * 2.0 * (1.0 - kr)),
            gu: f(cs * 2.0 * (1.0 - kb) * kb / kg),
            gv: f(cs * 2.0 * (1.0 - kr) * kr / kg),
            bu: f(cs * 2.0 * (1.0 - kb)),
        }
    }
}

/// One I420 picture borrowed from a decoder: its three planes and their row strides.
#[derive(Debug, Clone, Copy)]
pub struct I420<'a> {
    /// Width in pixels.
    pub w: usize,
    /// Height in pixels.
    pub h: usize,
    /// Y, U and V planes.
    pub planes: [&'a [u8]; 3],
    /// Bytes between rows of each plane.
    pub strides: [usize; 3],
}

impl<'a> I420<'a> {
    /// Returns the part `(x, y, w, h)` of the picture, at even `x` and `y` so its chroma
    /// starts on a whole sample; `None` when it is not inside the picture.
    pub fn part(&self, (x, y, w, h): (usize, usize, usize, usize)) -> Option<I420<'a>> {
        if x % 2 != 0 || y % 2 != 0 || x + w > self.w || y + h > self.h {
            return None;
        }
        let at = |i: usize, (px, py): (usize, usize)| self.planes[i].get(py * self.strides[i] + px..);
        Some(I420 {
            w,
            h,
            planes: [at(0, (x, y))?, at(1, (x / 2, y / 2))?, at(2, (x / 2, y / 2))?],
            strides: self.strides,
        })
    }
}

/// Converts `src` to opaque RGBA, tightly packed, into `out` (resized to `w * h * 4`).
pub fn i420_to_rgba(src: I420<'_>, m: &YuvToRgb, out: &mut Vec<u8>) {
    out.resize(src.w * src.h * 4, 0);
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        unsafe { i420_to_rgba_avx2(src, m, out) };
        return;
    }
    i420_rows(src, m, out);
}

/// The same loops compiled for AVX2 (they vectorise over pixel pairs).
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn i420_to_rgba_avx2(src: I420<'_>, m: &YuvToRgb, out: &mut [u8]) {
    i420_rows(src, m, out);
}

#[inline(always)]
fn i420_rows(src: I420<'_>, m: &YuvToRgb, out: &mut [u8]) {
    let I420 {
        w,
        h,
        planes: [yp, up, vp],
        strides: [ys, us, vs],
    } = src;
    let cw = w.div_ceil(2);
    for (y, dst) in out.chunks_exact_mut(w * 4).take(h).enumerate() {
        let (Some(yr), Some(ur), Some(vr)) = (
            yp.get(y * ys..y * ys + w),
            up.get(y / 2 * us..y / 2 * us + cw),
            vp.get(y / 2 * vs..y / 2 * vs + cw),
        ) else {
            return;
        };
        i420_row(yr, ur, vr, dst, m);
    }
}

#[inline(always)]
fn i420_row(yr: &[u8], ur: &[u8], vr: &[u8], dst: &mut [u8], m: &YuvToRgb) {
    let px = |l: u8, r: i32, g: i32, b: i32, out: &mut [u8]| {
        let l = (i32::from(l) - m.y_black) * m.y + 8192;
        out[0] = ((l + r) >> 14).clamp(0, 255) as u8;
        out[1] = ((l + g) >> 14).clamp(0, 255) as u8;
        out[2] = ((l + b) >> 14).clamp(0, 255) as u8;
        out[3] = 255;
    };
    let mut pairs = dst.chunks_exact_mut(8);
    let mut lumas = yr.chunks_exact(2);
    for ((o, l), (&u, &v)) in (&mut pairs).zip(&mut lumas).zip(ur.iter().zip(vr)) {
        let (u, v) = (i32::from(u) - 128, i32::from(v) - 128);
        let (r, g, b) = (m.rv * v, -m.gu * u - m.gv * v, m.bu * u);
        let (o0, o1) = o.split_at_mut(4);
        px(l[0], r, g, b, o0);
        px(l[1], r, g, b, o1);
    }
    // An odd width: the last pixel has a chroma sample of its own.
    if let (Some(&l), Some(o), Some(&u), Some(&v)) = (
        lumas.remainder().first(),
        pairs.into_remainder().get_mut(..4),
        ur.last(),
        vr.last(),
    ) {
        let (u, v) = (i32::from(u) - 128, i32::from(v) - 128);
        px(l, m.rv * v, -m.gu * u - m.gv * v, m.bu * u, o);
    }
}
