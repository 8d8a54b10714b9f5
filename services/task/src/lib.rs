//! The task service: saved video tasks (the rule as `taskInfo`), their render runs on the job queue
//! and the state workers report back. `lib.rs` wires; `domain` holds the rules, `store` the tables,
//! `farm` the outbox relay, reaper and dead-letter consumer, `watchers` the shared feeds of watched
//! tasks, `grpc` the server.

pub mod collection;
pub mod contest;
pub mod domain;
pub mod enterprise;
pub mod events;
pub mod farm;
mod grpc;
mod grpc_collection;
mod grpc_contest;
mod grpc_enterprise;
mod grpc_market;
mod grpc_maintain;
pub mod history;
pub mod library;
pub mod maintain;
pub mod market;
pub mod offer;
pub mod one_click;
mod providers;
mod store;
pub mod template;
pub mod watchers;

use std::sync::Arc;

pub use domain::{
    FinishOutcome, History, JobRef, Order, Owner, Run, SaveInput, SourceRange, Stage, Task, TaskDraft, TaskError, TaskFilter, TaskState,
    TaskStatus, ToolOutput, ToolRun,
};
pub use farm::FarmSettings;
pub use grpc::TaskGrpc;
pub use history::HistoryStore;
pub use library::MaterialLibrary;
pub use store::{Deleted, OneClickTemplate, OutboxEntry, Reaped, TaskStore, migrate, migration_book, render_keys, renders_prefix, tool_prefix, unmigrate};

use reelforge_kit::identity::{Guarded, Keyring};
use reelforge_kit::{BlobStore, Cache, EventBus, JobQueue};
use reelforge_proto::task::task_service_server::TaskServiceServer;
use tokio::sync::watch;

pub use reelforge_kit::queue::RENDER_QUEUE;

/// What the task service runs on.
pub struct Backends {
    /// The migrated database.
    pub db: sea_orm::DatabaseConnection,
    /// The render job queue.
    pub queue: Arc<dyn JobQueue>,
    /// The event bus of progress and cancels.
    pub bus: Arc<dyn EventBus>,
    /// The cache of the latest progress and the editor's autosave.
    pub cache: Arc<dyn Cache>,
    /// Blob storage, where a deleted task's render and cover are removed.
    pub blob: BlobStore,
    /// A channel to the material service, which says whose materials a document may name.
    pub materials: tonic::transport::Channel,
    /// A channel to the auth service, which says who is a service provider.
    pub auth: tonic::transport::Channel,
    /// Every service's migrations as this binary carries them (they share the database), which
    /// the maintenance area's upgrade page lists.
    pub migrations: Vec<reelforge_kit::db::MigrationBook>,
}

/// Builds the gRPC service, every call of which must carry a token `keys` verify, and starts its farm
/// loop (outbox relay, reaper, dead letters) and its event listener until `shutdown` turns true.
pub async fn grpc_service(
    b: Backends,
    settings: FarmSettings,
    keys: &Keyring,
    shutdown: watch::Receiver<bool>,
) -> Result<Guarded<TaskServiceServer<TaskGrpc>>, reelforge_kit::BusError> {
    let library = std::sync::Arc::new(MaterialLibrary::new(b.materials, keys.clone()));
    let providers = std::sync::Arc::new(providers::AuthProviders::new(b.auth, keys.clone()));
    let store = TaskStore::new(b.db).with_library(library).with_providers(providers.clone()).with_directory(providers);
    let history = HistoryStore::new(b.cache.clone());
    let events = events::Events::start(b.bus, b.cache, shutdown.clone()).await?;
    tokio::spawn(farm::run(store.clone(), b.queue, settings.clone(), shutdown));
    let grpc = TaskGrpc::new(store, settings, events, history, b.blob).with_migrations(b.migrations);
    Ok(TaskServiceServer::with_interceptor(grpc, keys.verifier()))
}
