//! What is running.

use actix_web::{HttpResponse, web};
use serde::Serialize;

use crate::{AppState, envelope};

/// The system information answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SystemInfo {
    name: &'static str,
    version: &'static str,
    mode: String,
}

/// The product name, version and mode.
#[utoipa::path(get, path = "/diyvrbt/system/info", responses((status = 200, body = SystemInfo)))]
pub async fn info(state: web::Data<AppState>) -> HttpResponse {
    envelope::ok(SystemInfo { name: "reelforge", version: env!("CARGO_PKG_VERSION"), mode: state.mode.clone() })
}
