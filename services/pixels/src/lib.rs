//! The material service's CPU-heavy making of files: the starter library's pictures, GIFs with a
//! fixed palette and a small synthesiser's music, covers scaled from pixels; and the toolbox's
//! erasing of a box of a video's pictures (`erase`) and its looks (`looks`: beauty, sharpening,
//! crossfades). A crate of its own so that its per-pixel and per-sample loops (and the image crate's
//! generic scaling and encoding they call) are built optimised while the material service around it
//! is not (docs/benchmarks.md, "Build"); the starter catalogue and the seeding stay in the material
//! service.

pub mod animate;
pub mod erase;
pub mod looks;
pub mod music;
pub mod paint;
pub mod pictures;
pub mod still;
