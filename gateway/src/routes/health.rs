//! Liveness and readiness; metrics are not served here.

use actix_web::{HttpResponse, web};

use crate::{ApiError, AppState};

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

/// Refuses `/metrics` on the public port: route names, counts and timings are for the scraper, which
/// reads them on the admin address (`admin.addr`).
pub async fn metrics() -> Result<HttpResponse, ApiError> {
    Err(ApiError::NotFound)
}
