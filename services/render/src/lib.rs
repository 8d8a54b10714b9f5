//! The render engine: turns a rule (the document) and its materials into an H.264/AAC MP4,
//! or a single exact frame. GStreamer does media I/O; Rust does the drawing and the mixing.

pub mod error;
pub mod probe;

pub use error::{MediaError, Place, RenderError, Stage};

/// Initialises GStreamer once per process.
pub fn gst_init() -> Result<(), MediaError> {
    gstreamer::init().map_err(|e| MediaError::Gst(e.to_string()))
}
pub mod cli;
pub mod compose;
pub mod decode;
pub mod encode;
pub mod engine;
// gst_util, mp4edit and threads are public for the crate's tests in tests/it.
#[doc(hidden)]
pub mod gst_util;
pub mod materials;
pub mod mix;
#[doc(hidden)]
pub mod mp4edit;
pub mod render;
#[doc(hidden)]
pub mod threads;
pub mod yuv;

pub use engine::{Engine, material_ids, material_paths, render_frame, write_cover};
pub use materials::Materials;
pub use render::{Progress, RenderOptions, RenderReport, render};
