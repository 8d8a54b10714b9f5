//! Animated GIFs from drawn frames. Colours are reduced to a fixed 6×7×6 colour cube with a 4×4
//! ordered dither instead of a learned palette: quantising by arithmetic costs a few operations a
//! pixel where a neural-net quantiser costs seconds a frame in a debug build, and the dither hides
//! the banding. Pixels less than half opaque become the transparent index.

use crate::paint::Canvas;

/// Levels of red, green and blue in the palette (6 × 7 × 6 = 252 colours).
const LEVELS: [u32; 3] = [6, 7, 6];
/// The palette index used for transparent pixels.
const TRANSPARENT: u8 = 255;
/// The 4×4 Bayer matrix, thresholds 0..16.
const BAYER: [[u8; 4]; 4] = [[0, 8, 2, 10], [12, 4, 14, 6], [3, 11, 1, 9], [15, 7, 13, 5]];

fn palette() -> Vec<u8> {
    let mut out = Vec::with_capacity(768);
    for r in 0..LEVELS[0] {
        for g in 0..LEVELS[1] {
            for b in 0..LEVELS[2] {
                for (v, n) in [(r, LEVELS[0]), (g, LEVELS[1]), (b, LEVELS[2])] {
                    out.push((v * 255 / (n - 1)) as u8);
                }
            }
        }
    }
    out.resize(768, 0);
    out
}

/// The cube level of channel value `v` with `n` levels, dithered by `threshold` (0..16).
fn level(v: u8, n: u32, threshold: u8) -> u32 {
    // floor(v·(n−1)/255 + (threshold + ½)/16), in integers.
    let scaled = u32::from(v) * (n - 1) * 32 + (2 * u32::from(threshold) + 1) * 255;
    (scaled / (255 * 32)).min(n - 1)
}

/// Each channel's share of the palette index, by threshold and value: a lookup per channel and
/// pixel instead of divisions (this runs for every pixel of every frame).
struct Table([[[u8; 256]; 16]; 3]);

impl Table {
    fn new() -> Box<Self> {
        let mut t = Box::new(Self([[[0; 256]; 16]; 3]));
        let strides = [LEVELS[1] * LEVELS[2], LEVELS[2], 1];
        for (c, stride) in strides.into_iter().enumerate() {
            for threshold in 0..16u8 {
                for v in 0..=255u8 {
                    t.0[c][usize::from(threshold)][usize::from(v)] =
                        (level(v, LEVELS[c], threshold) * stride) as u8;
                }
            }
        }
        t
    }

    fn index(&self, rgba: &image::RgbaImage) -> Vec<u8> {
        let w = rgba.width() as usize;
        let mut out = Vec::with_capacity(rgba.as_raw().len() / 4);
        for (i, p) in rgba.as_raw().chunks_exact(4).enumerate() {
            if p[3] < 128 {
                out.push(TRANSPARENT);
                continue;
            }
            let t = usize::from(BAYER[(i / w) % 4][(i % w) % 4]);
            out.push(
                self.0[0][t][usize::from(p[0])]
                    + self.0[1][t][usize::from(p[1])]
                    + self.0[2][t][usize::from(p[2])],
            );
        }
        out
    }
}

/// Draws `frames` frames of `w`×`h` with `draw(canvas, t)` for `t` in `0..1` and encodes them as
/// a looping GIF showing each for `delay_cs` hundredths of a second; answers it and the first frame.
pub fn gif(
    w: u16,
    h: u16,
    frames: u16,
    delay_cs: u16,
    draw: fn(&mut Canvas, f32),
) -> Result<(Vec<u8>, image::RgbaImage), String> {
    let mut out = Vec::new();
    let mut first = None;
    let table = Table::new();
    {
        let mut encoder =
            ::gif::Encoder::new(&mut out, w, h, &palette()).map_err(|e| format!("gif: {e}"))?;
        encoder
            .set_repeat(::gif::Repeat::Infinite)
            .map_err(|e| format!("gif: {e}"))?;
        for i in 0..frames {
            let mut canvas = Canvas::new(u32::from(w), u32::from(h))?;
            draw(&mut canvas, f32::from(i) / f32::from(frames));
            let rgba = canvas.rgba();
            let mut frame =
                ::gif::Frame::from_indexed_pixels(w, h, table.index(&rgba), Some(TRANSPARENT));
            first.get_or_insert(rgba);
            frame.delay = delay_cs;
            // Each frame is whole: the previous one is cleared, so transparent pixels stay so.
            frame.dispose = ::gif::DisposalMethod::Background;
            encoder
                .write_frame(&frame)
                .map_err(|e| format!("gif: {e}"))?;
        }
    }
    Ok((out, first.ok_or("gif: no frames")?))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn the_cube_reaches_both_ends() {
        assert_eq!(level(0, 6, 15), 0);
        assert_eq!(level(255, 6, 0), 5);
        assert_eq!(level(255, 7, 15), 6);
        let p = palette();
        assert_eq!(
            (&p[0..3], &p[251 * 3..252 * 3]),
            (&[0u8, 0, 0][..], &[255u8, 255, 255][..])
        );
    }

    #[test]
    fn dithering_mixes_neighbouring_levels() {
        // 128 lies between cube levels 2 (102) and 3 (153): the dither must use both.
        let levels: std::collections::BTreeSet<u32> = (0..16).map(|t| level(128, 6, t)).collect();
        assert_eq!(levels.into_iter().collect::<Vec<_>>(), [2, 3]);
        let grey = image::RgbaImage::from_pixel(4, 4, image::Rgba([128, 128, 128, 255]));
        let indices: std::collections::BTreeSet<u8> =
            Table::new().index(&grey).into_iter().collect();
        assert!(
            indices.len() >= 2 && indices.iter().all(|i| usize::from(*i) < 252),
            "{indices:?}"
        );
        let clear = image::RgbaImage::from_pixel(2, 2, image::Rgba([255, 255, 255, 10]));
        assert_eq!(Table::new().index(&clear), [TRANSPARENT; 4]);
    }
}
