//! RGBA → I420 (BT.709, limited range) for the encoder, on the drawing thread: x264 takes the
//! planes as they are, so no `videoconvert` runs beside it on the two cores, and the queue in
//! front of x264 carries 1.5 bytes a pixel instead of 4.

/// Bytes of an I420 frame of `w`×`h` (chroma planes rounded up for odd sizes).
pub fn i420_len(w: u32, h: u32) -> usize {
    let (w, h) = (w as usize, h as usize);
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    w * h + 2 * cw * ch
}

// BT.709 limited-range coefficients, scaled by 2^14.
const YR: i32 = 2992; // 0.1826
const YG: i32 = 10063; // 0.6142
const YB: i32 = 1016; // 0.0620
const UR: i32 = -1649; // -0.1006
const UG: i32 = -5548; // -0.3386
const UB: i32 = 7197; // 0.4392
const VR: i32 = 7197; // 0.4392
const VG: i32 = -6536; // -0.3989
const VB: i32 = -661; // -0.0403
const HALF: i32 = 1 << 13;

/// Converts opaque RGBA (`w`×`h`, tightly packed) into I420 planes in `out`
/// (`i420_len(w, h)` bytes). Chroma is the mean of each 2×2 block.
pub fn rgba_to_i420(rgba: &[u8], w: u32, h: u32, out: &mut [u8]) {
    let (w, h) = (w as usize, h as usize);
    if rgba.len() < w * h * 4 || out.len() < i420_len(w as u32, h as u32) || w == 0 || h == 0 {
        return;
    }
    let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
    let (y_plane, chroma) = out.split_at_mut(w * h);
    let (u_plane, v_plane) = chroma.split_at_mut(cw * ch);
    for (row, y_row) in y_plane.chunks_exact_mut(w).enumerate() {
        let src = &rgba[row * w * 4..(row + 1) * w * 4];
        for (y, p) in y_row.iter_mut().zip(src.chunks_exact(4)) {
            let (r, g, b) = (i32::from(p[0]), i32::from(p[1]), i32::from(p[2]));
            *y = (16 + ((YR * r + YG * g + YB * b + HALF) >> 14)) as u8;
        }
    }
    for cy in 0..ch {
        let r0 = (cy * 2).min(h - 1);
        let r1 = (cy * 2 + 1).min(h - 1);
        let top = &rgba[r0 * w * 4..(r0 + 1) * w * 4];
        let bottom = &rgba[r1 * w * 4..(r1 + 1) * w * 4];
        let u_row = &mut u_plane[cy * cw..(cy + 1) * cw];
        let v_row = &mut v_plane[cy * cw..(cy + 1) * cw];
        for cx in 0..cw {
            let x0 = cx * 2 * 4;
            let x1 = (cx * 2 + 1).min(w - 1) * 4;
            let sum = |c: usize| {
                i32::from(top[x0 + c])
                    + i32::from(top[x1 + c])
                    + i32::from(bottom[x0 + c])
                    + i32::from(bottom[x1 + c])
            };
            let (r, g, b) = (sum(0), sum(1), sum(2));
            // Sums of four pixels: two more bits to drop.
            u_row[cx] =
                (128 + ((UR * r + UG * g + UB * b + (HALF << 2)) >> 16)).clamp(0, 255) as u8;
            v_row[cx] =
                (128 + ((VR * r + VG * g + VB * b + (HALF << 2)) >> 16)).clamp(0, 255) as u8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn one(rgb: [u8; 3]) -> (u8, u8, u8) {
        let rgba: Vec<u8> = (0..4).flat_map(|_| [rgb[0], rgb[1], rgb[2], 255]).collect();
        let mut out = vec![0; i420_len(2, 2)];
        rgba_to_i420(&rgba, 2, 2, &mut out);
        (out[0], out[4], out[5])
    }

    #[test]
    fn bt709_limited_range() {
        assert_eq!(one([0, 0, 0]), (16, 128, 128));
        assert_eq!(one([255, 255, 255]), (235, 128, 128));
        // BT.709 red: Y 63, Cb 102, Cr 240.
        let (y, u, v) = one([255, 0, 0]);
        assert!(
            (i32::from(y) - 63).abs() <= 1
                && (i32::from(u) - 102).abs() <= 1
                && (i32::from(v) - 240).abs() <= 1,
            "{y} {u} {v}"
        );
    }

    #[test]
    fn odd_sizes_fill_every_plane() {
        let rgba = vec![255u8; 3 * 3 * 4];
        let mut out = vec![0; i420_len(3, 3)];
        rgba_to_i420(&rgba, 3, 3, &mut out);
        assert_eq!(out.len(), 9 + 2 * 4);
        assert!(out[..9].iter().all(|&y| y == 235));
        assert!(out[9..].iter().all(|&c| c == 128));
    }
}
