//! The exact-frame still of the editor: `POST /videotask/frame` answers the PNG of an unsaved
//! document's frame at a time, drawn by the render engine (see `crate::frame`).

use actix_web::{HttpRequest, HttpResponse, web};
use serde::Deserialize;

use crate::{ApiError, AppState, body, caller};

/// Body of the still: the document (a JSON string as save takes it, or the object itself) and the
/// time in seconds.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FrameBody {
    #[serde(alias = "videoCreateInfo")]
    #[schema(value_type = String)]
    task_info: serde_json::Value,
    #[serde(default)]
    time: f64,
}

/// The PNG of the document's frame at `time`, as the video will show it; a document with errors,
/// or naming a material outside the caller's tenant, is refused (3000) naming each problem.
#[utoipa::path(post, path = "/diyvrbt/videotask/frame", request_body = FrameBody, responses((status = 200, content_type = "image/png", body = Vec<u8>)))]
pub async fn still(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: FrameBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let user = caller.user()?;
    let frames = state.frames.as_ref().ok_or(ApiError::NotAvailable("the exact-frame still on this gateway"))?;
    let task_info = match b.task_info {
        serde_json::Value::String(s) => s,
        other => other.to_string(),
    };
    let png = frames.still(&caller.tenant, &user.user_id, &task_info, b.time).await?;
    Ok(HttpResponse::Ok().content_type("image/png").insert_header(("Cache-Control", "no-store")).body(png))
}
