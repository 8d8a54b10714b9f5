//! The material service: a user's uploaded materials and the tenant's system materials.
//! `lib.rs` wires; `domain` holds the rules, `store` the table, `grpc` the server.

pub mod domain;
mod grpc;
mod store;

pub use domain::{Material, MaterialError, MaterialKind, MaterialQuery, NewMaterial, Owner, PageRequest};
pub use grpc::MaterialGrpc;
pub use store::{MaterialStore, migrate};

use reelforge_kit::identity::{Guarded, Keyring};
use reelforge_proto::material::material_service_server::MaterialServiceServer;

/// Builds the gRPC service over a migrated database; every call must carry a token `keys` verify.
pub fn grpc_service(db: sea_orm::DatabaseConnection, keys: &Keyring) -> Guarded<MaterialServiceServer<MaterialGrpc>> {
    MaterialServiceServer::with_interceptor(MaterialGrpc::new(MaterialStore::new(db)), keys.verifier())
}
