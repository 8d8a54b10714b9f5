//! Bodies of the API routes bounded by `http.max_body_bytes`: a request that announces more is
//! refused before a byte of it is read, and one that sends more without announcing it (chunked)
//! once the limit is passed; both HTTP 413 in the envelope, reason `body_too_large`. Multipart
//! uploads announce lengths up to their own, larger limits (`upload.rs`), so only their body
//! reading is bounded here.

use actix_web::HttpResponse;
use actix_web::body::{EitherBody, MessageBody};
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::error::PayloadError;
use actix_web::http::StatusCode;
use actix_web::http::header::CONTENT_TYPE;
use actix_web::middleware::Next;

use crate::{envelope, upload};

/// `data.reason` of a body beyond `http.max_body_bytes`.
pub const BODY_TOO_LARGE: &str = "body_too_large";

/// The largest body of a route that is not an upload, bytes.
#[derive(Debug, Clone, Copy)]
pub struct BodyLimit(pub u64);

/// The refusal of a body beyond `limit` bytes.
pub fn too_large(limit: u64) -> HttpResponse {
    let data = serde_json::json!({ "reason": BODY_TOO_LARGE, "limitBytes": limit });
    let desc = format!("request body too large: at most {limit} bytes (http.max_body_bytes)");
    envelope::refused(StatusCode::PAYLOAD_TOO_LARGE, data, &desc)
}

/// Refuses a non-multipart request announcing more than the limit before it is read, and answers
/// a body the route's extractor found too long (actix's plain-text 413) in the envelope.
pub async fn bounded<B: MessageBody + 'static>(
    req: ServiceRequest,
    next: Next<B>,
) -> Result<ServiceResponse<EitherBody<B>>, actix_web::Error> {
    let limit = req.app_data::<actix_web::web::Data<BodyLimit>>().map(|l| l.0);
    let Some(limit) = limit else {
        return Ok(next.call(req).await?.map_into_left_body());
    };
    let multipart = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .is_some_and(|ct| ct.trim_start().to_ascii_lowercase().starts_with("multipart/"));
    if !multipart && upload::announced(req.request()).is_some_and(|n| n > limit) {
        return Ok(req.into_response(too_large(limit)).map_into_right_body());
    }
    let res = next.call(req).await?;
    // The body extractor's overflow is answered as actix writes it (plain text): replace it. A
    // route's own refusals (an upload's `file_too_large`) are envelopes already and stay.
    let overflowed = res
        .response()
        .error()
        .and_then(|e| e.as_error::<PayloadError>())
        .is_some_and(|e| matches!(e, PayloadError::Overflow));
    if overflowed {
        let (req, _) = res.into_parts();
        return Ok(ServiceResponse::new(req, too_large(limit)).map_into_right_body());
    }
    Ok(res.map_into_left_body())
}
