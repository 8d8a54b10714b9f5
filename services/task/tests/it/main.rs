//! The task crate's integration tests, one binary: each file a module (one link instead of one per
//! file; docs/benchmarks.md, "Build"). `fairness` stays its own binary: it reads process-wide gauges
//! that the farm loops of these tests would also set.

mod calls;
mod common;
mod fuzz;
mod history;
mod store;
mod templates;
mod toolruns;
mod watchers;
