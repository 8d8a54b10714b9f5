//! The category service: each tenant's two-level tree of task-video categories (dimension industry,
//! use, size or IVVR). `lib.rs` wires; `domain` holds the rules, `store` the tables, `grpc` the server.

pub mod domain;
mod grpc;
mod store;
mod uses;

pub use domain::{Category, CategoryError, Dimension, Use};
pub use grpc::CategoryGrpc;
pub use store::{CategoryStore, migrate, migration_book, unmigrate};
pub use uses::{CategoryUses, TemplateUses};

use reelforge_kit::identity::{Guarded, Keyring};
use reelforge_proto::category::category_service_server::CategoryServiceServer;

/// Builds the gRPC service over a migrated database, asking the task service behind `tasks` where
/// a category is used before deleting it; every call must carry a token `keys` verify.
pub fn grpc_service(
    db: sea_orm::DatabaseConnection,
    tasks: tonic::transport::Channel,
    keys: &Keyring,
) -> Guarded<CategoryServiceServer<CategoryGrpc>> {
    let uses = std::sync::Arc::new(TemplateUses::new(tasks, keys.clone()));
    CategoryServiceServer::with_interceptor(CategoryGrpc::new(CategoryStore::new(db), uses), keys.verifier())
}
