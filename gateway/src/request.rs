//! Per-request plumbing: a request id (taken from `x-request-id` or made) carried into gRPC metadata,
//! metrics of every request, and CORS for the variant front ends.

use std::time::Instant;

use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::http::header::{HeaderName, HeaderValue};
use actix_web::middleware::Next;
use reelforge_kit::telemetry::{CURRENT_REQUEST_ID, REQUEST_ID};
use tracing::Instrument;

/// Sets the request id for the request's lifetime, echoes it, and records metrics.
pub async fn track(req: ServiceRequest, next: Next<impl MessageBody>) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let id = req
        .headers()
        .get(REQUEST_ID)
        .and_then(|v| v.to_str().ok())
        .filter(|v| !v.is_empty() && v.len() <= 64 && v.bytes().all(|b| b.is_ascii_graphic()))
        .map_or_else(|| uuid::Uuid::new_v4().to_string(), str::to_owned);
    let route = req.match_pattern().unwrap_or_else(|| "unmatched".into());
    let span = tracing::info_span!("http", method = %req.method(), route = %route, request_id = %id);
    let started = Instant::now();
    let mut res = CURRENT_REQUEST_ID.scope(id.clone(), next.call(req)).instrument(span).await?;
    reelforge_kit::metrics::observe("http", &route, res.status().as_str(), started.elapsed().as_secs_f64());
    if let Ok(v) = HeaderValue::from_str(&id) {
        res.headers_mut().insert(HeaderName::from_static(REQUEST_ID), v);
    }
    Ok(res)
}

/// CORS: the configured origins, or any origin without credentials when none are configured.
pub fn cors(origins: &[String]) -> actix_cors::Cors {
    let base = actix_cors::Cors::default()
        .allowed_methods(["GET", "POST", "DELETE", "OPTIONS"])
        .allow_any_header()
        .expose_headers([REQUEST_ID])
        .max_age(3600);
    if origins.is_empty() {
        base.allow_any_origin()
    } else {
        origins.iter().fold(base.supports_credentials(), |c, o| c.allowed_origin(o))
    }
}
