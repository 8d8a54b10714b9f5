//! The ai service: the catalogue of AI abilities (create, analyze, other). No AI backend is wired
//! into this deployment yet, so every ability is listed as unavailable.

pub mod domain;
mod grpc;

pub use domain::{Ability, Group, catalogue};
pub use grpc::AiGrpc;

use reelforge_kit::identity::{Guarded, Keyring};
use reelforge_proto::ai::ai_service_server::AiServiceServer;

/// Builds the gRPC service; it needs no storage; every call must carry a token `keys` verify.
pub fn grpc_service(keys: &Keyring) -> Guarded<AiServiceServer<AiGrpc>> {
    AiServiceServer::with_interceptor(AiGrpc::new(), keys.verifier())
}
