//! Fuzz harness of font uploads (see kit's `testing::fuzz`): real TrueType and OpenType files
//! mutated, checked as an upload is, and each accepted face then read as the glyph test and the
//! renderer read it (the character map, glyph outlines, advances).

use reelforge_font::FontError;
use reelforge_font::domain::{missing_glyphs, parse_upload};
use reelforge_kit::testing::fuzz::{Counting, Fuzz};

#[global_allocator]
static ALLOC: Counting = Counting;

/// Seed fonts: DejaVu Sans (TrueType outlines, always installed: `make deps`) and, where installed,
/// a small URW OpenType font (CFF outlines).
const SEEDS: &[&str] = &["/usr/share/fonts/truetype/dejavu/DejaVuSans.ttf", "/usr/share/fonts/opentype/urw-base35/StandardSymbolsPS.otf"];

struct Outline;

impl ttf_parser::OutlineBuilder for Outline {
    fn move_to(&mut self, _: f32, _: f32) {}
    fn line_to(&mut self, _: f32, _: f32) {}
    fn quad_to(&mut self, _: f32, _: f32, _: f32, _: f32) {}
    fn curve_to(&mut self, _: f32, _: f32, _: f32, _: f32, _: f32, _: f32) {}
    fn close(&mut self) {}
}

#[test]
fn font_upload() -> Result<(), Box<dyn std::error::Error>> {
    let seeds: Vec<Vec<u8>> = SEEDS.iter().filter_map(|p| std::fs::read(p).ok()).collect();
    assert!(!seeds.is_empty(), "no seed font installed ({})", SEEDS.join(", "));
    Fuzz::new("font", seeds)
        .dictionary(&[b"\0\x01\0\0", b"OTTO", b"true", b"ttcf", b"cmap", b"name", b"head", b"glyf", b"loca", b"CFF ", b"maxp", b"hmtx", b"GSUB", b"\xff\xff\xff\xff"])
        .cases(3000)
        .memory(64 << 20)
        .run(|bytes| {
            match parse_upload(bytes) {
                Ok(font) if font.family.trim().is_empty() => Err(format!("accepted without a family: {font:?}")),
                Ok(_) => {
                    let face = ttf_parser::Face::parse(bytes, 0).map_err(|e| format!("accepted but does not parse: {e}"))?;
                    let _ = missing_glyphs(&face, "Hello, 你好 ∑ 🙂");
                    for c in "Ag∑你".chars() {
                        if let Some(glyph) = face.glyph_index(c) {
                            let _ = face.outline_glyph(glyph, &mut Outline);
                            let _ = face.glyph_hor_advance(glyph);
                        }
                    }
                    Ok(())
                }
                Err(FontError::Invalid(why)) if why.starts_with("file: ") => Ok(()),
                Err(e) => Err(format!("a refusal that does not name the file: {e:?}")),
            }
        })?;
    Ok(())
}
