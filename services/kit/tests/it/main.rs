//! The kit crate's integration tests, one binary: each file a module (one link instead of one per
//! file; docs/benchmarks.md, "Build").

mod backends;
mod fuzz;
