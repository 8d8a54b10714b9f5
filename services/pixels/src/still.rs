//! Pictures to files: a drawn still as JPEG (opaque) or PNG (with alpha), and the cover of a
//! picture in memory. Here rather than in the material service because the image crate's scaling
//! and encoding are generic code, compiled at the level of the crate that calls them.

use image::ImageEncoder as _;
use image::codecs::png::{CompressionType, FilterType};

/// JPEG quality of a cover.
const COVER_QUALITY: u8 = 82;
/// JPEG quality of an opaque still.
const STILL_QUALITY: u8 = 88;

/// Encodes a drawn still: JPEG when `opaque`, PNG otherwise; returns the bytes and the extension.
pub fn encode(rgba: &image::RgbaImage, opaque: bool) -> Result<(Vec<u8>, &'static str), String> {
    let mut out = Vec::new();
    if opaque {
        let rgb = image::DynamicImage::ImageRgba8(rgba.clone()).to_rgb8();
        image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, STILL_QUALITY)
            .encode_image(&rgb)
            .map_err(|e| format!("jpeg: {e}"))?;
        Ok((out, "jpg"))
    } else {
        image::codecs::png::PngEncoder::new_with_quality(
            &mut out,
            CompressionType::Fast,
            FilterType::Adaptive,
        )
        .write_image(
            rgba.as_raw(),
            rgba.width(),
            rgba.height(),
            image::ExtendedColorType::Rgba8,
        )
        .map_err(|e| format!("png: {e}"))?;
        Ok((out, "png"))
    }
}

/// The cover of `picture` as a JPEG of `width`×`height` (the caller fits the size).
pub fn cover(picture: &image::RgbaImage, width: u32, height: u32) -> Result<Vec<u8>, String> {
    let small = image::imageops::thumbnail(picture, width, height);
    jpeg(&image::DynamicImage::ImageRgba8(small).to_rgb8())
}

/// A JPEG of a cover or a filmstrip.
pub fn jpeg(img: &image::RgbImage) -> Result<Vec<u8>, String> {
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, COVER_QUALITY)
        .encode_image(img)
        .map_err(|e| format!("cover: {e}"))?;
    Ok(out)
}

/// A picture browsers show, at most `max` pixels on its longest side: PNG when it has alpha, else
/// JPEG; returns the bytes and the extension.
pub fn preview(
    rgba: image::RgbaImage,
    has_alpha: bool,
    max: u32,
) -> Result<(Vec<u8>, &'static str), String> {
    let (w, h) = rgba.dimensions();
    let rgba = if w.max(h) > max {
        let scale = f64::from(max) / f64::from(w.max(h));
        let (nw, nh) = (
            ((f64::from(w) * scale).round() as u32).max(1),
            ((f64::from(h) * scale).round() as u32).max(1),
        );
        image::imageops::resize(&rgba, nw, nh, image::imageops::FilterType::Triangle)
    } else {
        rgba
    };
    if has_alpha {
        let mut out = Vec::new();
        image::codecs::png::PngEncoder::new(&mut out)
            .write_image(
                rgba.as_raw(),
                rgba.width(),
                rgba.height(),
                image::ExtendedColorType::Rgba8,
            )
            .map_err(|e| e.to_string())?;
        return Ok((out, "png"));
    }
    let mut out = Vec::new();
    image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, STILL_QUALITY)
        .encode_image(&image::DynamicImage::ImageRgba8(rgba).to_rgb8())
        .map_err(|e| e.to_string())?;
    Ok((out, "jpg"))
}
