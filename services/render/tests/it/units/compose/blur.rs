//! `compose::blur`: the three-box blur against the exact Gaussian, its bands on any number of threads.

use reelforge_render::compose::Bitmap;
use reelforge_render::compose::blur::{bands_on, box_radii, gaussian, row_pass};

/// Bands on any number of threads write the same rows as one pass over the whole picture.
#[test]
fn bands_on_many_threads_are_one_pass() {
    let (w, h) = (37, 23);
    let src: Vec<u8> = (0..w * h * 4).map(|i| (i * 7 % 251) as u8).collect();
    let pass = |src: &[u8], rows: std::ops::Range<usize>, dst: &mut [u8]| {
        for (y, out) in rows.zip(dst.chunks_exact_mut(w * 4)) {
            row_pass(&src[y * w * 4..(y + 1) * w * 4], out, 3);
        }
    };
    let mut one = vec![0; src.len()];
    bands_on(1, &src, &mut one, w, h, pass);
    for threads in [2, 3, 5, 23] {
        let mut many = vec![0; src.len()];
        bands_on(threads, &src, &mut many, w, h, pass);
        assert!(many == one, "{threads} threads");
    }
}

/// The exact Gaussian, straight from its separable kernel (±4σ, edges repeated).
fn reference(b: &Bitmap, sigma: f64) -> Vec<f64> {
    let r = (4.0 * sigma).ceil() as isize;
    let k: Vec<f64> = (-r..=r)
        .map(|i| (-(i * i) as f64 / (2.0 * sigma * sigma)).exp())
        .collect();
    let total: f64 = k.iter().sum();
    let (w, h) = (b.w as isize, b.h as isize);
    let at = |x: isize, y: isize| (y.clamp(0, h - 1) * w + x.clamp(0, w - 1)) as usize * 4;
    let mut across = vec![0.0; b.px.len()];
    for y in 0..h {
        for x in 0..w {
            for c in 0..4 {
                across[at(x, y) + c] = (-r..=r)
                    .zip(&k)
                    .map(|(i, kv)| kv * f64::from(b.px[at(x + i, y) + c]))
                    .sum::<f64>()
                    / total;
            }
        }
    }
    let mut out = vec![0.0; b.px.len()];
    for y in 0..h {
        for x in 0..w {
            for c in 0..4 {
                out[at(x, y) + c] = (-r..=r)
                    .zip(&k)
                    .map(|(i, kv)| kv * across[at(x, y + i) + c])
                    .sum::<f64>()
                    / total;
            }
        }
    }
    out
}

/// A picture with hard edges, fine detail and transparency: what a blur gets wrong first.
fn pattern(w: u32, h: u32) -> Bitmap {
    let mut b = Bitmap::new(w, h);
    for y in 0..h {
        for x in 0..w {
            let i = ((y * w + x) * 4) as usize;
            let a: u8 = if (x / 40 + y / 30) % 3 == 0 { 128 } else { 255 };
            let v = |s: u32| (s * 37 % 256 * u32::from(a) / 255) as u8;
            let checker: u32 = if (x / 7 + y / 5) % 2 == 0 { 255 } else { 0 };
            b.px[i..i + 4].copy_from_slice(&[
                v(x + y),
                (checker * u32::from(a) / 255) as u8,
                if x < w / 2 { a } else { 0 },
                a,
            ]);
        }
    }
    b
}

#[test]
fn three_boxes_match_a_gaussian_within_two_levels() {
    // Large enough to split into bands across threads.
    let src = pattern(256, 256);
    for sigma in [2.5f32, 9.0] {
        let mut got = src.clone();
        gaussian(&mut got, sigma);
        let want = reference(&src, f64::from(sigma));
        let mae = got
            .px
            .iter()
            .zip(&want)
            .map(|(g, w)| (f64::from(*g) - w).abs())
            .sum::<f64>()
            / want.len() as f64;
        assert!(mae < 2.0, "σ {sigma}: mean absolute error {mae:.3}");
        assert!(
            got.px
                .chunks_exact(4)
                .all(|p| p[..3].iter().all(|c| *c <= p[3])),
            "σ {sigma}: a premultiplied channel exceeds its alpha"
        );
    }
}

#[test]
fn box_widths_add_up_to_the_variance() {
    for sigma in [0.8f32, 3.0, 8.0, 40.0] {
        let var: f64 = box_radii(sigma)
            .iter()
            .map(|r| {
                let w = (2 * r + 1) as f64;
                (w * w - 1.0) / 12.0
            })
            .sum();
        let want = f64::from(sigma).powi(2);
        assert!(
            (var - want).abs() / want < 0.15,
            "σ {sigma}: variance {var}"
        );
    }
    assert_eq!(box_radii(0.2), [0, 0, 0]);
}

#[test]
fn a_flat_picture_stays_flat_and_a_huge_radius_is_the_mean() {
    let mut flat = Bitmap::filled(50, 30, [10, 200, 90]);
    gaussian(&mut flat, 9.0);
    assert!(flat.px.chunks_exact(4).all(|p| p == [10, 200, 90, 255]));
    assert!(flat.opaque);
    let mut tiny = Bitmap::filled(3, 2, [0, 0, 0]);
    tiny.px[0] = 255;
    gaussian(&mut tiny, 500.0);
    assert!(
        tiny.px
            .chunks_exact(4)
            .all(|p| p[0].abs_diff(tiny.px[0]) <= 1)
    );
}
