//! HEIF/HEIC and AVIF still pictures through the system's libheif (1.15 or later): GStreamer has
//! no element for them (a HEIF picture is an item of an ISO-BMFF file, not a track `qtdemux`
//! plays), so the material probe and the render decode them here. Only the primary picture is
//! read, turned upright as its `irot`/`imir` boxes say, as straight RGBA; a picture larger than the
//! caller's pixel limit is refused before its pixels are decoded. `encode` writes small files for
//! tests (HEVC through x265, AV1 through aom, as libheif was built).

mod ffi;

use std::ffi::CStr;
use std::sync::Once;

/// What went wrong reading or writing a HEIF file.
#[derive(Debug, thiserror::Error)]
pub enum HeifError {
    /// libheif refused the file: not HEIF, damaged, or a codec it lacks.
    #[error("{0}")]
    Library(String),
    /// The picture has more pixels than allowed.
    #[error("picture of {width}x{height} pixels is larger than {limit} pixels")]
    TooLarge {
        /// Its width.
        width: u32,
        /// Its height.
        height: u32,
        /// The limit it broke.
        limit: u64,
    },
    /// The file is larger than libheif reads (4 GiB) or a size does not fit.
    #[error("{0}")]
    Size(&'static str),
}

/// A decoded picture: straight (not premultiplied) RGBA rows, `width * 4` bytes each.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    /// Pixels across.
    pub width: u32,
    /// Pixels down.
    pub height: u32,
    /// Whether the file has an alpha plane.
    pub has_alpha: bool,
    /// The pixels.
    pub rgba: Vec<u8>,
}

/// The codec `encode` writes with.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Codec {
    /// HEVC: a `.heic` file.
    Hevc,
    /// AV1: an `.avif` file.
    Av1,
}

fn init() {
    static ONCE: Once = Once::new();
    // SAFETY: heif_init with no parameters only loads the built-in plugins; it is called once and
    // never undone, so every later call finds the library initialised.
    ONCE.call_once(|| unsafe {
        ffi::heif_init(std::ptr::null_mut());
    });
}

fn check(e: ffi::HeifErrorC) -> Result<(), HeifError> {
    if e.code == 0 {
        return Ok(());
    }
    let message = if e.message.is_null() {
        format!("libheif error {}", e.code)
    } else {
        // SAFETY: libheif's messages are static NUL-terminated strings ("always defined").
        unsafe { CStr::from_ptr(e.message) }.to_string_lossy().into_owned()
    };
    Err(HeifError::Library(message))
}

/// A context that frees itself.
struct Context(*mut ffi::HeifContext);

impl Context {
    fn new() -> Result<Self, HeifError> {
        init();
        // SAFETY: heif_context_alloc has no preconditions; a null answer is checked.
        let ctx = unsafe { ffi::heif_context_alloc() };
        if ctx.is_null() {
            return Err(HeifError::Library("libheif: no context".into()));
        }
        Ok(Self(ctx))
    }
}

impl Drop for Context {
    fn drop(&mut self) {
        // SAFETY: the context came from heif_context_alloc and is freed once, here.
        unsafe { ffi::heif_context_free(self.0) }
    }
}

/// An image handle that releases itself.
struct Handle(*mut ffi::HeifImageHandle);

impl Drop for Handle {
    fn drop(&mut self) {
        // SAFETY: the handle came from libheif and is released once, here.
        unsafe { ffi::heif_image_handle_release(self.0) }
    }
}

/// A decoded or created image that releases itself.
struct Image(*mut ffi::HeifImage);

impl Drop for Image {
    fn drop(&mut self) {
        // SAFETY: the image came from libheif and is released once, here.
        unsafe { ffi::heif_image_release(self.0) }
    }
}

/// The primary picture of the HEIF file `data`; `ctx` must outlive the handle and `data` the context.
fn primary(ctx: &Context, data: &[u8]) -> Result<Handle, HeifError> {
    // SAFETY: `data` outlives the context in every caller (both live to the end of the calling
    // function, the context dropped first), as reading without a copy requires.
    check(unsafe { ffi::heif_context_read_from_memory_without_copy(ctx.0, data.as_ptr().cast(), data.len(), std::ptr::null()) })?;
    let mut handle = std::ptr::null_mut();
    // SAFETY: the context holds a read file; the handle pointer is written on success.
    check(unsafe { ffi::heif_context_get_primary_image_handle(ctx.0, &mut handle) })?;
    if handle.is_null() {
        return Err(HeifError::Library("libheif: no primary picture".into()));
    }
    Ok(Handle(handle))
}

fn size_of(handle: &Handle) -> (u32, u32) {
    // SAFETY: the handle is live; libheif answers the displayed (upright) size.
    let (w, h) = unsafe { (ffi::heif_image_handle_get_width(handle.0), ffi::heif_image_handle_get_height(handle.0)) };
    (u32::try_from(w).unwrap_or(0), u32::try_from(h).unwrap_or(0))
}

/// The size of the primary picture of the HEIF file `data`, read from its boxes without decoding.
pub fn dimensions(data: &[u8]) -> Result<(u32, u32), HeifError> {
    let ctx = Context::new()?;
    let handle = primary(&ctx, data)?;
    Ok(size_of(&handle))
}

/// Decodes the primary picture of the HEIF or AVIF file `data`, upright, refusing one of more than
/// `max_pixels` pixels before decoding it.
pub fn decode(data: &[u8], max_pixels: u64) -> Result<Picture, HeifError> {
    let ctx = Context::new()?;
    let handle = primary(&ctx, data)?;
    let (width, height) = size_of(&handle);
    if width == 0 || height == 0 {
        return Err(HeifError::Library("libheif: a picture without pixels".into()));
    }
    if u64::from(width) * u64::from(height) > max_pixels {
        return Err(HeifError::TooLarge { width, height, limit: max_pixels });
    }
    // SAFETY: the handle is live.
    let has_alpha = unsafe { ffi::heif_image_handle_has_alpha_channel(handle.0) } != 0;
    let mut img = std::ptr::null_mut();
    // SAFETY: the handle is live; default options (null) apply the transformations; the image
    // pointer is written on success and released by `Image`.
    check(unsafe {
        ffi::heif_decode_image(handle.0, &mut img, ffi::COLORSPACE_RGB, ffi::CHROMA_INTERLEAVED_RGBA, std::ptr::null())
    })?;
    if img.is_null() {
        return Err(HeifError::Library("libheif: nothing decoded".into()));
    }
    let img = Image(img);
    // SAFETY: the image is live.
    let (w, h) = unsafe {
        (ffi::heif_image_get_width(img.0, ffi::CHANNEL_INTERLEAVED), ffi::heif_image_get_height(img.0, ffi::CHANNEL_INTERLEAVED))
    };
    let (w, h) = (usize::try_from(w).map_err(|_| HeifError::Size("negative width"))?, usize::try_from(h).map_err(|_| HeifError::Size("negative height"))?);
    let mut stride = 0;
    // SAFETY: the image is live and interleaved RGBA; the plane is valid while it is.
    let plane = unsafe { ffi::heif_image_get_plane_readonly(img.0, ffi::CHANNEL_INTERLEAVED, &mut stride) };
    let stride = usize::try_from(stride).map_err(|_| HeifError::Size("negative stride"))?;
    if plane.is_null() || stride < w * 4 {
        return Err(HeifError::Library("libheif: no RGBA plane".into()));
    }
    let mut rgba = Vec::with_capacity(w * h * 4);
    for y in 0..h {
        // SAFETY: the plane holds `h` rows of `stride` bytes, each starting with `w * 4` pixels.
        let row = unsafe { std::slice::from_raw_parts(plane.add(y * stride), w * 4) };
        rgba.extend_from_slice(row);
    }
    let (width, height) = (u32::try_from(w).unwrap_or(0), u32::try_from(h).unwrap_or(0));
    Ok(Picture { width, height, has_alpha, rgba })
}

extern "C" fn append(_ctx: *mut ffi::HeifContext, data: *const std::ffi::c_void, size: usize, out: *mut std::ffi::c_void) -> ffi::HeifErrorC {
    if !data.is_null() && !out.is_null() {
        // SAFETY: `out` is the `Vec<u8>` `encode` passed as user data, alive for the write;
        // libheif hands `size` readable bytes at `data`.
        unsafe { (*out.cast::<Vec<u8>>()).extend_from_slice(std::slice::from_raw_parts(data.cast::<u8>(), size)) };
    }
    ffi::HeifErrorC { code: 0, subcode: 0, message: c"Success".as_ptr() }
}

/// Encodes straight RGBA rows of `width` × `height` as a HEIF file with `codec` at `quality`
/// (0–100); answers the file's bytes.
pub fn encode(rgba: &[u8], width: u32, height: u32, codec: Codec, quality: u8) -> Result<Vec<u8>, HeifError> {
    let (w, h) = (usize::try_from(width).map_err(|_| HeifError::Size("width"))?, usize::try_from(height).map_err(|_| HeifError::Size("height"))?);
    if rgba.len() != w * h * 4 || w == 0 || h == 0 {
        return Err(HeifError::Size("the pixels do not match the size"));
    }
    let (wi, hi) = (i32::try_from(width).map_err(|_| HeifError::Size("width"))?, i32::try_from(height).map_err(|_| HeifError::Size("height"))?);
    let ctx = Context::new()?;
    let format = match codec {
        Codec::Hevc => ffi::COMPRESSION_HEVC,
        Codec::Av1 => ffi::COMPRESSION_AV1,
    };
    let mut encoder = std::ptr::null_mut();
    // SAFETY: the context is live; the encoder pointer is written on success.
    check(unsafe { ffi::heif_context_get_encoder_for_format(ctx.0, format, &mut encoder) })?;
    struct Encoder(*mut ffi::HeifEncoder);
    impl Drop for Encoder {
        fn drop(&mut self) {
            // SAFETY: the encoder came from libheif and is released once, here.
            unsafe { ffi::heif_encoder_release(self.0) }
        }
    }
    let encoder = Encoder(encoder);
    // SAFETY: the encoder is live.
    check(unsafe { ffi::heif_encoder_set_lossy_quality(encoder.0, i32::from(quality.min(100))) })?;
    // An opaque picture is written without an alpha plane, as a camera writes it.
    let opaque = rgba.chunks_exact(4).all(|p| p[3] == 255);
    let (chroma, bytes) = if opaque { (ffi::CHROMA_INTERLEAVED_RGB, 3) } else { (ffi::CHROMA_INTERLEAVED_RGBA, 4) };
    let mut img = std::ptr::null_mut();
    // SAFETY: a fresh image of a positive size; the pointer is written on success.
    check(unsafe { ffi::heif_image_create(wi, hi, ffi::COLORSPACE_RGB, chroma, &mut img) })?;
    let img = Image(img);
    // SAFETY: the image is live and has no plane yet.
    check(unsafe { ffi::heif_image_add_plane(img.0, ffi::CHANNEL_INTERLEAVED, wi, hi, 8) })?;
    let mut stride = 0;
    // SAFETY: the plane was just added; it is valid while the image is.
    let plane = unsafe { ffi::heif_image_get_plane(img.0, ffi::CHANNEL_INTERLEAVED, &mut stride) };
    let stride = usize::try_from(stride).map_err(|_| HeifError::Size("negative stride"))?;
    if plane.is_null() || stride < w * bytes {
        return Err(HeifError::Library("libheif: no RGB plane".into()));
    }
    let mut line = Vec::with_capacity(w * bytes);
    for (y, row) in rgba.chunks_exact(w * 4).enumerate() {
        line.clear();
        row.chunks_exact(4).for_each(|p| line.extend_from_slice(&p[..bytes]));
        // SAFETY: the plane holds `h` rows of `stride` >= `w * bytes` bytes; `y < h`.
        unsafe { std::ptr::copy_nonoverlapping(line.as_ptr(), plane.add(y * stride), w * bytes) };
    }
    // SAFETY: context, image and encoder are live; no options and no handle are asked for.
    check(unsafe { ffi::heif_context_encode_image(ctx.0, img.0, encoder.0, std::ptr::null(), std::ptr::null_mut()) })?;
    let mut out: Vec<u8> = Vec::new();
    let mut writer = ffi::HeifWriter { writer_api_version: 1, write: append };
    // SAFETY: the writer's callback appends to `out`, which lives across the call.
    check(unsafe { ffi::heif_context_write(ctx.0, &mut writer, (&mut out as *mut Vec<u8>).cast()) })?;
    Ok(out)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn gradient(w: u32, h: u32) -> Vec<u8> {
        (0..h).flat_map(|y| (0..w).flat_map(move |x| [(x * 4) as u8, (y * 5) as u8, 128, 255])).collect()
    }

    #[test]
    fn heic_and_avif_round_trip() -> Result<(), HeifError> {
        for (codec, brand) in [(Codec::Hevc, b"heic"), (Codec::Av1, b"avif")] {
            let file = encode(&gradient(64, 48), 64, 48, codec, 90)?;
            assert_eq!(&file[4..8], b"ftyp");
            assert_eq!(&file[8..12], brand);
            assert_eq!(dimensions(&file)?, (64, 48));
            let pic = decode(&file, 64 * 48)?;
            assert_eq!((pic.width, pic.height, pic.rgba.len(), pic.has_alpha), (64, 48, 64 * 48 * 4, false), "an opaque picture has no alpha plane");
            // Lossy, but near: the pixel at (10, 0) was (40, 0, 128).
            let p = &pic.rgba[40..43];
            assert!(p[0].abs_diff(40) < 16 && p[1] < 16 && p[2].abs_diff(128) < 16, "{codec:?}: {p:?}");
            assert!(matches!(decode(&file, 64 * 47), Err(HeifError::TooLarge { width: 64, height: 48, .. })));
        }
        Ok(())
    }

    #[test]
    fn other_bytes_are_refused() {
        assert!(decode(b"\x89PNG\r\n\x1a\n<html></html>", 1 << 20).is_err());
        assert!(decode(b"", 1 << 20).is_err());
        let mut truncated = encode(&gradient(32, 32), 32, 32, Codec::Hevc, 50).unwrap_or_default();
        truncated.truncate(truncated.len() / 2);
        assert!(decode(&truncated, 1 << 20).is_err(), "half a file");
    }
}
