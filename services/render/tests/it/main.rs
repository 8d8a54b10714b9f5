//! The render crate's integration tests, one binary: each file a module (one link instead of one per file;
//! docs/benchmarks.md, "Build").

mod bounds;
mod features;
mod formats;
mod render;
mod sources;
mod units;
