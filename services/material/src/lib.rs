//! The material service: a user's uploaded materials and the tenant's system materials.
//! `lib.rs` wires; `domain` holds the rules, `store` the table, `grpc` the server, `probe` the
//! GStreamer probing of uploads and `processing` its background runs, `starter` the library
//! every tenant starts with, `system` the rules of the system materials administrators keep,
//! `janitor` the sweep of objects no material references.

pub mod domain;
mod grpc;
mod janitor;
pub mod probe;
mod processing;
pub mod starter;
mod store;
pub mod system;

pub use domain::{Material, MaterialError, MaterialKind, MaterialQuery, MediaLimits, NewMaterial, Owner, PageRequest, Quota, Usage};
pub use grpc::MaterialGrpc;
pub use janitor::{Janitor, Swept};
pub use processing::Prober;
pub use starter::Starter;
pub use store::{Choice, MaterialStore, Seeded, Upload, migrate, migration_book, unmigrate};

use reelforge_kit::BlobStore;
use reelforge_kit::identity::{Guarded, Keyring};
use reelforge_proto::material::material_service_server::MaterialServiceServer;

/// Builds the gRPC service over a migrated database, without blob storage (reads only); every
/// call must carry a token `keys` verify.
pub fn grpc_service(db: sea_orm::DatabaseConnection, keys: &Keyring) -> Guarded<MaterialServiceServer<MaterialGrpc>> {
    MaterialServiceServer::with_interceptor(MaterialGrpc::new(MaterialStore::new(db)), keys.verifier())
}

/// Builds the gRPC service with the files in `blob`: uploads are checked within `limits`,
/// recorded within `quota` and probed, deletes remove objects. Materials left processing by an earlier run are probed again;
/// must run inside a Tokio runtime.
pub fn grpc_service_with_storage(
    db: sea_orm::DatabaseConnection,
    blob: BlobStore,
    quota: Quota,
    limits: MediaLimits,
    keys: &Keyring,
) -> Guarded<MaterialServiceServer<MaterialGrpc>> {
    let grpc = MaterialGrpc::with_storage(MaterialStore::new(db), blob, quota, limits);
    if let Some(prober) = grpc.prober() {
        tokio::spawn(async move { prober.resume().await });
    }
    MaterialServiceServer::with_interceptor(grpc, keys.verifier())
}
