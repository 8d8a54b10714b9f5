//! Blend loops over premultiplied RGBA, each restricted to the destination rectangle the layer
//! covers. Integer maths on bytes: products of two bytes fit u16/u32, so the casts cannot overflow.

use super::{Bitmap, View};

/// An integer rectangle `[x0, x1) × [y0, y1)` in canvas pixels.
#[derive(Debug, Clone, Copy, Default, PartialEq, Eq)]
pub struct Rect {
    /// Left.
    pub x0: i32,
    /// Top.
    pub y0: i32,
    /// Right (exclusive).
    pub x1: i32,
    /// Bottom (exclusive).
    pub y1: i32,
}

impl Rect {
    /// Returns the rectangle of a whole `w`×`h` canvas.
    pub fn of(w: u32, h: u32) -> Self {
        Rect {
            x0: 0,
            y0: 0,
            x1: w as i32,
            y1: h as i32,
        }
    }
    /// Returns the intersection (possibly empty).
    pub fn intersect(self, o: Rect) -> Rect {
        Rect {
            x0: self.x0.max(o.x0),
            y0: self.y0.max(o.y0),
            x1: self.x1.min(o.x1),
            y1: self.y1.min(o.y1),
        }
    }
    /// Returns whether the rectangle covers no pixel.
    pub fn is_empty(self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }
}

/// Returns `a·b/255` rounded, for bytes.
#[inline(always)]
pub fn mul255(a: u8, b: u8) -> u8 {
    let x = u32::from(a) * u32::from(b) + 128;
    ((x + (x >> 8)) >> 8) as u8
}

/// Draws `src` with its top-left at (`x`, `y`) and opacity `alpha` (0..=1), only inside `clip`.
pub fn draw(dst: &mut Bitmap, src: View<'_>, x: i32, y: i32, alpha: f32, clip: Rect) {
    let a = (alpha.clamp(0.0, 1.0) * 255.0).round() as u32;
    if a == 0 {
        return;
    }
    let area = Rect {
        x0: x,
        y0: y,
        x1: x + src.w as i32,
        y1: y + src.h as i32,
    }
    .intersect(clip)
    .intersect(Rect::of(dst.w, dst.h));
    if area.is_empty() {
        return;
    }
    let dst_stride = dst.w as usize * 4;
    let (sx0, n) = ((area.x0 - x) as usize * 4, (area.x1 - area.x0) as usize * 4);
    for yy in area.y0..area.y1 {
        let srow = src.row((yy - y) as u32);
        let Some(s) = srow.get(sx0..sx0 + n) else {
            continue;
        };
        let off = yy as usize * dst_stride + area.x0 as usize * 4;
        let Some(d) = dst.px.get_mut(off..off + n) else {
            continue;
        };
        if src.opaque && a == 255 {
            d.copy_from_slice(s);
        } else if src.opaque {
            blend_const(d, s, a);
        } else {
            blend_over(d, s, a);
        }
    }
}

/// dst = dst + (src − dst)·a for opaque sources.
// Public for the crate's tests in tests/it.
#[doc(hidden)]
pub fn blend_const(d: &mut [u8], s: &[u8], a: u32) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        unsafe { blend_const_avx2(d, s, a) };
        return;
    }
    blend_const_lanes(d, s, a);
}

/// The same loop compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn blend_const_avx2(d: &mut [u8], s: &[u8], a: u32) {
    blend_const_lanes(d, s, a);
}

/// In 16-bit lanes, so it vectorises: s·a + d·(255 − a) + 128 is at most 65 153.
#[inline(always)]
fn blend_const_lanes(d: &mut [u8], s: &[u8], a: u32) {
    let a = a.min(255) as u16;
    let ia = 255 - a;
    for (dp, sp) in d.iter_mut().zip(s) {
        let v = u16::from(*sp) * a + u16::from(*dp) * ia + 128;
        *dp = ((v + (v >> 8)) >> 8) as u8;
    }
}

/// dst = src·a + dst·(1 − src_alpha·a), premultiplied source-over.
#[inline]
fn blend_over(d: &mut [u8], s: &[u8], a: u32) {
    if a == 255 {
        over_opaque(d, s);
        return;
    }
    for (dp, sp) in d.chunks_exact_mut(4).zip(s.chunks_exact(4)) {
        let sa = u32::from(sp[3]);
        if sa == 0 {
            continue;
        }
        if sa == 255 && a == 255 {
            dp.copy_from_slice(sp);
            continue;
        }
        let sa_eff = (sa * a + 127) / 255;
        let inv = 255 - sa_eff;
        for c in 0..4 {
            let sv = (u32::from(sp[c]) * a + 127) / 255;
            let v = u32::from(dp[c]) * inv + 128;
            dp[c] = (sv + ((v + (v >> 8)) >> 8)).min(255) as u8;
        }
    }
}

/// dst = src + dst·(1 − src_alpha) over eight pixels at a time in 16-bit lanes, so it
/// vectorises (premultiplied channels never exceed their alpha, so the sum stays a byte).
fn over_opaque(d: &mut [u8], s: &[u8]) {
    #[cfg(target_arch = "x86_64")]
    if std::is_x86_feature_detected!("avx2") {
        // SAFETY: the CPU has AVX2, checked just above.
        unsafe { over_opaque_avx2(d, s) };
        return;
    }
    over_opaque_lanes(d, s);
}

/// The same loop compiled for AVX2.
#[cfg(target_arch = "x86_64")]
#[target_feature(enable = "avx2")]
fn over_opaque_avx2(d: &mut [u8], s: &[u8]) {
    over_opaque_lanes(d, s);
}

#[inline(always)]
fn over_opaque_lanes(d: &mut [u8], s: &[u8]) {
    const N: usize = 32;
    let mut dc = d.chunks_exact_mut(N);
    let mut sc = s.chunks_exact(N);
    for (dp, sp) in (&mut dc).zip(&mut sc) {
        let mut inv = [0u16; N];
        for (i, v) in inv.iter_mut().enumerate() {
            *v = 255 - u16::from(sp[(i & !3) + 3]);
        }
        for i in 0..N {
            let v = u16::from(dp[i]) * inv[i] + 128;
            dp[i] = sp[i].wrapping_add(((v + (v >> 8)) >> 8) as u8);
        }
    }
    for (dp, sp) in dc
        .into_remainder()
        .chunks_exact_mut(4)
        .zip(sc.remainder().chunks_exact(4))
    {
        let inv = 255 - u16::from(sp[3]);
        for c in 0..4 {
            let v = u16::from(dp[c]) * inv + 128;
            dp[c] = sp[c].wrapping_add(((v + (v >> 8)) >> 8) as u8);
        }
    }
}

/// Draws `src` through the affine map `m` (source pixel → canvas pixel: `[a, b, c, d, e, f]`
/// meaning x' = a·x + c·y + e, y' = b·x + d·y + f) with bilinear sampling, opacity `alpha`,
/// only inside `clip`. Used for rotated or scaled layers; the plain [`draw`] is much cheaper.
pub fn draw_affine(dst: &mut Bitmap, src: View<'_>, m: [f64; 6], alpha: f32, clip: Rect) {
    let [a, b, c, d, e, f] = m;
    let det = a * d - b * c;
    if det.abs() < 1e-12 || src.w == 0 || src.h == 0 {
        return;
    }
    let alpha8 = (alpha.clamp(0.0, 1.0) * 255.0).round() as u32;
    if alpha8 == 0 {
        return;
    }
    // Inverse map: canvas → source.
    let (ia, ib, ic, id) = (d / det, -b / det, -c / det, a / det);
    let (ie, iff) = (-(ia * e + ic * f), -(ib * e + id * f));
    let (sw, sh) = (f64::from(src.w), f64::from(src.h));
    let corners = [(0.0, 0.0), (sw, 0.0), (0.0, sh), (sw, sh)]
        .map(|(x, y)| (a * x + c * y + e, b * x + d * y + f));
    let minx = corners.iter().map(|p| p.0).fold(f64::MAX, f64::min).floor() as i32;
    let maxx = corners.iter().map(|p| p.0).fold(f64::MIN, f64::max).ceil() as i32;
    let miny = corners.iter().map(|p| p.1).fold(f64::MAX, f64::min).floor() as i32;
    let maxy = corners.iter().map(|p| p.1).fold(f64::MIN, f64::max).ceil() as i32;
    let area = Rect {
        x0: minx,
        y0: miny,
        x1: maxx,
        y1: maxy,
    }
    .intersect(clip)
    .intersect(Rect::of(dst.w, dst.h));
    if area.is_empty() {
        return;
    }
    let dst_stride = dst.w as usize * 4;
    let texel = |x: i64, y: i64| -> [u32; 4] {
        if x < 0 || y < 0 || x >= i64::from(src.w) || y >= i64::from(src.h) {
            return [0; 4];
        }
        let r = src.row(y as u32);
        let o = x as usize * 4;
        r.get(o..o + 4).map_or([0; 4], |p| {
            [p[0].into(), p[1].into(), p[2].into(), p[3].into()]
        })
    };
    for yy in area.y0..area.y1 {
        let py = f64::from(yy) + 0.5;
        for xx in area.x0..area.x1 {
            let px = f64::from(xx) + 0.5;
            let sx = ia * px + ic * py + ie - 0.5;
            let sy = ib * px + id * py + iff - 0.5;
            if sx < -1.0 || sy < -1.0 || sx >= sw || sy >= sh {
                continue;
            }
            let (x0, y0) = (sx.floor(), sy.floor());
            let (fx, fy) = (((sx - x0) * 256.0) as u32, ((sy - y0) * 256.0) as u32);
            let (x0, y0) = (x0 as i64, y0 as i64);
            let (p00, p10, p01, p11) = (
                texel(x0, y0),
                texel(x0 + 1, y0),
                texel(x0, y0 + 1),
                texel(x0 + 1, y0 + 1),
            );
            let mut s = [0u32; 4];
            for ch in 0..4 {
                let top = p00[ch] * (256 - fx) + p10[ch] * fx;
                let bot = p01[ch] * (256 - fx) + p11[ch] * fx;
                s[ch] = ((top * (256 - fy) + bot * fy) >> 16) * alpha8 / 255;
            }
            if s[3] == 0 {
                continue;
            }
            let off = yy as usize * dst_stride + xx as usize * 4;
            let Some(dp) = dst.px.get_mut(off..off + 4) else {
                continue;
            };
            let inv = 255 - s[3].min(255);
            for ch in 0..4 {
                let v = u32::from(dp[ch]) * inv + 128;
                dp[ch] = (s[ch] + ((v + (v >> 8)) >> 8)).min(255) as u8;
            }
        }
    }
}
