//! The starter library's files, made by the project: tiny-skia pictures, GIFs with a fixed
//! palette and a small synthesiser's music. A crate of its own so that its per-pixel and
//! per-sample loops are built optimised while the material service around it is not
//! (docs/benchmarks.md, "Build"); the catalogue and the seeding stay in the material service.

pub mod animate;
pub mod music;
pub mod paint;
pub mod pictures;
