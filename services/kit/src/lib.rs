//! Shared plumbing of every Reelforge service: configuration, telemetry, the error-code table, and the
//! four pluggable backends (database, cache, job queue, blob storage), each a small trait or type with
//! an embedded and a distributed implementation chosen by configuration.

pub mod blob;
pub mod cache;
pub mod config;
pub mod db;
pub mod metrics;
pub mod queue;
pub mod status;
pub mod telemetry;
#[cfg(feature = "testing")]
pub mod testing;

pub use blob::{BlobError, BlobStore};
pub use cache::{Cache, CacheError};
pub use config::{Config, ConfigError};
pub use queue::{Job, JobQueue, QueueError};
