//! `compose::blend`: the constant-alpha blend against its exact formula.

use reelforge_render::compose::blend::blend_const;

#[test]
fn constant_alpha_blend_matches_the_exact_formula() {
    let s: Vec<u8> = (0..=255u8).collect();
    let d: Vec<u8> = (0..=255u8).rev().collect();
    for a in [0u32, 1, 77, 128, 254, 255] {
        let mut got = d.clone();
        blend_const(&mut got, &s, a);
        for ((g, sp), dp) in got.iter().zip(&s).zip(&d) {
            let v = u32::from(*sp) * a + u32::from(*dp) * (255 - a) + 128;
            assert_eq!(u32::from(*g), (v + (v >> 8)) >> 8, "a {a} s {sp} d {dp}");
        }
    }
}
