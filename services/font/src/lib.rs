//! The font service: the system fonts of the machine (Debian's font packages) and each user's
//! uploaded fonts, the font files served to the browser, and the glyph check that tells the editor
//! which characters a font would draw blank. `lib.rs` wires; `domain` holds the rules, `system` the
//! system catalogue, `store` the table and files, `grpc` the server.

pub mod domain;
mod grpc;
mod store;
pub mod system;

use std::sync::Arc;

pub use domain::{Font, FontError, FontFormat};
pub use grpc::FontGrpc;
pub use store::{FontStore, migrate, migration_book, unmigrate};
pub use system::SystemFonts;

use reelforge_kit::BlobStore;
use reelforge_kit::identity::{Guarded, Keyring};
use reelforge_proto::font::font_service_server::FontServiceServer;

/// Largest gRPC message the service accepts: one upload at the size limit plus its envelope.
pub const MAX_MESSAGE_BYTES: usize = domain::MAX_UPLOAD_BYTES + 64 * 1024;

/// Builds the gRPC service over a migrated database, the blob store and the system fonts; every
/// call must carry a token `keys` verify.
pub fn grpc_service(db: sea_orm::DatabaseConnection, blob: BlobStore, system: Arc<SystemFonts>, keys: &Keyring) -> Guarded<FontServiceServer<FontGrpc>> {
    let server = FontServiceServer::new(FontGrpc::new(FontStore::new(db, blob), system)).max_decoding_message_size(MAX_MESSAGE_BYTES);
    tonic::service::interceptor::InterceptedService::new(server, keys.verifier())
}
