//! The ring service: video-ringtone orders (docs/ringtone.md). `lib.rs` wires; `domain` holds the
//! states, moves and phone rules, `store` the tables, `platform` the ring platforms (HTTP and the
//! one inside the binary), `relay` the delivery outbox loop, `check` the profile checks, `tasks` the
//! task service as orders read it, `grpc` the server.

pub mod check;
pub mod domain;
mod grpc;
pub mod platform;
pub mod relay;
mod store;
pub mod tasks;

use std::sync::Arc;

pub use domain::{Action, Order, OrderState, Outcome, Phone, RingError};
pub use grpc::RingGrpc;
pub use platform::{Platforms, RingPlatform};
pub use relay::{Relay, RelaySettings};
pub use store::{Copyright, OutboxEntry, RingStore, migrate, migration_book, unmigrate};
pub use tasks::{TaskService, Tasks};

use reelforge_kit::BlobStore;
use reelforge_kit::config::{RingConfig, TimeoutConfig};
use reelforge_kit::identity::{Guarded, Keyring};
use reelforge_proto::ring::ring_service_server::RingServiceServer;
use tokio::sync::watch;

/// What the ring service runs on.
pub struct Backends {
    /// The migrated database.
    pub db: sea_orm::DatabaseConnection,
    /// Blob storage, where the rendered videos are read for delivery.
    pub blob: BlobStore,
    /// Where finished tasks are read (the task service in production).
    pub tasks: Arc<dyn Tasks>,
    /// A directory for the files measured (`<data_dir>/scratch`).
    pub scratch: std::path::PathBuf,
}

/// Builds the gRPC service, every call of which must carry a token `keys` verify, and starts its
/// delivery relay until `shutdown` turns true. A platform configured wrongly (a `url` without its
/// `secret`) refuses the start with one line naming the value.
pub fn grpc_service(
    b: Backends,
    config: &RingConfig,
    timeouts: &TimeoutConfig,
    keys: &Keyring,
    shutdown: watch::Receiver<bool>,
) -> Result<Guarded<RingServiceServer<RingGrpc>>, String> {
    let store = RingStore::new(b.db);
    let platforms = Platforms::from_config(config, timeouts, store.clone())?;
    let checker = check::Checker::new(b.blob.clone(), b.scratch);
    let relay = Relay::new(
        store.clone(),
        platforms.clone(),
        b.blob,
        keys.clone(),
        RelaySettings::from_config(config),
    );
    tokio::spawn(relay.run(shutdown));
    let grpc = RingGrpc::new(store, b.tasks, platforms, config.profiles.clone(), checker);
    Ok(RingServiceServer::with_interceptor(grpc, keys.verifier()))
}
