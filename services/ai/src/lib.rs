//! The ai service: the catalogue of AI abilities (create, analyze, other), each served by the
//! provider `[ai]` configures for the tenant (docs/ai.md): `local` (in this process), `http` (an
//! OpenAI-compatible endpoint) or none; `available` is computed from it and its health check.

pub mod abilities;
pub mod asr;
pub mod audit;
pub mod domain;
pub mod extract;
pub mod media;
mod program;
mod grpc;
pub mod picture;
pub mod provider;
pub mod speech;
pub mod wav;

pub use domain::{Ability, Group, catalogue};
pub use grpc::AiGrpc;
pub use provider::{AiError, Providers, Unavailable};
pub use speech::{Speech, Voice};
pub use wav::Wav;

use reelforge_kit::config::AiConfig;
use reelforge_kit::identity::{Guarded, Keyring};
use reelforge_proto::ai::ai_service_server::AiServiceServer;

/// Builds the gRPC service on `[ai]`; it needs no storage; every call must carry a token `keys` verify.
pub fn grpc_service(config: &AiConfig, keys: &Keyring) -> Guarded<AiServiceServer<AiGrpc>> {
    AiServiceServer::with_interceptor(AiGrpc::new(config.clone()), keys.verifier())
}
