//! The task service: saved video tasks (the rule as `taskInfo`), their render runs on the job queue
//! and the state workers report back. `lib.rs` wires; `domain` holds the rules, `store` the tables,
//! `grpc` the server.

pub mod domain;
mod grpc;
mod store;

use std::sync::Arc;

pub use domain::{FinishOutcome, Owner, Task, TaskDraft, TaskError, TaskState, TaskStatus};
pub use grpc::TaskGrpc;
pub use store::{TaskStore, migrate};

use reelforge_kit::JobQueue;
use reelforge_proto::task::task_service_server::TaskServiceServer;

/// The queue render jobs are published to.
pub const RENDER_QUEUE: &str = "reelforge.render";

/// Builds the gRPC service over a migrated database and the job queue.
pub fn grpc_service(db: sea_orm::DatabaseConnection, queue: Arc<dyn JobQueue>) -> TaskServiceServer<TaskGrpc> {
    TaskServiceServer::new(TaskGrpc::new(TaskStore::new(db, queue)))
}
