//! Shared plumbing of every Reelforge service: configuration, telemetry, the error-code table, and the
//! pluggable backends (database, cache, job queue and its event bus, blob storage), each a small trait or type with
//! an embedded and a distributed implementation chosen by configuration.

pub mod blob;
pub mod bus;
pub mod cache;
pub mod config;
pub mod db;
pub mod identity;
pub mod metrics;
pub mod queue;
pub mod status;
pub mod telemetry;
#[cfg(feature = "testing")]
pub mod testing;

pub use blob::{BlobError, BlobStore};
pub use bus::{BusError, EventBus};
pub use cache::{Cache, CacheError};
pub use config::{Config, ConfigError};
pub use identity::{Identity, IdentityError, Keyring, OperatorLevel, Role};
pub use queue::{Job, JobQueue, QueueError};
