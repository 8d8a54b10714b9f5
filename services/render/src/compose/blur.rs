//! Gaussian blur at the cost of a few copies, whatever its radius: three box passes each way
//! with running sums (a box run three times is within a few per cent of a Gaussian), box widths
//! chosen so their variances add up to σ² (Kovesi, "Fast almost-Gaussian filtering", 2010).
//! Each pass is split into bands of rows across the cores. Edges repeat the border pixel.
//! Premultiplied pixels blur as they are: every channel goes through the same linear sums, so
//! no colour ever exceeds its alpha.

use super::Bitmap;

/// Fixed-point shift of the reciprocal of a box's width: `sum * inv >> SHIFT` is the mean.
/// 255 × 2²² fits in a `u32` with room for the rounding, whatever the width.
const SHIFT: u32 = 22;
/// Pixels below which a pass runs on the calling thread. Threads cost more than they save on a
/// clip background blurred every frame (its shrunk crop is well under this): six passes a frame
/// each started and joined threads that x264 then kept waiting, which made footage-portrait
/// 3.81 → 3.10 s at this threshold instead of 64 Ki pixels (docs/benchmarks.md, tenth pass).
const PARALLEL_MIN_PIXELS: usize = 1024 * 1024;

/// Blurs `b` with a Gaussian of standard deviation `sigma` pixels (nothing below 0.5).
pub fn gaussian(b: &mut Bitmap, sigma: f32) {
    let (w, h) = (b.w as usize, b.h as usize);
    let radii = box_radii(sigma);
    if w == 0 || h == 0 || radii.iter().all(|r| *r == 0) {
        return;
    }
    TMP.with(|tmp| {
        let mut tmp = tmp.borrow_mut();
        tmp.resize(b.px.len(), 0);
        for r in radii.into_iter().filter(|r| *r > 0) {
            bands(&b.px, &mut tmp, w, h, |src, rows, dst| {
                for (y, out) in rows.zip(dst.chunks_exact_mut(w * 4)) {
                    row_pass(&src[y * w * 4..(y + 1) * w * 4], out, r);
                }
            });
            bands(&tmp, &mut b.px, w, h, |src, rows, dst| {
                column_pass(src, dst, w, h, rows, r);
            });
        }
    });
    b.update_opaque();
}

thread_local! {
    // The horizontal passes' output, reused: a blurred clip background blurs every frame, and
    // a fresh buffer costs a page fault per 4 KiB each time.
    static TMP: std::cell::RefCell<Vec<u8>> = const { std::cell::RefCell::new(Vec::new()) };
}

/// Returns the radii of three boxes whose variances add up to `sigma`²: `m` boxes of the
/// odd width just below the ideal one and the rest two wider.
// Public for the crate's tests in tests/it.
#[doc(hidden)]
pub fn box_radii(sigma: f32) -> [usize; 3] {
    if sigma.is_nan() || sigma < 0.5 {
        return [0; 3];
    }
    let s2 = f64::from(sigma) * f64::from(sigma);
    let ideal = (12.0 * s2 / 3.0 + 1.0).sqrt();
    let mut lower = ideal.floor() as i64;
    if lower % 2 == 0 {
        lower -= 1;
    }
    let l = lower as f64;
    let m = ((12.0 * s2 - 3.0 * l * l - 12.0 * l - 9.0) / (-4.0 * l - 4.0)).round() as i64;
    let radius = |width: i64| ((width - 1) / 2).max(0) as usize;
    [0, 1, 2].map(|i| radius(if i < m { lower } else { lower + 2 }))
}

/// Runs `pass(src, rows, dst_rows)` over bands of rows of a `w`×`h` picture, on as many threads
/// as there are cores for a large picture; each band writes only its own rows of `dst`.
fn bands<F>(src: &[u8], dst: &mut [u8], w: usize, h: usize, pass: F)
where
    F: Fn(&[u8], std::ops::Range<usize>, &mut [u8]) + Sync,
{
    let threads = if w * h < PARALLEL_MIN_PIXELS {
        1
    } else {
        std::thread::available_parallelism().map_or(1, |n| n.get().min(h))
    };
    bands_on(threads, src, dst, w, h, pass);
}

/// [`bands`] on `threads` threads, the calling one included.
// Public for the crate's tests in tests/it.
#[doc(hidden)]
pub fn bands_on<F>(threads: usize, src: &[u8], dst: &mut [u8], w: usize, h: usize, pass: F)
where
    F: Fn(&[u8], std::ops::Range<usize>, &mut [u8]) + Sync,
{
    if threads <= 1 {
        pass(src, 0..h, dst);
        return;
    }
    let rows_per = h.div_ceil(threads);
    // The calling thread takes the first band itself: one thread fewer to start and wait for.
    std::thread::scope(|s| {
        let mut chunks = dst.chunks_mut(rows_per * w * 4).enumerate();
        let first = chunks.next();
        for (i, chunk) in chunks {
            let start = i * rows_per;
            let rows = start..start + chunk.len() / (w * 4);
            let pass = &pass;
            s.spawn(move || pass(src, rows, chunk));
        }
        if let Some((_, chunk)) = first {
            pass(src, 0..chunk.len() / (w * 4), chunk);
        }
    });
}

/// Returns the fixed-point reciprocal of a box of radius `r`.
fn reciprocal(r: usize) -> u32 {
    let width = 2 * r as u64 + 1;
    (((1u64 << SHIFT) + width / 2) / width) as u32
}

/// Returns the mean of a window sum, rounded.
#[inline]
fn mean(sum: u32, inv: u32) -> u8 {
    ((sum * inv + (1 << (SHIFT - 1))) >> SHIFT).min(255) as u8
}

/// One box pass of radius `r` along a row of RGBA pixels.
// Public for the crate's tests in tests/it.
#[doc(hidden)]
pub fn row_pass(src: &[u8], dst: &mut [u8], r: usize) {
    let n = src.len() / 4;
    let last = n - 1;
    let inv = reciprocal(r);
    let px = |i: usize| &src[i * 4..i * 4 + 4];
    // The window of pixel 0: r + 1 copies of the first pixel, then pixels 1..=r, the last
    // one repeated past the end (counted, not walked, so a radius beyond the row costs nothing).
    let mut sum = [0u32; 4];
    let (p0, pl) = (px(0), px(last));
    let inside = r.min(last);
    for c in 0..4 {
        sum[c] = (r as u32 + 1) * u32::from(p0[c]) + (r - inside) as u32 * u32::from(pl[c]);
    }
    for i in 1..=inside {
        let p = px(i);
        for c in 0..4 {
            sum[c] += u32::from(p[c]);
        }
    }
    for (x, out) in dst.chunks_exact_mut(4).enumerate() {
        for c in 0..4 {
            out[c] = mean(sum[c], inv);
        }
        let (add, sub) = (px((x + r + 1).min(last)), px(x.saturating_sub(r)));
        for c in 0..4 {
            sum[c] = sum[c] + u32::from(add[c]) - u32::from(sub[c]);
        }
    }
}

/// One box pass of radius `r` down the columns of a `w`×`h` picture, writing output rows
/// `rows` into `dst` (those rows only): a running sum per byte of a row, so the inner loops run
/// along rows and vectorise.
fn column_pass(
    src: &[u8],
    dst: &mut [u8],
    w: usize,
    h: usize,
    rows: std::ops::Range<usize>,
    r: usize,
) {
    let stride = w * 4;
    let last = h - 1;
    let inv = reciprocal(r);
    let row = |y: usize| &src[y * stride..(y + 1) * stride];
    // The window of the first row: rows first-r..=first+r, clamped; repeats of the edge rows
    // are counted rather than walked.
    let first = rows.start;
    let (top, bottom) = (first.saturating_sub(r), (first + r).min(last));
    let below = (r - (first - top)) as u32;
    let above = (first + r - bottom) as u32;
    let mut sum: Vec<u32> = row(0)
        .iter()
        .zip(row(last))
        .map(|(t, b)| below * u32::from(*t) + above * u32::from(*b))
        .collect();
    for y in top..=bottom {
        for (s, v) in sum.iter_mut().zip(row(y)) {
            *s += u32::from(*v);
        }
    }
    for (y, out) in rows.zip(dst.chunks_exact_mut(stride)) {
        for (o, s) in out.iter_mut().zip(&sum) {
            *o = mean(*s, inv);
        }
        let (add, sub) = (row((y + r + 1).min(last)), row(y.saturating_sub(r)));
        for ((s, a), d) in sum.iter_mut().zip(add).zip(sub) {
            *s = *s + u32::from(*a) - u32::from(*d);
        }
    }
}
