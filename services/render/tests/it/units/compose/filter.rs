//! `compose::filter`: sharpening.

use reelforge_render::compose::Bitmap;
use reelforge_render::compose::filter::sharpen;

#[test]
fn sharpen_raises_edge_contrast_and_keeps_flat_areas() {
    let mut b = Bitmap::filled(8, 4, [100, 100, 100]);
    for y in 0..4 {
        for x in 4..8 {
            let i = (y * 8 + x) * 4;
            b.px[i..i + 3].copy_from_slice(&[160, 160, 160]);
        }
    }
    sharpen(&mut b, 1.0);
    let px = |x: usize| b.px[(8 + x) * 4];
    assert_eq!(px(0), 100);
    assert!(px(3) < 100, "dark side of the edge darker: {}", px(3));
    assert!(px(4) > 160, "light side lighter: {}", px(4));
    assert_eq!(px(7), 160);
}
