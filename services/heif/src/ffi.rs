//! The part of libheif's C API (heif.h, 1.15) this crate calls.

use std::ffi::{c_char, c_int, c_void};

pub enum HeifContext {}
pub enum HeifImageHandle {}
pub enum HeifImage {}
pub enum HeifEncoder {}

/// `struct heif_error`.
#[repr(C)]
pub struct HeifErrorC {
    pub code: c_int,
    pub subcode: c_int,
    pub message: *const c_char,
}

/// `struct heif_writer`, version 1.
#[repr(C)]
pub struct HeifWriter {
    pub writer_api_version: c_int,
    pub write: extern "C" fn(*mut HeifContext, *const c_void, usize, *mut c_void) -> HeifErrorC,
}

/// `heif_compression_HEVC`.
pub const COMPRESSION_HEVC: c_int = 1;
/// `heif_compression_AV1`.
pub const COMPRESSION_AV1: c_int = 4;
/// `heif_colorspace_RGB`.
pub const COLORSPACE_RGB: c_int = 1;
/// `heif_chroma_interleaved_RGB`.
pub const CHROMA_INTERLEAVED_RGB: c_int = 10;
/// `heif_chroma_interleaved_RGBA`.
pub const CHROMA_INTERLEAVED_RGBA: c_int = 11;
/// `heif_channel_interleaved`.
pub const CHANNEL_INTERLEAVED: c_int = 10;

unsafe extern "C" {
    pub fn heif_init(params: *mut c_void) -> HeifErrorC;
    pub fn heif_context_alloc() -> *mut HeifContext;
    pub fn heif_context_free(ctx: *mut HeifContext);
    pub fn heif_context_read_from_memory_without_copy(
        ctx: *mut HeifContext,
        mem: *const c_void,
        size: usize,
        options: *const c_void,
    ) -> HeifErrorC;
    pub fn heif_context_get_primary_image_handle(ctx: *mut HeifContext, handle: *mut *mut HeifImageHandle) -> HeifErrorC;
    pub fn heif_image_handle_release(handle: *const HeifImageHandle);
    pub fn heif_image_handle_get_width(handle: *const HeifImageHandle) -> c_int;
    pub fn heif_image_handle_get_height(handle: *const HeifImageHandle) -> c_int;
    pub fn heif_image_handle_has_alpha_channel(handle: *const HeifImageHandle) -> c_int;
    pub fn heif_decode_image(
        handle: *const HeifImageHandle,
        out: *mut *mut HeifImage,
        colorspace: c_int,
        chroma: c_int,
        options: *const c_void,
    ) -> HeifErrorC;
    pub fn heif_image_get_width(img: *const HeifImage, channel: c_int) -> c_int;
    pub fn heif_image_get_height(img: *const HeifImage, channel: c_int) -> c_int;
    pub fn heif_image_get_plane_readonly(img: *const HeifImage, channel: c_int, stride: *mut c_int) -> *const u8;
    pub fn heif_image_get_plane(img: *mut HeifImage, channel: c_int, stride: *mut c_int) -> *mut u8;
    pub fn heif_image_release(img: *const HeifImage);
    pub fn heif_image_create(width: c_int, height: c_int, colorspace: c_int, chroma: c_int, out: *mut *mut HeifImage) -> HeifErrorC;
    pub fn heif_image_add_plane(img: *mut HeifImage, channel: c_int, width: c_int, height: c_int, bit_depth: c_int) -> HeifErrorC;
    pub fn heif_context_get_encoder_for_format(ctx: *mut HeifContext, format: c_int, out: *mut *mut HeifEncoder) -> HeifErrorC;
    pub fn heif_encoder_set_lossy_quality(encoder: *mut HeifEncoder, quality: c_int) -> HeifErrorC;
    pub fn heif_encoder_release(encoder: *mut HeifEncoder);
    pub fn heif_context_encode_image(
        ctx: *mut HeifContext,
        img: *const HeifImage,
        encoder: *mut HeifEncoder,
        options: *const c_void,
        out_handle: *mut *mut HeifImageHandle,
    ) -> HeifErrorC;
    pub fn heif_context_write(ctx: *mut HeifContext, writer: *mut HeifWriter, userdata: *mut c_void) -> HeifErrorC;
}
