//! Fuzz harness of the picture check of uploads (see kit's `testing::fuzz`): real PNG, JPEG, GIF,
//! WebP and BMP files mutated and decoded as `probe::inspect` decodes an upload, within its pixel
//! and memory limits. The first byte of a case picks the extension, so a case may also be one
//! format's bytes under another's name.

use std::io::Cursor;
use std::time::Duration;

use image::{ImageFormat, Rgba, RgbaImage};
use reelforge_kit::testing::fuzz::{Counting, Fuzz};
use reelforge_material::probe::inspect;
use reelforge_material::domain::MediaLimits;
use reelforge_material::{MaterialError, MaterialKind};

#[global_allocator]
static ALLOC: Counting = Counting;

const FORMATS: [(&str, ImageFormat); 5] =
    [("png", ImageFormat::Png), ("jpg", ImageFormat::Jpeg), ("gif", ImageFormat::Gif), ("webp", ImageFormat::WebP), ("bmp", ImageFormat::Bmp)];

#[test]
fn pictures() -> Result<(), Box<dyn std::error::Error>> {
    let picture = RgbaImage::from_fn(24, 16, |x, y| Rgba([(x * 10) as u8, (y * 15) as u8, 128, if x > 20 { 128 } else { 255 }]));
    let mut seeds = Vec::new();
    for (i, (_, format)) in FORMATS.iter().enumerate() {
        let mut bytes = Cursor::new(Vec::new());
        match format {
            ImageFormat::Jpeg => image::DynamicImage::ImageRgba8(picture.clone()).to_rgb8().write_to(&mut bytes, *format)?,
            _ => picture.write_to(&mut bytes, *format)?,
        }
        seeds.push([vec![i as u8], bytes.into_inner()].concat());
    }
    let dir = tempfile::tempdir()?;
    Fuzz::new("pictures", seeds)
        .dictionary(&[b"\x89PNG\r\n\x1a\n", b"IHDR", b"IDAT", b"IEND", b"PLTE", b"acTL", b"\xff\xd8\xff", b"\xff\xc0", b"\xff\xc4", b"\xff\xda", b"GIF89a", b"NETSCAPE2.0", b"\x21\xf9", b"RIFF", b"WEBPVP8L", b"VP8X", b"ANIM", b"ANMF", b"BM", b"\xff\xff\x00\x00", b"\x00\x00\xff\xff"])
        .cases(300)
        // The decoder's default memory limit (512 MiB) and the buffers around it.
        .memory(640 << 20)
        .hang(Duration::from_secs(30))
        .run(|bytes| {
            let Some((tag, data)) = bytes.split_first() else { return Ok(()) };
            let (ext, format) = FORMATS[usize::from(*tag) % FORMATS.len()];
            let kind = if format == ImageFormat::Gif { MaterialKind::Gif } else { MaterialKind::Picture };
            let path = dir.path().join(format!("upload.{ext}"));
            std::fs::write(&path, data).map_err(|e| e.to_string())?;
            // An answer, never a panic; a refusal is one the gateway words (unreadable or too large).
            match inspect(&path, kind, ext, &MediaLimits::default()) {
                Ok(()) | Err(MaterialError::Refused { .. }) => Ok(()),
                Err(e) => Err(format!("not a refusal of the file: {e:?}")),
            }
        })?;
    Ok(())
}
