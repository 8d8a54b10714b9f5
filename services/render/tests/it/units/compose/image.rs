//! `compose::image`: masks, rounded corners and borders.

use reelforge_render::compose::Bitmap;
use reelforge_render::compose::image::{apply_mask, round_and_border};

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

/// A bordered picture with rounded corners is drawn as the stage's CSS border: the ring runs from
/// the rounded edge to an edge the border's width inside, rounded by the radius less the border, so
/// no picture shows between the border and the corner's edge (it did when the border was a stroke
/// of the inset edge with the full radius).
#[test]
fn a_rounded_border_leaves_no_picture_outside_it() {
    let mut pic = Bitmap::filled(100, 100, [255, 0, 0]);
    round_and_border(&mut pic, 30.0, 10.0, "#ffffff");
    let at = |x: u32, y: u32| {
        let i = ((y * 100 + x) * 4) as usize;
        [pic.px[i], pic.px[i + 1], pic.px[i + 2], pic.px[i + 3]]
    };
    assert_eq!(at(1, 1)[3], 0, "outside the rounded corner");
    // Just inside the corner's edge (28 px from the corner circle's centre at 30,30): border.
    assert_eq!(at(10, 10), [255, 255, 255, 255], "the corner's edge is border, not picture");
    // Between the inner edge (20 px from the centre) and the outer: border.
    assert_eq!(at(14, 14), [255, 255, 255, 255]);
    assert_eq!(at(20, 20), [255, 0, 0, 255], "inside the inner rounded edge: picture");
    assert_eq!(at(5, 50), [255, 255, 255, 255], "the border along an edge");
    assert_eq!(at(15, 50), [255, 0, 0, 255], "the picture inside it");
    assert_eq!(at(50, 50), [255, 0, 0, 255]);
}
