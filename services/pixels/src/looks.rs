//! The toolbox's picture looks (docs/toolbox.md), without a model: skin smoothing and tone of an
//! I420 picture (VIDEO_BEAUTY: a skin mask from the chroma, a self-guided filter of the luma),
//! an unsharp mask after an upscale (INCREASE_RESOLUTION), and the crossfade of two pictures
//! (PPT_CONVERTER's page transition).

use crate::erase::Plane;

/// Chroma of skin (YCbCr, BT.601 studio range; the usual Chai and Ngan ranges): `(Cb, Cr)` low
/// and high bounds. The weight rises from 0 at a bound to 1 over [`SKIN_SOFT`] levels inside it
/// (neutral grey, 128/128, lies just outside the Cr range: it stays 0).
pub const SKIN_CB: (f32, f32) = (77.0, 127.0);
/// See [`SKIN_CB`].
pub const SKIN_CR: (f32, f32) = (133.0, 173.0);
/// Levels over which the skin weight rises from 0 at a bound to 1 (no hard seam at the mask's edge).
pub const SKIN_SOFT: f32 = 8.0;

/// How much a sample of chroma `(cb, cr)` is skin, 0 to 1.
pub fn skin_weight(cb: u8, cr: u8) -> f32 {
    let inside = |v: f32, (lo, hi): (f32, f32)| ((v - lo) / SKIN_SOFT).min((hi - v) / SKIN_SOFT).clamp(0.0, 1.0);
    inside(f32::from(cb), SKIN_CB) * inside(f32::from(cr), SKIN_CR)
}

/// A beauty pass: smoothing strength and the skin's tone.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Beauty {
    /// 0 (none) to 1 (the filtered luma alone on skin).
    pub strength: f32,
    /// −1 to 1: the skin's luma moved by up to 24 levels.
    pub brightness: f32,
    /// −1 to 1: the skin's red chroma moved up (warmer) or down by up to 10 levels, its blue the other way.
    pub warmth: f32,
}

/// The sum over `width`×`height` values (rows `stride` apart, read by `value`) as an integral
/// image of `(width + 1) × (height + 1)`, so any box's sum is four reads.
fn integral(width: usize, height: usize, value: impl Fn(usize, usize) -> f64) -> Vec<f64> {
    let w1 = width + 1;
    let mut sum = vec![0.0; w1 * (height + 1)];
    for y in 0..height {
        let mut row = 0.0;
        for x in 0..width {
            row += value(x, y);
            sum[(y + 1) * w1 + x + 1] = sum[y * w1 + x + 1] + row;
        }
    }
    sum
}

/// The mean of the integral image `sum` over the box of `radius` around `(x, y)`, clipped to the picture.
fn box_mean(sum: &[f64], width: usize, height: usize, radius: usize, x: usize, y: usize) -> f64 {
    let w1 = width + 1;
    let (x0, y0) = (x.saturating_sub(radius), y.saturating_sub(radius));
    let (x1, y1) = ((x + radius + 1).min(width), (y + radius + 1).min(height));
    let total = sum[y1 * w1 + x1] - sum[y0 * w1 + x1] - sum[y1 * w1 + x0] + sum[y0 * w1 + x0];
    total / ((x1 - x0) * (y1 - y0)) as f64
}

/// The self-guided filter of a plane (He et al.): per box, `a = var / (var + eps)` keeps edges whose
/// variance passes `eps` and flattens what stays below it (noise, pores); returns the filtered samples packed.
pub fn guided(plane: &Plane<'_>, radius: usize, eps: f64) -> Vec<f32> {
    let (w, h, stride) = (plane.width, plane.height, plane.stride);
    let at = |x: usize, y: usize| f64::from(plane.data.get(y * stride + x).copied().unwrap_or(0));
    let mean = integral(w, h, at);
    let square = integral(w, h, |x, y| at(x, y) * at(x, y));
    let mut a = vec![0.0f64; w * h];
    let mut b = vec![0.0f64; w * h];
    for y in 0..h {
        for x in 0..w {
            let m = box_mean(&mean, w, h, radius, x, y);
            let var = (box_mean(&square, w, h, radius, x, y) - m * m).max(0.0);
            let k = var / (var + eps);
            a[y * w + x] = k;
            b[y * w + x] = m - k * m;
        }
    }
    let (sa, sb) = (integral(w, h, |x, y| a[y * w + x]), integral(w, h, |x, y| b[y * w + x]));
    let mut out = vec![0.0f32; w * h];
    for y in 0..h {
        for x in 0..w {
            out[y * w + x] = (box_mean(&sa, w, h, radius, x, y) * at(x, y) + box_mean(&sb, w, h, radius, x, y)) as f32;
        }
    }
    out
}

/// Smooths and tones the skin of an I420 picture in place: each luma sample moves towards its
/// self-guided filtering by `strength` times its skin weight (the weight of the chroma sample it
/// shares), then the tone is added by the same weight; samples that are not skin are not written.
pub fn beautify(y: &mut Plane<'_>, u: &mut Plane<'_>, v: &mut Plane<'_>, look: Beauty) {
    let (w, h) = (y.width, y.height);
    let (cw, ch) = (u.width.min(v.width), u.height.min(v.height));
    let mut weight = vec![0.0f32; cw * ch];
    for cy in 0..ch {
        for cx in 0..cw {
            weight[cy * cw + cx] = skin_weight(u.data[cy * u.stride + cx], v.data[cy * v.stride + cx]);
        }
    }
    if weight.iter().all(|m| *m == 0.0) {
        return;
    }
    // A window of about 1/90 of the picture's shorter side (2 samples at 180 rows, 12 at 1080) and
    // an eps of 30² levels: the noise and pores of a face fall below it, its features' edges pass it.
    let radius = (w.min(h) / 90).clamp(2, 16);
    let smooth = if look.strength > 0.0 { guided(y, radius, 900.0) } else { Vec::new() };
    let lift = look.brightness.clamp(-1.0, 1.0) * 24.0;
    for row in 0..h {
        for x in 0..w {
            let m = weight.get((row / 2).min(ch.saturating_sub(1)) * cw + (x / 2).min(cw.saturating_sub(1))).copied().unwrap_or(0.0);
            if m == 0.0 {
                continue;
            }
            let i = row * y.stride + x;
            let old = f32::from(y.data[i]);
            let target = smooth.get(row * w + x).copied().unwrap_or(old);
            let new = old + look.strength.clamp(0.0, 1.0) * m * (target - old) + m * lift;
            y.data[i] = new.round().clamp(0.0, 255.0) as u8;
        }
    }
    let warm = look.warmth.clamp(-1.0, 1.0);
    if warm != 0.0 {
        for cy in 0..ch {
            for cx in 0..cw {
                let m = weight[cy * cw + cx];
                if m == 0.0 {
                    continue;
                }
                let (iu, iv) = (cy * u.stride + cx, cy * v.stride + cx);
                u.data[iu] = (f32::from(u.data[iu]) - m * warm * 6.0).round().clamp(0.0, 255.0) as u8;
                v.data[iv] = (f32::from(v.data[iv]) + m * warm * 10.0).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
}

/// An unsharp mask of a plane in place: each sample plus `amount` times its difference from a
/// 5-tap binomial blur (a Gaussian of deviation 1) each way; differences under 2 levels are left
/// alone so that flat areas' noise is not raised.
pub fn sharpen(plane: &mut Plane<'_>, amount: f32) {
    let (w, h, stride) = (plane.width, plane.height, plane.stride);
    if w == 0 || h == 0 || amount <= 0.0 {
        return;
    }
    const TAPS: [f32; 5] = [1.0, 4.0, 6.0, 4.0, 1.0];
    let at = |x: isize, y: usize, data: &[u8]| f32::from(data[y * stride + x.clamp(0, w as isize - 1) as usize]);
    let mut across = vec![0.0f32; w * h];
    for y in 0..h {
        for x in 0..w {
            let s: f32 = TAPS.iter().enumerate().map(|(k, t)| t * at(x as isize + k as isize - 2, y, plane.data)).sum();
            across[y * w + x] = s / 16.0;
        }
    }
    for y in 0..h {
        for x in 0..w {
            let s: f32 = TAPS.iter().enumerate().map(|(k, t)| t * across[(y as isize + k as isize - 2).clamp(0, h as isize - 1) as usize * w + x]).sum();
            let i = y * stride + x;
            let old = f32::from(plane.data[i]);
            let diff = old - s / 16.0;
            if diff.abs() >= 2.0 {
                plane.data[i] = (old + amount * diff).round().clamp(0.0, 255.0) as u8;
            }
        }
    }
}

/// `out = a · (1 − t) + b · t`, sample by sample (a crossfade's picture at `t`, 0 to 1).
pub fn mix(a: &[u8], b: &[u8], t: f32, out: &mut [u8]) {
    let t = t.clamp(0.0, 1.0);
    for ((o, x), y) in out.iter_mut().zip(a).zip(b) {
        *o = (f32::from(*x) + t * (f32::from(*y) - f32::from(*x))).round() as u8;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A deterministic noise, −1 to 1.
    fn noise(i: usize) -> f32 {
        let mut s = (i as u64).wrapping_mul(6_364_136_223_846_793_005).wrapping_add(1_442_695_040_888_963_407);
        s ^= s >> 33;
        s = s.wrapping_mul(0xff51_afd7_ed55_8ccd);
        s ^= s >> 33;
        (s % 2001) as f32 / 1000.0 - 1.0
    }

    fn variance(v: &[f32]) -> f32 {
        let mean = v.iter().sum::<f32>() / v.len() as f32;
        v.iter().map(|x| (x - mean).powi(2)).sum::<f32>() / v.len() as f32
    }

    fn psnr(a: &[u8], b: &[u8]) -> f64 {
        let mse = a.iter().zip(b).map(|(x, y)| (f64::from(*x) - f64::from(*y)).powi(2)).sum::<f64>() / a.len().max(1) as f64;
        if mse == 0.0 { f64::INFINITY } else { 10.0 * (255.0f64 * 255.0 / mse).log10() }
    }

    #[test]
    fn noisy_skin_is_smoothed_and_a_sharp_edge_elsewhere_is_left_alone() {
        // 160×90: the left half skin-coloured with ±20 levels of noise, the right half grey with a
        // black/white edge down its middle (neutral chroma: not skin).
        let (w, h) = (160usize, 90usize);
        let mut luma = vec![0u8; w * h];
        for y in 0..h {
            for x in 0..w {
                luma[y * w + x] = if x < 80 { (150.0 + 20.0 * noise(y * w + x)).round() as u8 } else if x < 120 { 30 } else { 220 };
            }
        }
        let (cw, ch) = (w / 2, h / 2);
        let mut cb: Vec<u8> = (0..cw * ch).map(|i| if i % cw < 40 { 110 } else { 128 }).collect();
        let mut cr: Vec<u8> = (0..cw * ch).map(|i| if i % cw < 40 { 150 } else { 128 }).collect();
        let before = luma.clone();
        let look = Beauty { strength: 1.0, brightness: 0.0, warmth: 0.0 };
        let mut y = Plane { data: &mut luma, width: w, height: h, stride: w };
        let mut u = Plane { data: &mut cb, width: cw, height: ch, stride: cw };
        let mut v = Plane { data: &mut cr, width: cw, height: ch, stride: cw };
        beautify(&mut y, &mut u, &mut v, look);
        // The skin region, away from its border with the grey.
        let skin = |p: &[u8]| -> Vec<f32> { (4..h - 4).flat_map(|r| (4..72).map(move |x| (r, x))).map(|(r, x)| f32::from(p[r * w + x])).collect() };
        let (was, now) = (variance(&skin(&before)), variance(&skin(&luma)));
        assert!(now * 2.0 <= was, "the skin's noise variance {was:.1} → {now:.1}");
        let outside = |p: &[u8]| -> Vec<u8> { (0..h).flat_map(|r| (80..w).map(move |x| (r, x))).map(|(r, x)| p[r * w + x]).collect() };
        let kept = psnr(&outside(&before), &outside(&luma));
        assert!(kept >= 40.0, "outside the skin {kept:.1} dB");
        // A warmer tone moves the skin's chroma and nothing else.
        let look = Beauty { strength: 0.0, brightness: 0.5, warmth: 1.0 };
        let mut y = Plane { data: &mut luma, width: w, height: h, stride: w };
        let mut u = Plane { data: &mut cb, width: cw, height: ch, stride: cw };
        let mut v = Plane { data: &mut cr, width: cw, height: ch, stride: cw };
        beautify(&mut y, &mut u, &mut v, look);
        assert_eq!((cr[0], cb[0], cr[cw - 1], cb[cw - 1]), (160, 104, 128, 128));
    }

    #[test]
    fn the_skin_weight_is_whole_inside_the_ranges_and_rises_from_their_bounds() {
        assert_eq!(skin_weight(110, 150), 1.0);
        assert_eq!(skin_weight(128, 128), 0.0);
        assert!((skin_weight(110, 137) - 0.5).abs() < 1e-6);
        assert_eq!(skin_weight(110, 133), 0.0);
    }

    #[test]
    fn a_sharpened_step_is_steeper_and_a_crossfade_is_between() {
        let (w, h) = (32usize, 4usize);
        let mut data: Vec<u8> = (0..w * h).map(|i| if i % w < 16 { 100 } else { 140 }).collect();
        let before = data.clone();
        sharpen(&mut Plane { data: &mut data, width: w, height: h, stride: w }, 1.0);
        assert!(data[15] < before[15] && data[16] > before[16] && data[0] == before[0]);
        let mut out = [0u8; 2];
        mix(&[0, 100], &[100, 200], 0.25, &mut out);
        assert_eq!(out, [25, 125]);
    }
}
