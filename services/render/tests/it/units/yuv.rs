//! `yuv`: RGBA → I420 (portable, vector and fast paths) and back, regions, odd sizes.

use reelforge_render::yuv::{
    I420, PlanesMut, UB, UG, UR, VB, VG, VR, YuvToRgb, chroma, convert, fill_i420, i420_len, i420_region_to_rgba,
    i420_to_rgba, luma, put_i420, rgba_to_i420, rgba_to_i420_region,
};

#[test]
fn an_odd_picture_shares_its_last_chroma_row_and_column() {
    // A 6×6 frame of chroma 100; a 3×3 picture of chroma 200 put at (2, 2).
    let (fw, fh) = (6u32, 6u32);
    let mut frame = vec![100u8; i420_len(fw, fh)];
    let (y, c) = (vec![50u8; 9], vec![200u8; 4]);
    let src = I420 {
        w: 3,
        h: 3,
        planes: [&y, &c, &c],
        strides: [3, 2, 2],
    };
    assert!(put_i420(src, &mut frame, (fw, fh), (2, 2)));
    let u = &frame[36..45];
    // Chroma rows of 3: (1, 1) is wholly the picture's, (2, 1) and (1, 2) are shared with
    // the frame, and the rest is the frame's.
    assert_eq!(u, &[100, 100, 100, 100, 200, 150, 100, 150, 150]);
    assert_eq!(&frame[45..54], u, "V as U");
    assert_eq!(frame[2 * 6 + 2..2 * 6 + 5], [50, 50, 50], "luma copied as it is");
    assert_eq!(frame[5 * 6 + 2], 100, "luma below the picture untouched");
}

fn one(rgb: [u8; 3]) -> (u8, u8, u8) {
    let rgba: Vec<u8> = (0..4).flat_map(|_| [rgb[0], rgb[1], rgb[2], 255]).collect();
    let mut out = vec![0; i420_len(2, 2)];
    rgba_to_i420(&rgba, 2, 2, &mut out);
    (out[0], out[4], out[5])
}

#[test]
fn a_fill_is_the_conversion_of_its_colour() {
    for (w, h) in [(16u32, 4u32), (6, 4)] {
        let rgb = [30, 140, 220];
        let rgba: Vec<u8> = (0..w * h)
            .flat_map(|_| [rgb[0], rgb[1], rgb[2], 255])
            .collect();
        let mut converted = vec![0; i420_len(w, h)];
        rgba_to_i420(&rgba, w, h, &mut converted);
        let mut filled = vec![1; i420_len(w, h)];
        fill_i420(&mut filled, w, h, rgb);
        assert_eq!(filled, converted, "{w}×{h}");
    }
}

#[test]
fn a_region_comes_out_and_goes_back_in_place() {
    let (w, h) = (32usize, 12usize);
    let rgba: Vec<u8> = (0..w * h)
        .flat_map(|i| {
            [
                (i * 7 % 256) as u8,
                (i * 13 % 256) as u8,
                (i * 29 % 256) as u8,
                255,
            ]
        })
        .collect();
    let mut frame = vec![0; i420_len(w as u32, h as u32)];
    rgba_to_i420(&rgba, w as u32, h as u32, &mut frame);
    let rect = (8, 2, 16, 8);
    let mut part_rgba = Vec::new();
    i420_region_to_rgba(&frame, (w, h), rect, &mut part_rgba);
    // The region converted alone is the same pixels as the whole frame converted.
    let mut whole = Vec::new();
    i420_region_to_rgba(&frame, (w, h), (0, 0, w, h), &mut whole);
    for row in 0..8 {
        let a = &part_rgba[row * 16 * 4..(row + 1) * 16 * 4];
        let b = &whole[((row + 2) * w + 8) * 4..((row + 2) * w + 24) * 4];
        assert_eq!(a, b, "row {row}");
    }
    // Convert a picture of one colour into the rectangle, from inside a wider picture:
    // only the rectangle changes.
    let red: Vec<u8> = (0..20 * 8).flat_map(|_| [255, 0, 0, 255]).collect();
    let before = frame.clone();
    rgba_to_i420_region(&red[8..], 20 * 4, &mut frame, (w, h), rect);
    let mut after = Vec::new();
    i420_region_to_rgba(&frame, (w, h), (0, 0, w, h), &mut after);
    for y in 0..h {
        for x in 0..w {
            let inside = (8..24).contains(&x) && (2..10).contains(&y);
            let p = &after[(y * w + x) * 4..(y * w + x) * 4 + 3];
            let q = &whole[(y * w + x) * 4..(y * w + x) * 4 + 3];
            if inside {
                assert!(p[0] > 240 && p[1] < 15 && p[2] < 15, "({x}, {y}) {p:?}");
            } else {
                assert_eq!(p, q, "({x}, {y})");
            }
        }
    }
    assert_ne!(before, frame);
}

#[test]
fn bt709_limited_range() {
    assert_eq!(one([0, 0, 0]), (16, 128, 128));
    let (y, u, v) = one([255, 255, 255]);
    assert!(
        (234..=235).contains(&y) && (127..=129).contains(&u) && (127..=129).contains(&v),
        "{y} {u} {v}"
    );
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
    assert!(out[..9].iter().all(|&y| (234..=235).contains(&y)));
    assert!(out[9..].iter().all(|&c| (127..=129).contains(&c)));
}

#[test]
fn vector_and_tail_paths_agree() {
    // 38 wide: two 16-pixel luma chunks and a tail; 16 chroma blocks in one 8-run and a tail.
    let (w, h) = (38u32, 4u32);
    let rgba: Vec<u8> = (0..w * h)
        .flat_map(|i| [(i * 7) as u8, (i * 13) as u8, (i * 29) as u8, 255])
        .collect();
    let mut out = vec![0; i420_len(w, h)];
    rgba_to_i420(&rgba, w, h, &mut out);
    for (i, p) in rgba.chunks_exact(4).enumerate() {
        assert_eq!(out[i], luma(p[0], p[1], p[2]), "luma {i}");
    }
    let (cw, w) = (19usize, w as usize);
    for cx in [0usize, 7, 8, 17, 18] {
        let at = |x: usize, y: usize, c: usize| u16::from(rgba[(y * w + x) * 4 + c]);
        let m = |c: usize| {
            ((at(2 * cx, 0, c)
                + at(2 * cx + 1, 0, c)
                + at(2 * cx, 1, c)
                + at(2 * cx + 1, 1, c)
                + 2)
                >> 2) as i16
        };
        assert_eq!(
            out[w * 4 + cx],
            chroma(m(0), m(1), m(2), [UR, UG, UB]),
            "u {cx}"
        );
        assert_eq!(
            out[w * 4 + cw * 2 + cx],
            chroma(m(0), m(1), m(2), [VR, VG, VB]),
            "v {cx}"
        );
    }
}

#[test]
fn fast_path_agrees_with_the_portable_loops() {
    let (w, h) = (64u32, 6u32);
    let rgba: Vec<u8> = (0..w * h)
        .flat_map(|i| [(i * 7) as u8, (i * 13) as u8, (i * 29) as u8, 255])
        .collect();
    let (mut fast, mut portable) = (vec![0; i420_len(w, h)], vec![0; i420_len(w, h)]);
    rgba_to_i420(&rgba, w, h, &mut fast);
    let (y, chroma) = portable.split_at_mut((w * h) as usize);
    let (u, v) = chroma.split_at_mut((w * h / 4) as usize);
    let planes = PlanesMut {
        planes: [y, u, v],
        strides: [w as usize, w as usize / 2, w as usize / 2],
    };
    convert(&rgba, w as usize * 4, w as usize, h as usize, planes);
    for (i, (a, b)) in fast.iter().zip(&portable).enumerate() {
        assert!(
            (i32::from(*a) - i32::from(*b)).abs() <= 2,
            "byte {i}: {a} vs {b}"
        );
    }
    let red: Vec<u8> = (0..16).flat_map(|_| [255u8, 0, 0, 255]).collect();
    let mut out = vec![0; i420_len(8, 2)];
    rgba_to_i420(&red, 8, 2, &mut out);
    assert!(
        (i32::from(out[0]) - 63).abs() <= 1
            && (i32::from(out[16]) - 102).abs() <= 1
            && (i32::from(out[20]) - 240).abs() <= 1,
        "{out:?}"
    );
}

fn back(y: u8, u: u8, v: u8, m: &YuvToRgb) -> [u8; 3] {
    let (yp, up, vp) = ([y; 4], [u], [v]);
    let mut out = Vec::new();
    let src = I420 {
        w: 2,
        h: 2,
        planes: [&yp, &up, &vp],
        strides: [2, 1, 1],
    };
    i420_to_rgba(src, m, &mut out);
    assert!(out.chunks_exact(4).all(|p| p == &out[..4]), "{out:?}");
    [out[0], out[1], out[2]]
}

fn near(a: [u8; 3], b: [u8; 3]) -> bool {
    a.iter()
        .zip(b)
        .all(|(x, y)| (i32::from(*x) - i32::from(y)).abs() <= 2)
}

#[test]
fn limited_and_full_range_round_trip_the_primaries() {
    let bt709 = YuvToRgb::new(0.2126, 0.0722, false);
    assert_eq!(back(16, 128, 128, &bt709), [0, 0, 0]);
    assert_eq!(back(235, 128, 128, &bt709), [255, 255, 255]);
    // The encoder's own conversion and back: BT.709 red, green, blue, a grey.
    for rgb in [[255, 0, 0], [0, 255, 0], [0, 0, 255], [120, 130, 140]] {
        let rgba: Vec<u8> = (0..4).flat_map(|_| [rgb[0], rgb[1], rgb[2], 255]).collect();
        let mut yuv = vec![0; i420_len(2, 2)];
        rgba_to_i420(&rgba, 2, 2, &mut yuv);
        let got = back(yuv[0], yuv[4], yuv[5], &bt709);
        assert!(near(got, rgb), "{rgb:?} → {got:?}");
    }
    // BT.601 full range (JPEG): Y 76, Cb 85, Cr 255 is red.
    let jpeg = YuvToRgb::new(0.299, 0.114, true);
    assert!(near(back(76, 85, 255, &jpeg), [255, 0, 0]));
}

#[test]
fn odd_width_and_strided_planes() {
    // 3×2 with padded rows: the last column takes the last chroma sample.
    let yp = [16, 16, 235, 0, 16, 16, 235, 0];
    let (up, vp) = ([128, 128, 0], [128, 128, 0]);
    let src = I420 {
        w: 3,
        h: 2,
        planes: [&yp, &up, &vp],
        strides: [4, 3, 3],
    };
    let mut out = Vec::new();
    i420_to_rgba(src, &YuvToRgb::new(0.2126, 0.0722, false), &mut out);
    assert_eq!(out.len(), 3 * 2 * 4);
    assert_eq!(&out[..4], &[0, 0, 0, 255]);
    assert_eq!(&out[12..16], &[0, 0, 0, 255]);
    assert_eq!(&out[8..12], &[255, 255, 255, 255]);
}
