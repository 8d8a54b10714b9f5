//! What is running.

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Serialize;

use crate::{ApiError, AppState, caller, envelope};

/// The system information answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SystemInfo {
    name: &'static str,
    version: &'static str,
    mode: String,
    /// The variant of this request.
    variant: String,
    /// The variants this deployment serves.
    variants: Vec<String>,
}

/// The product name, version, mode, and the request's variant among those served.
#[utoipa::path(get, path = "/diyvrbt/system/info", responses((status = 200, body = SystemInfo)))]
pub async fn info(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    Ok(envelope::ok(SystemInfo {
        name: "reelforge",
        version: env!("CARGO_PKG_VERSION"),
        mode: state.mode.clone(),
        variant: caller::tenant(&req)?,
        variants: caller::variants(&req),
    }))
}
