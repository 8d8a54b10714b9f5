//! `engine::draw`: rectangles restored and filled.

use reelforge_render::compose::{Bitmap, Rect};
use reelforge_render::engine::{fill_rect, restore_from};

/// What a layer wholly above the frame drew is an inverted rectangle with a negative
/// bottom; restoring or refilling it is nothing (read as unsigned it was billions of rows).
#[test]
fn an_inverted_rectangle_off_the_frame_touches_nothing() {
    let mut out = Bitmap::filled(16, 8, [1, 2, 3]);
    let base = Bitmap::filled(16, 8, [9, 9, 9]);
    let before = out.clone();
    let off = Rect {
        x0: 12,
        y0: 0,
        x1: 16,
        y1: -6,
    };
    fill_rect(&mut out, [200, 0, 0], off);
    restore_from(&mut out, &base, off);
    assert!(out.px == before.px);
    fill_rect(
        &mut out,
        [200, 0, 0],
        Rect {
            x0: -4,
            y0: -4,
            x1: 2,
            y1: 2,
        },
    );
    assert_eq!(&out.px[..4], &[200, 0, 0, 255]);
}
