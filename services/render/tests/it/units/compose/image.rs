//! `compose::image`: masks.

use reelforge_render::compose::Bitmap;
use reelforge_render::compose::image::apply_mask;

#[test]
fn mask_by_alpha_and_by_brightness() {
    let mut pic = Bitmap::filled(2, 1, [200, 100, 50]);
    let mut alpha = Bitmap::new(2, 1);
    alpha.px.copy_from_slice(&[255, 255, 255, 255, 0, 0, 0, 0]);
    apply_mask(&mut pic, &alpha);
    assert_eq!(&pic.px[..], &[200, 100, 50, 255, 0, 0, 0, 0]);
    assert!(!pic.opaque);
    let mut pic = Bitmap::filled(2, 1, [200, 100, 50]);
    let mut grey = Bitmap::filled(2, 1, [255, 255, 255]);
    grey.px[4..7].copy_from_slice(&[0, 0, 0]);
    apply_mask(&mut pic, &grey);
    assert_eq!(&pic.px[..4], &[200, 100, 50, 255]);
    assert_eq!(&pic.px[4..], &[0, 0, 0, 0]);
}
