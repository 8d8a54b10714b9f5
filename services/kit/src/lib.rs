//! Shared plumbing of every Reelforge service: configuration, telemetry, the error-code table, and the
//! pluggable backends (database, cache, job queue and its event bus, blob storage), each a small trait or type with
//! an embedded and a distributed implementation chosen by configuration; and the check of uploaded
//! OOXML packages (pptx, xlsx) shared by the services that read them.

pub mod blob;
pub mod bus;
pub mod cache;
pub mod config;
pub mod db;
pub mod grpc;
pub mod identity;
pub mod metrics;
pub mod ooxml;
pub mod queue;
pub mod revocation;
pub mod signed;
pub mod status;
pub mod telemetry;
// Always built (small, no dependencies of its own): a `testing` feature turned on by the tests'
// dev-dependencies gave kit, and every crate above it, a second build for `make test` beside the
// one `make run` made.
pub mod testing;

pub use blob::{BlobError, BlobStore};
pub use bus::{BusError, EventBus};
pub use cache::{Cache, CacheError};
pub use config::{Config, ConfigError};
pub use identity::{Identity, IdentityError, Keyring, OperatorLevel, Role};
pub use queue::{Job, JobQueue, QueueError};
