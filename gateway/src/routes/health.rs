//! Liveness, readiness and metrics.

use actix_web::{HttpResponse, web};

use crate::AppState;

/// Answers while the process runs.
pub async fn healthz() -> HttpResponse {
    HttpResponse::Ok().content_type("text/plain").body("ok\n")
}

/// Answers 200 when the services behind the gateway answer, 503 naming the first that does not.
pub async fn readyz(state: web::Data<AppState>) -> HttpResponse {
    match (state.ready)().await {
        Ok(()) => HttpResponse::Ok().content_type("text/plain").body("ready\n"),
        Err(why) => HttpResponse::ServiceUnavailable().content_type("text/plain").body(format!("not ready: {why}\n")),
    }
}

/// Prometheus text exposition.
pub async fn metrics() -> HttpResponse {
    HttpResponse::Ok().content_type("text/plain; version=0.0.4").body(reelforge_kit::metrics::render())
}
