//! Colours: the document's colour strings are read by `reelforge_timeline::colour` (shared with
//! the browser through its vectors); this module only hands them to tiny-skia.

pub use reelforge_timeline::colour::{parse, rgb_or};

/// Returns a tiny-skia colour of straight RGBA bytes.
pub fn skia(c: [u8; 4]) -> resvg::tiny_skia::Color {
    resvg::tiny_skia::Color::from_rgba8(c[0], c[1], c[2], c[3])
}
