//! The category service: each tenant's two-level tree of task-video categories (dimension industry,
//! use, size or IVVR). `lib.rs` wires; `domain` holds the rules, `store` the tables, `grpc` the server.

pub mod domain;
mod grpc;
mod store;

pub use domain::{Category, CategoryError, Dimension};
pub use grpc::CategoryGrpc;
pub use store::{CategoryStore, migrate, unmigrate};

use reelforge_kit::identity::{Guarded, Keyring};
use reelforge_proto::category::category_service_server::CategoryServiceServer;

/// Builds the gRPC service over a migrated database; every call must carry a token `keys` verify.
pub fn grpc_service(db: sea_orm::DatabaseConnection, keys: &Keyring) -> Guarded<CategoryServiceServer<CategoryGrpc>> {
    CategoryServiceServer::with_interceptor(CategoryGrpc::new(CategoryStore::new(db)), keys.verifier())
}
