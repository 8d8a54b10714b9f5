//! Tracing set-up (human logs by default, JSON on request) and the request id carried from the gateway
//! through gRPC metadata (`x-request-id`).

use tracing_subscriber::EnvFilter;
use tracing_subscriber::layer::SubscriberExt;
use tracing_subscriber::util::SubscriberInitExt;

/// The metadata and header key that carries a request id.
pub const REQUEST_ID: &str = "x-request-id";

tokio::task_local! {
    /// The id of the request being served, set by the gateway for the lifetime of a request.
    pub static CURRENT_REQUEST_ID: String;
}

/// Installs the global subscriber; `format` is `human` or `json`. Later calls are ignored.
pub fn init(format: &str, filter: &str) {
    let filter = EnvFilter::try_from_default_env().unwrap_or_else(|_| EnvFilter::new(filter));
    let registry = tracing_subscriber::registry().with(filter);
    let _ = if format == "json" {
        registry.with(tracing_subscriber::fmt::layer().json().with_current_span(true)).try_init()
    } else {
        registry.with(tracing_subscriber::fmt::layer().with_target(false)).try_init()
    };
}

/// A gRPC client interceptor that copies the current request id into the outgoing metadata.
pub fn propagate_request_id(mut req: tonic::Request<()>) -> Result<tonic::Request<()>, tonic::Status> {
    if let Ok(id) = CURRENT_REQUEST_ID.try_with(Clone::clone)
        && let Ok(value) = id.parse()
    {
        req.metadata_mut().insert(REQUEST_ID, value);
    }
    Ok(req)
}

/// Makes the span a gRPC server opens for each call, carrying the caller's request id.
pub fn grpc_span(req: &http::Request<()>) -> tracing::Span {
    let id = req.headers().get(REQUEST_ID).and_then(|v| v.to_str().ok()).unwrap_or("-");
    tracing::info_span!("grpc", path = %req.uri().path(), request_id = %id)
}
