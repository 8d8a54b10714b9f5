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
    /// Most scenes a saved document may have (48, or 45 with `REELFORGE_TIMELINE_SCENE_LIMIT=45`):
    /// the limit the save's check applies, so the editor refuses a scene the save would refuse.
    #[serde(rename = "sceneLimit")]
    scene_limit: usize,
}

/// The product name, version, mode, the request's variant among those served, and the scene limit.
#[utoipa::path(get, path = "/diyvrbt/system/info", responses((status = 200, body = SystemInfo)))]
pub async fn info(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    Ok(envelope::ok(SystemInfo {
        name: "reelforge",
        version: env!("CARGO_PKG_VERSION"),
        mode: state.mode.clone(),
        variant: caller::tenant(&req)?,
        variants: caller::variants(&req),
        scene_limit: reelforge_timeline::ValidateOptions::from_env().max_scenes,
    }))
}
