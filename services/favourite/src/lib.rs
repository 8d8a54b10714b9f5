//! The favourite service: a user's favourite materials, templates and fonts, and their search
//! history (the last 10 keywords).

pub mod domain;
mod grpc;
mod store;

pub use domain::{Favourite, FavouriteError};
pub use grpc::FavouriteGrpc;
pub use store::{FavouriteStore, migrate, migration_book, unmigrate};

use reelforge_kit::identity::{Guarded, Keyring};
use reelforge_proto::favourite::favourite_service_server::FavouriteServiceServer;

/// Builds the gRPC service over a migrated database; every call must carry a token `keys` verify.
pub fn grpc_service(db: sea_orm::DatabaseConnection, keys: &Keyring) -> Guarded<FavouriteServiceServer<FavouriteGrpc>> {
    FavouriteServiceServer::with_interceptor(FavouriteGrpc::new(FavouriteStore::new(db)), keys.verifier())
}
