//! Erasing a box of a picture, one 8-bit plane at a time (the toolbox's watermark and caption
//! removal, docs/toolbox.md): a strong blur feathered into the box's edge, or a fill interpolated
//! from the samples around the box; and finding a burnt-in caption band from how dense the fine
//! horizontal detail of a picture's rows is. Only the box's samples are ever written.

/// A box of a plane, in its samples.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Area {
    /// Left edge.
    pub x: usize,
    /// Top edge.
    pub y: usize,
    /// Width.
    pub width: usize,
    /// Height.
    pub height: usize,
}

impl Area {
    /// The part of the area inside a `width`×`height` plane.
    fn within(self, width: usize, height: usize) -> Self {
        let (x, y) = (self.x.min(width), self.y.min(height));
        Self { x, y, width: self.width.min(width - x), height: self.height.min(height - y) }
    }

    /// Samples from `(x, y)` (inside the area) to its nearest edge: 0 on the edge.
    fn inset(self, x: usize, y: usize) -> usize {
        let dx = (x - self.x).min(self.x + self.width - 1 - x);
        let dy = (y - self.y).min(self.y + self.height - 1 - y);
        dx.min(dy)
    }
}

/// One 8-bit plane of a picture: `width`×`height` samples, rows `stride` bytes apart.
pub struct Plane<'a> {
    /// The samples.
    pub data: &'a mut [u8],
    /// Samples a row.
    pub width: usize,
    /// Rows.
    pub height: usize,
    /// Bytes from one row to the next.
    pub stride: usize,
}

impl Plane<'_> {
    fn at(&self, x: usize, y: usize) -> u8 {
        self.data.get(y * self.stride + x).copied().unwrap_or(0)
    }

    fn set(&mut self, x: usize, y: usize, v: f32) {
        if let Some(s) = self.data.get_mut(y * self.stride + x) {
            *s = v.round().clamp(0.0, 255.0) as u8;
        }
    }
}

/// Blurs the area strongly: three box blurs of `radius` each way (near a Gaussian of deviation
/// `radius`), reading the samples around the box as well, so a mark inside it is smeared into its
/// surroundings; within `feather` samples of the box's edge the blur is blended into the picture
/// as it was, so the box leaves no seam. Nothing outside the area changes.
pub fn blur(plane: &mut Plane<'_>, area: Area, radius: usize, feather: usize) {
    let a = area.within(plane.width, plane.height);
    if a.width == 0 || a.height == 0 || radius == 0 {
        return;
    }
    let reach = radius * 3;
    let (x0, y0) = (a.x.saturating_sub(reach), a.y.saturating_sub(reach));
    let (x1, y1) = ((a.x + a.width + reach).min(plane.width), (a.y + a.height + reach).min(plane.height));
    let (w, h) = (x1 - x0, y1 - y0);
    let mut work: Vec<f32> = Vec::with_capacity(w * h);
    for y in y0..y1 {
        work.extend((x0..x1).map(|x| f32::from(plane.at(x, y))));
    }
    let mut scratch = vec![0.0f32; w.max(h)];
    for row in work.chunks_exact_mut(w) {
        for _ in 0..3 {
            box_line(row, radius, &mut scratch);
        }
    }
    let mut column = vec![0.0f32; h];
    for x in 0..w {
        for (y, c) in column.iter_mut().enumerate() {
            *c = work[y * w + x];
        }
        for _ in 0..3 {
            box_line(&mut column, radius, &mut scratch);
        }
        for (y, c) in column.iter().enumerate() {
            work[y * w + x] = *c;
        }
    }
    for y in a.y..a.y + a.height {
        for x in a.x..a.x + a.width {
            let weight = ((a.inset(x, y) + 1) as f32 / (feather + 1) as f32).min(1.0);
            let was = f32::from(plane.at(x, y));
            let blurred = work[(y - y0) * w + (x - x0)];
            plane.set(x, y, was + (blurred - was) * weight);
        }
    }
}

/// A box blur of `radius` along `values` in place, the ends repeating their last sample.
fn box_line(values: &mut [f32], radius: usize, scratch: &mut [f32]) {
    let n = values.len();
    if n == 0 || radius == 0 {
        return;
    }
    let last = n as isize - 1;
    let r = radius as isize;
    let at = |i: isize| values[i.clamp(0, last) as usize];
    let mut sum: f32 = (-r..=r).map(at).sum();
    let scale = 1.0 / (2 * radius + 1) as f32;
    for (i, out) in scratch.iter_mut().take(n).enumerate() {
        *out = sum * scale;
        let i = i as isize;
        sum += at(i + r + 1) - at(i - r);
    }
    values.copy_from_slice(&scratch[..n]);
}

/// How far each border line is smoothed along its length before a fill, samples: one odd sample
/// of the border would otherwise streak across the box.
const BORDER_SMOOTH: usize = 2;

/// Fills the area from the samples around it (an interpolation from the box's edges): each sample
/// is the blend of the four border samples it faces (the row just above the box, the row just
/// below, the columns just left and right, each smoothed along its length first), weighted by the
/// inverse of its distance to each, so the fill meets every border exactly and is smooth inside.
/// A side on the plane's edge has no border and takes no part; an area with no side inside the
/// plane is left as it is.
pub fn fill(plane: &mut Plane<'_>, area: Area) {
    let a = area.within(plane.width, plane.height);
    if a.width == 0 || a.height == 0 {
        return;
    }
    let mut scratch = vec![0.0f32; a.width.max(a.height)];
    let mut line = |values: Vec<f32>| {
        let mut values = values;
        box_line(&mut values, BORDER_SMOOTH, &mut scratch);
        values
    };
    let row = |p: &Plane<'_>, y: usize| (a.x..a.x + a.width).map(|x| f32::from(p.at(x, y))).collect::<Vec<_>>();
    let col = |p: &Plane<'_>, x: usize| (a.y..a.y + a.height).map(|y| f32::from(p.at(x, y))).collect::<Vec<_>>();
    let top = (a.y > 0).then(|| line(row(plane, a.y - 1)));
    let bottom = (a.y + a.height < plane.height).then(|| line(row(plane, a.y + a.height)));
    let left = (a.x > 0).then(|| line(col(plane, a.x - 1)));
    let right = (a.x + a.width < plane.width).then(|| line(col(plane, a.x + a.width)));
    if top.is_none() && bottom.is_none() && left.is_none() && right.is_none() {
        return;
    }
    for j in 0..a.height {
        for i in 0..a.width {
            let (mut sum, mut weights) = (0.0f32, 0.0f32);
            for (side, k, d) in [(&top, i, j + 1), (&bottom, i, a.height - j), (&left, j, i + 1), (&right, j, a.width - i)] {
                if let Some(border) = side {
                    let w = 1.0 / d as f32;
                    sum += border[k] * w;
                    weights += w;
                }
            }
            plane.set(a.x + i, a.y + j, sum / weights);
        }
    }
}

/// The luma step between neighbouring samples that counts as an edge (a stroke of text).
const EDGE_STEP: u8 = 32;
/// The most a sample may change between two sampled pictures and still be standing still.
const STILL_STEP: u8 = 12;
/// The share of a row's neighbours that must be still edges for the row to hold text.
const DENSE: f32 = 0.02;
/// The share of the sampled pictures in which a row must hold text to be a caption row.
const PERSIST: f32 = 0.5;
/// Fewest rows a caption band has before its padding.
const MIN_BAND_ROWS: usize = 4;
/// Rows of no text a band may hold between text rows (the gap between two lines of a caption).
const BAND_GAP: usize = 2;

/// For rows `from..height` of a luma picture and the one sampled before it (both `width` samples
/// a row, rows `stride` apart), the share of each row's horizontally neighbouring pairs that are
/// an edge (a step of at least `EDGE_STEP`) in both pictures, neither sample having moved by more
/// than `STILL_STEP`: fine detail that stands still, as burnt-in text does while the picture
/// behind it moves, and unlike texture that moves or flickers.
pub fn still_edges(now: &[u8], before: &[u8], width: usize, height: usize, stride: usize, from: usize) -> Vec<f32> {
    (from.min(height)..height)
        .map(|y| {
            let span = y * stride..y * stride + width;
            let (a, b) = (now.get(span.clone()).unwrap_or_default(), before.get(span).unwrap_or_default());
            let still = |x: usize| a[x].abs_diff(b[x]) <= STILL_STEP;
            let edges = (1..a.len().min(b.len())).filter(|&x| a[x].abs_diff(a[x - 1]) >= EDGE_STEP && still(x) && still(x - 1)).count();
            edges as f32 / width.saturating_sub(1).max(1) as f32
        })
        .collect()
}

/// The caption band of a picture `height` rows high, from the row densities of its sampled pictures
/// (each from [`still_edges`] from row `from`): the rows dense in at least half of them, joined across gaps of up to `BAND_GAP`
/// rows; the run with the most such rows, if it has at least `MIN_BAND_ROWS`, padded by a third of
/// its height (at least 3 rows) each way, for the tops and tails of the letters, whose rows hold
/// too few edges to count, and kept inside the picture, as `(y, height)`.
pub fn caption_band(frames: &[Vec<f32>], from: usize, height: usize) -> Option<(usize, usize)> {
    let rows = frames.iter().map(Vec::len).max()?;
    let need = (frames.len() as f32 * PERSIST).ceil().max(1.0) as usize;
    let caption: Vec<bool> = (0..rows).map(|r| frames.iter().filter(|f| f.get(r).is_some_and(|d| *d >= DENSE)).count() >= need).collect();
    // Runs of caption rows as (first, last, count of caption rows).
    let mut runs: Vec<(usize, usize, usize)> = Vec::new();
    for (r, _) in caption.iter().enumerate().filter(|(_, c)| **c) {
        match runs.last_mut() {
            Some(run) if r - run.1 <= BAND_GAP + 1 => {
                run.1 = r;
                run.2 += 1;
            }
            _ => runs.push((r, r, 1)),
        }
    }
    let (first, last, count) = runs.into_iter().max_by_key(|run| run.2)?;
    if count < MIN_BAND_ROWS {
        return None;
    }
    let pad = ((last - first + 1) / 3).max(3);
    let top = (from + first).saturating_sub(pad);
    let bottom = (from + last + 1 + pad).min(height);
    Some((top, bottom - top))
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A 64×48 plane of a smooth ramp with a checkerboard mark at (24, 16, 16, 16).
    fn marked() -> Vec<u8> {
        let mut p: Vec<u8> = (0..48).flat_map(|y| (0..64).map(move |x| (x * 2 + y) as u8)).collect();
        for y in 16..32 {
            for x in 24..40 {
                p[y * 64 + x] = if (x / 2 + y / 2) % 2 == 0 { 250 } else { 5 };
            }
        }
        p
    }

    fn variance(p: &[u8], area: Area) -> f64 {
        let v: Vec<f64> = (area.y..area.y + area.height).flat_map(|y| (area.x..area.x + area.width).map(move |x| f64::from(p[y * 64 + x]))).collect();
        let mean = v.iter().sum::<f64>() / v.len() as f64;
        v.iter().map(|x| (x - mean).powi(2)).sum::<f64>() / v.len() as f64
    }

    #[test]
    fn a_blur_or_a_fill_changes_the_box_alone_and_erases_its_mark() {
        let mark = Area { x: 24, y: 16, width: 16, height: 16 };
        let area = Area { x: 20, y: 12, width: 24, height: 24 };
        for blurred in [true, false] {
            let source = marked();
            let mut data = source.clone();
            let mut plane = Plane { data: &mut data, width: 64, height: 48, stride: 64 };
            if blurred {
                blur(&mut plane, area, 6, 3);
            } else {
                fill(&mut plane, area);
            }
            let inside = |i: usize| (20..44).contains(&(i % 64)) && (12..36).contains(&(i / 64));
            assert!(source.iter().zip(&data).enumerate().all(|(i, (a, b))| inside(i) || a == b), "only the box changes");
            let (before, after) = (variance(&source, mark), variance(&data, mark));
            assert!(after * 20.0 < before, "blurred {blurred}: the mark's variance {before:.0} → {after:.0}");
        }
    }

    #[test]
    fn a_fill_meets_a_smooth_border_and_follows_it() {
        // A vertical ramp: the fill between the rows above and below is the ramp itself.
        let mut data: Vec<u8> = (0..48).flat_map(|y| (0..64).map(move |_| (y * 4) as u8)).collect();
        let mut plane = Plane { data: &mut data, width: 64, height: 48, stride: 64 };
        fill(&mut plane, Area { x: 0, y: 10, width: 64, height: 20 });
        for y in 10..30 {
            let got = i32::from(data[y * 64 + 32]);
            assert!((got - (y as i32) * 4).abs() <= 4, "row {y}: {got}");
        }
    }

    #[test]
    fn the_caption_band_is_the_rows_dense_in_most_frames() {
        // Rows 20–27 of a 40-row lower part hold text in 3 of 4 frames; row 5 in one frame only.
        let frames: Vec<Vec<f32>> = (0..4)
            .map(|f| (0..40).map(|r| if ((20..28).contains(&r) && f != 2) || (r == 5 && f == 0) { 0.3 } else { 0.01 }).collect())
            .collect();
        assert_eq!(caption_band(&frames, 100, 140), Some((117, 14)));
        let empty: Vec<Vec<f32>> = (0..4).map(|_| vec![0.01; 40]).collect();
        assert_eq!(caption_band(&empty, 100, 140), None);
    }

    #[test]
    fn only_edges_that_stand_still_count() {
        // Row 0: a still stroke pattern; row 1: the same pattern moved by one sample.
        let before: Vec<u8> = [[0u8, 200, 0, 200, 0, 200, 0, 200], [0, 200, 0, 200, 0, 200, 0, 200]].concat();
        let now: Vec<u8> = [[0u8, 200, 0, 200, 0, 200, 0, 200], [200, 0, 200, 0, 200, 0, 200, 0]].concat();
        assert_eq!(still_edges(&now, &before, 8, 2, 8, 0), vec![1.0, 0.0]);
    }
}
