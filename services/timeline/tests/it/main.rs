//! The timeline crate's integration tests, one binary: each file a module (one link instead of one per file;
//! docs/benchmarks.md, "Build").

mod fixtures;
mod robustness;
mod typescript;
mod vectors;
