//! The HTTP gateway: the spec's REST routes under `/diyvrbt`, every answer in the `{code, data, desc}`
//! envelope, reaching the services through their generated gRPC clients; plus health, the OpenAPI
//! document and the built SPA. Metrics are served on the admin address, by the binary.

mod body;
mod caller;
pub mod clients;
mod envelope;
pub mod frame;
mod harden;
mod hosts;
mod limit;
pub mod media;
mod openapi;
mod preview;
mod request;
mod routes;
mod spa;
mod upload;

use std::future::Future;
use std::sync::Arc;

use actix_web::{App, HttpServer, web};
use reelforge_kit::{Config, Keyring};

pub use caller::Edge;
pub use clients::Clients;
pub use envelope::{ApiError, Envelope};

/// The base path of every API route.
pub const BASE: &str = "/diyvrbt";

/// A readiness probe: answers whether the gateway's dependencies answer.
pub type ReadyCheck = Arc<dyn Fn() -> std::pin::Pin<Box<dyn Future<Output = Result<(), String>> + Send>> + Send + Sync>;

/// What every handler shares.
#[derive(Clone)]
pub struct AppState {
    /// gRPC clients of the services.
    pub clients: Clients,
    /// The running mode, shown by `/system/info`.
    pub mode: String,
    /// Readiness of the services behind the gateway.
    pub ready: ReadyCheck,
    /// Signing keys, for the service tokens of public reads and sign-in calls.
    pub keys: Keyring,
    /// Rendered videos and covers, when this gateway reaches the blob store.
    pub media: Option<media::Media>,
    /// Exact-frame stills, when this gateway reaches the blob store and the material service.
    pub frames: Option<frame::Frames>,
}

/// The key media tickets are signed with: derived from the signing key, so every gateway replica
/// holding the key ring agrees, and a rotation retires outstanding tickets (they live minutes).
pub fn media_ticket_secret(keys: &Keyring) -> Result<Vec<u8>, reelforge_kit::identity::IdentityError> {
    Ok(keys.mac("media-ticket", b"")?.into_bytes())
}

/// Starts the gateway on `config.http.addr`; the returned server runs until stopped and shuts down
/// gracefully on SIGTERM/SIGINT (finishing in-flight requests).
pub fn serve(config: &Config, state: AppState) -> std::io::Result<actix_web::dev::Server> {
    let limit = config.http.max_body_bytes;
    let static_dir = config.http.static_dir.clone();
    let origins = config.http.cors_origins.clone();
    let data = web::Data::new(state);
    let upload_limits = web::Data::new(config.upload.clone());
    let tool_limits = web::Data::new(reelforge_tools::Limits::new(&config.tools));
    let edge = web::Data::new(Edge::from_config(config));
    let body_limit = web::Data::new(limit::BodyLimit(u64::try_from(limit).unwrap_or(u64::MAX)));
    // A variant's configured hosts are where it is embedded from (and returned to), so they may frame it.
    let embedders = config
        .tenants
        .iter()
        .map(|(variant, t)| (variant.clone(), t.hosts.iter().map(|h| format!("https://{h}")).collect()))
        .collect();
    let hardening = web::Data::new(harden::Hardening::new(&embedders));
    let server = HttpServer::new(move || {
        App::new()
            .app_data(data.clone())
            .app_data(edge.clone())
            .app_data(hardening.clone())
            .app_data(upload_limits.clone())
            .app_data(tool_limits.clone())
            .app_data(web::PayloadConfig::new(limit))
            .app_data(body_limit.clone())
            .wrap(actix_web::middleware::from_fn(hosts::served_hosts))
            .wrap(actix_web::middleware::from_fn(harden::harden))
            .wrap(request::cors(&origins))
            .wrap(actix_web::middleware::from_fn(request::track))
            .configure(routes::health)
            .service(
                web::scope(BASE)
                    .wrap(actix_web::middleware::from_fn(limit::bounded))
                    .wrap(actix_web::middleware::from_fn(harden::no_store))
                    .wrap(actix_web::middleware::from_fn(media::refuse_revoked_tickets))
                    .configure(routes::api)
                    .configure(openapi::routes),
            )
            .configure(|c| spa::routes(c, &static_dir))
    })
    .shutdown_timeout(30)
    .bind(&config.http.addr)?
    .run();
    Ok(server)
}
