//! `compose`: interleaving rows into pixels and back, a plane scaled four rows at a time; one module per
//! file of `src/compose` below.

mod blend;
mod blur;
mod filter;
mod image;
mod shape;
mod text;

use reelforge_render::compose::{deinterleave4, interleave4, resize_plane, resize_plane_in_one_call};

#[test]
fn rows_interleaved_and_back_are_the_rows() {
    let n = 37;
    let rows: Vec<Vec<u8>> = (0..4)
        .map(|k| (0..n).map(|x| (x * 7 + k * 50) as u8).collect())
        .collect();
    let mut pixels = vec![0; n * 4];
    interleave4([&rows[0], &rows[1], &rows[2], &rows[3]], &mut pixels);
    for x in 0..n {
        assert_eq!(
            &pixels[x * 4..x * 4 + 4],
            &[rows[0][x], rows[1][x], rows[2][x], rows[3][x]]
        );
    }
    let mut back = vec![vec![0u8; n]; 4];
    let [a, b, c, d] = &mut back[..] else {
        return;
    };
    deinterleave4(&pixels, [a, b, c, d]);
    assert_eq!(back, rows);
}

#[test]
fn a_plane_scaled_four_rows_at_a_time_is_the_plane_scaled_in_one_call() {
    let (sw, sh) = (200u32, 90u32);
    let src: Vec<u8> = (0..sw * sh)
        .map(|i| ((i * 37 + i / 7 * 11) % 251) as u8)
        .collect();
    let cases = [
        ((0.0, 0.0, 200.0, 90.0), (113, 51)),
        ((0.0, 0.0, 200.0, 90.0), (64, 90)),
        ((13.5, 7.25, 120.0, 61.0), (70, 33)),
        ((40.0, 10.0, 60.0, 30.0), (150, 75)),
        ((0.0, 0.0, 200.0, 90.0), (200, 45)),
    ];
    for (crop, (w, h)) in cases {
        let mut ours = vec![0; (w * h) as usize];
        assert!(resize_plane(
            &src,
            (sw as usize, sh as usize),
            crop,
            &mut ours,
            (w, h)
        ));
        let theirs = resize_plane_in_one_call(&src, (sw, sh), crop, (w, h));
        let worst = ours.iter().zip(&theirs).map(|(a, b)| a.abs_diff(*b)).max();
        assert!(worst <= Some(1), "{crop:?} → {w}×{h}: differs by {worst:?}");
    }
}
