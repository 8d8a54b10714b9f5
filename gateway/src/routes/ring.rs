//! Video ringtones (docs/ringtone.md): the caller's delivery profile and the checks against it,
//! whether a number may receive a ringtone, the copyright proof upload, ring orders (save, upload,
//! cancel, lists), and the signed file URLs a carrier's ring platform fetches videos from. The ring
//! service's refusals carry a stable reason, answered here once as `data.reason` (and a profile
//! refusal's `data.violations`) in failure 3000.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, ResponseError, web};
use futures::StreamExt;
use reelforge_kit::status::{REASON_METADATA, VIOLATIONS_METADATA};
use reelforge_proto::common::Empty;
use reelforge_proto::ring as pb;
use serde::{Deserialize, Serialize};

use crate::upload::{self, Refusal, UploadError};
use crate::{ApiError, AppState, body, caller, envelope};

/// The reasons of docs/ringtone.md the ring service refuses with.
const REASONS: &[&str] = &[
    "phone_invalid",
    "phone_not_joined",
    "copyright_missing",
    "task_not_finished",
    "task_not_found",
    "profile_violation",
    "order_not_found",
    "order_state",
    "nothing_to_fix",
    "not_fixable",
    "fix_not_found",
    "fix_not_finished",
];

/// Seconds the signed cover and proof URLs of an answer stay valid.
const VIEW_URL_SECONDS: u64 = 3600;

/// The largest copyright proof, in bytes.
pub const COPYRIGHT_MAX_BYTES: u64 = 5 * 1024 * 1024;

/// A failed ring call: a refusal with its reason, or any other failure.
#[derive(Debug, thiserror::Error)]
pub enum RingApiError {
    /// The ring service refused; the envelope carries the reason.
    #[error("{desc}")]
    Refused {
        /// The stable reason.
        reason: &'static str,
        /// The message.
        desc: String,
        /// A profile refusal's violations.
        violations: Option<serde_json::Value>,
    },
    /// Anything else.
    #[error(transparent)]
    Api(#[from] ApiError),
}

impl From<tonic::Status> for RingApiError {
    fn from(s: tonic::Status) -> Self {
        let reason = s
            .metadata()
            .get(REASON_METADATA)
            .and_then(|v| v.to_str().ok())
            .and_then(|r| REASONS.iter().find(|k| **k == r));
        match reason {
            Some(reason) => {
                let violations = s
                    .metadata()
                    .get_bin(VIOLATIONS_METADATA)
                    .and_then(|v| v.to_bytes().ok())
                    .and_then(|b| serde_json::from_slice(&b).ok());
                Self::Refused {
                    reason,
                    desc: s.message().to_owned(),
                    violations,
                }
            }
            None => Self::Api(ApiError::Service(s)),
        }
    }
}

impl ResponseError for RingApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::Refused { .. } => StatusCode::OK,
            Self::Api(e) => e.status_code(),
        }
    }

    fn error_response(&self) -> HttpResponse {
        match self {
            Self::Refused {
                reason,
                desc,
                violations,
            } => {
                let mut data = serde_json::Map::new();
                data.insert("reason".into(), (*reason).into());
                if let Some(v) = violations {
                    data.insert("violations".into(), v.clone());
                }
                envelope::refused(StatusCode::OK, serde_json::Value::Object(data), desc)
            }
            Self::Api(e) => e.error_response(),
        }
    }
}

type Answer = Result<HttpResponse, RingApiError>;

/// A JSON document the ring service answered, as `data`.
fn document(doc: pb::JsonDocument) -> Answer {
    let value: serde_json::Value = serde_json::from_str(&doc.json)
        .map_err(|e| ApiError::Service(tonic::Status::internal(e.to_string())))?;
    Ok(envelope::ok(value))
}

fn now_seconds() -> u64 {
    u64::try_from(chrono::Utc::now().timestamp()).unwrap_or(0)
}

/// A signed URL of a stored object, valid for an hour; empty when there is none.
fn view_url(state: &AppState, key: &str) -> String {
    if key.is_empty() {
        return String::new();
    }
    reelforge_kit::signed::url(&state.keys, "", key, now_seconds() + VIEW_URL_SECONDS)
        .unwrap_or_default()
}

/// The caller's variant profile.
#[utoipa::path(get, path = "/diyvrbt/ring/profile", responses((status = 200, description = "the profile of docs/ringtone.md")))]
pub async fn profile(req: HttpRequest, state: web::Data<AppState>) -> Answer {
    let caller = caller::caller(&req, &state).await?;
    document(
        state
            .clients
            .ring
            .clone()
            .profile(caller.request(Empty {})?)
            .await?
            .into_inner(),
    )
}

/// Body of precheck: the editor's document size and length.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct PrecheckBody {
    width: u32,
    height: u32,
    seconds: f64,
}

/// The rules a document decides (size, orientation, duration): `{conforms, violations}`.
#[utoipa::path(post, path = "/diyvrbt/ring/precheck", request_body = PrecheckBody, responses((status = 200)))]
pub async fn precheck(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Answer {
    let b: PrecheckBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let msg = pb::PrecheckRequest {
        width: b.width,
        height: b.height,
        seconds: b.seconds,
    };
    document(
        state
            .clients
            .ring
            .clone()
            .precheck(caller.request(msg)?)
            .await?
            .into_inner(),
    )
}

/// A body naming a task.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskBody {
    task_id: i64,
    /// A finished one-click fix of the task (`/ring/fix`'s `fixId`): its output is checked.
    #[serde(default)]
    fix_id: Option<i64>,
}

/// The answer of `/ring/fix`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FixDto {
    /// The RING_FIX run's task id: its progress is `/videotask/events?taskId=`.
    fix_id: String,
    job_id: String,
}

/// The one-click fix: a RING_FIX run of the farm re-encodes the task's video to the caller's
/// profile (the profile as the server reads it). Refused with `nothing_to_fix` when the video
/// conforms, `not_fixable` when a broken rule is not one a re-encode mends.
#[utoipa::path(post, path = "/diyvrbt/ring/fix", request_body = TaskBody, responses((status = 200, body = FixDto)))]
pub async fn fix(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Answer {
    let b: TaskBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state
        .clients
        .ring
        .clone()
        .fix(caller.request(pb::TaskRequest { task_id: b.task_id, fix_id: 0 })?)
        .await?
        .into_inner();
    Ok(envelope::ok(FixDto { fix_id: r.fix_id.to_string(), job_id: r.job_id }))
}

/// The finished video of one of the caller's tasks measured against the profile: the report.
#[utoipa::path(post, path = "/diyvrbt/ring/check", request_body = TaskBody, responses((status = 200)))]
pub async fn check(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Answer {
    let b: TaskBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    document(
        state
            .clients
            .ring
            .clone()
            .check(caller.request(pb::TaskRequest { task_id: b.task_id, fix_id: b.fix_id.unwrap_or_default() })?)
            .await?
            .into_inner(),
    )
}

/// Body of ifdownloadbyphone.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct PhoneBody {
    phone: String,
}

/// Whether a number may receive a video ringtone.
#[derive(Serialize, utoipa::ToSchema)]
pub struct PhoneDto {
    phone: String,
    allowed: bool,
    /// 0, or −2 (NOTJOIN) when the number has no video-ringtone service.
    state: i32,
    reason: String,
}

/// Whether the number may receive a video ringtone (−2 NOTJOIN when it has no service).
#[utoipa::path(post, path = "/diyvrbt/material/v2/ifdownloadbyphone", request_body = PhoneBody, responses((status = 200, body = PhoneDto)))]
pub async fn if_download_by_phone(
    req: HttpRequest,
    bytes: web::Bytes,
    state: web::Data<AppState>,
) -> Answer {
    let b: PhoneBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let a = state
        .clients
        .ring
        .clone()
        .if_download_by_phone(caller.request(pb::PhoneRequest { phone: b.phone })?)
        .await?
        .into_inner();
    Ok(envelope::ok(PhoneDto {
        phone: a.phone,
        allowed: a.allowed,
        state: a.state,
        reason: a.reason,
    }))
}

/// A ring order as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderDto {
    id: i64,
    task_id: i64,
    task_name: String,
    /// A signed URL of the task's cover (an hour).
    cover: String,
    /// Masked (`138****8000`) in lists.
    phone: String,
    /// NOTJOIN −2, ERROR −1, NOTSET 0, SUCCESS 1, SETTING 2, CANCEL_SETTING 3.
    state: i32,
    reason: String,
    platform_ref: String,
    attempts: u32,
    created_at: String,
    updated_at: String,
}

fn time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| {
            t.with_timezone(&chrono::Local)
                .format("%Y-%m-%d %H:%M:%S")
                .to_string()
        })
        .unwrap_or_default()
}

fn order_dto(o: pb::Order, state: &AppState) -> OrderDto {
    OrderDto {
        id: o.id,
        task_id: o.task_id,
        task_name: o.task_name,
        cover: view_url(state, &o.cover_key),
        phone: o.phone,
        state: o.state,
        reason: o.reason,
        platform_ref: o.platform_ref,
        attempts: o.attempts,
        created_at: time(o.created_ms),
        updated_at: time(o.updated_ms),
    }
}

/// Body of saveRing.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SaveRingBody {
    task_id: i64,
    phone: String,
    #[serde(default)]
    copyright_agreed: bool,
    #[serde(default)]
    copyright_id: Option<String>,
    /// A finished one-click fix of the task: the order delivers its output.
    #[serde(default)]
    fix_id: Option<i64>,
}

/// Records a ring order (state 0 NOTSET); the same task and phone with a live order answers it.
#[utoipa::path(post, path = "/diyvrbt/platform/saveRing", request_body = SaveRingBody, responses((status = 200, body = OrderDto)))]
pub async fn save_ring(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Answer {
    let b: SaveRingBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let msg = pb::SaveRingRequest {
        task_id: b.task_id,
        phone: b.phone,
        copyright_agreed: b.copyright_agreed,
        copyright_id: b.copyright_id.unwrap_or_default(),
        fix_id: b.fix_id.unwrap_or_default(),
    };
    let o = state
        .clients
        .ring
        .clone()
        .save_ring(caller.request(msg)?)
        .await?
        .into_inner();
    Ok(envelope::ok(order_dto(o, &state)))
}

/// A body naming an order.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderBody {
    order_id: i64,
}

/// Queues the order's delivery to the ring platform (state 2 SETTING).
#[utoipa::path(post, path = "/diyvrbt/material/ringUpload", request_body = OrderBody, responses((status = 200, body = OrderDto)))]
pub async fn ring_upload(
    req: HttpRequest,
    bytes: web::Bytes,
    state: web::Data<AppState>,
) -> Answer {
    let b: OrderBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let o = state
        .clients
        .ring
        .clone()
        .ring_upload(caller.request(pb::OrderRequest {
            order_id: b.order_id,
        })?)
        .await?
        .into_inner();
    Ok(envelope::ok_with(order_dto(o, &state), "已提交,等待设置"))
}

/// Cancels a set ring (state 3 CANCEL_SETTING); the platform is told.
#[utoipa::path(post, path = "/diyvrbt/ring/cancel", request_body = OrderBody, responses((status = 200, body = OrderDto)))]
pub async fn cancel(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Answer {
    let b: OrderBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let o = state
        .clients
        .ring
        .clone()
        .cancel(caller.request(pb::OrderRequest {
            order_id: b.order_id,
        })?)
        .await?
        .into_inner();
    Ok(envelope::ok(order_dto(o, &state)))
}

/// Query of the order lists.
#[derive(Deserialize, utoipa::IntoParams)]
pub struct OrdersQuery {
    /// From 1.
    #[serde(default)]
    page: u32,
    /// 1 to 100 (20 when absent).
    #[serde(default)]
    size: u32,
    /// Only orders in this state.
    state: Option<i32>,
}

impl OrdersQuery {
    /// The ring service's list request, for one's own orders and the tenant's alike.
    fn request(&self) -> pb::ListOrdersRequest {
        pb::ListOrdersRequest { page: self.page, size: self.size, state: self.state }
    }
}

/// A page of orders.
#[derive(Serialize, utoipa::ToSchema)]
pub struct OrderPage {
    total: u64,
    list: Vec<OrderDto>,
}

fn page_of(p: pb::OrderPage, state: &AppState) -> OrderPage {
    OrderPage {
        total: p.total,
        list: p.list.into_iter().map(|o| order_dto(o, state)).collect(),
    }
}

/// The caller's orders, newest first ("my ringtones").
#[utoipa::path(get, path = "/diyvrbt/ring/orders", params(OrdersQuery), responses((status = 200, body = OrderPage)))]
pub async fn orders(
    req: HttpRequest,
    q: web::Query<OrdersQuery>,
    state: web::Data<AppState>,
) -> Answer {
    let caller = caller::caller(&req, &state).await?;
    let p = state
        .clients
        .ring
        .clone()
        .list_orders(caller.request(q.request())?)
        .await?
        .into_inner();
    Ok(envelope::ok(page_of(p, &state)))
}

/// The tenant's orders, newest first (TEMPLATE_MANAGER only).
#[utoipa::path(get, path = "/diyvrbt/manage/ring/orders", params(OrdersQuery), responses((status = 200, body = OrderPage)))]
pub async fn tenant_orders(
    req: HttpRequest,
    q: web::Query<OrdersQuery>,
    state: web::Data<AppState>,
) -> Answer {
    let caller = caller::caller(&req, &state).await?;
    let p = state
        .clients
        .ring
        .clone()
        .list_tenant_orders(caller.request(q.request())?)
        .await?
        .into_inner();
    Ok(envelope::ok(page_of(p, &state)))
}

/// A stored copyright proof.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CopyrightDto {
    id: String,
    name: String,
    /// A signed URL of the file (an hour).
    url: String,
}

/// The kind of a proof by its first bytes and its extension: `jpeg`, `png` or `pdf`.
fn proof_format(name: &str, head: &[u8]) -> Option<&'static str> {
    let ext = upload::extension(name)?;
    match ext.as_str() {
        "jpg" | "jpeg" if head.starts_with(&[0xff, 0xd8, 0xff]) => Some("jpeg"),
        "png" if head.starts_with(b"\x89PNG\r\n\x1a\n") => Some("png"),
        "pdf" if head.starts_with(b"%PDF-") => Some("pdf"),
        _ => None,
    }
}

/// Whether a PDF ends as one: `%%EOF` within its last 1 KiB (trailing line ends and padding allowed).
fn pdf_complete(bytes: &[u8]) -> bool {
    let tail = &bytes[bytes.len().saturating_sub(1024)..];
    tail.windows(5).any(|w| w == b"%%EOF")
}

fn refused(reason: &'static str, desc: &str) -> UploadError {
    Refusal::new(reason, desc).into()
}

/// Uploads a copyright proof: a multipart `file`, a JPEG or PNG picture or a PDF (a `%PDF-` header
/// and an `%%EOF` trailer), at most 5 MiB; stored under the caller's copyright prefix.
#[utoipa::path(post, path = "/diyvrbt/upload/copyright", responses((status = 200, body = CopyrightDto), (status = 413, description = "the announced body is larger than the route takes")))]
pub async fn upload_copyright(
    req: HttpRequest,
    payload: web::Payload,
    state: web::Data<AppState>,
) -> Result<HttpResponse, UploadError> {
    upload::within(&req, COPYRIGHT_MAX_BYTES + upload::FORM_SLACK)?;
    let caller = caller::caller(&req, &state).await?;
    let user = caller.user()?.user_id.clone();
    let media = state
        .media
        .as_ref()
        .ok_or(ApiError::NotAvailable("storing uploads"))?;
    let mut form = upload::form(&req, payload)?;
    let mut stored = None;
    while let Some(field) = form.next().await {
        let mut field = field.map_err(|e| ApiError::BadRequest(format!("body: {e}")))?;
        if field.name() != Some("file") || stored.is_some() {
            while let Some(chunk) = field.next().await {
                chunk.map_err(|e| ApiError::BadRequest(format!("body: {e}")))?;
            }
            continue;
        }
        let name = field
            .content_disposition()
            .and_then(|d| d.get_filename())
            .unwrap_or_default()
            .to_owned();
        // At most 5 MiB: read whole, so the PDF's trailer can be checked before anything is stored.
        let mut bytes = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|e| ApiError::BadRequest(format!("file: {e}")))?;
            if (bytes.len() + chunk.len()) as u64 > COPYRIGHT_MAX_BYTES {
                // Refused at once, the rest unread: draining a part that is still held kept the
                // parser busy without end.
                return Err(refused(
                    upload::FILE_TOO_LARGE,
                    "file too large: a copyright proof is at most 5 MB",
                ));
            }
            bytes.extend_from_slice(&chunk);
        }
        stored = Some((name, bytes));
    }
    let (name, bytes) = stored.ok_or_else(|| {
        refused(
            upload::UNSUPPORTED_FILE_TYPE,
            "file: a JPEG or PNG picture or a PDF is required",
        )
    })?;
    let format = proof_format(&name, &bytes).ok_or_else(|| {
        refused(
            upload::UNSUPPORTED_FILE_TYPE,
            "file: a JPEG or PNG picture or a PDF is required",
        )
    })?;
    if format == "pdf" && !pdf_complete(&bytes) {
        return Err(refused(
            upload::UNREADABLE_FILE,
            "file: the PDF has no %%EOF trailer (cut short?)",
        ));
    }
    let id = uuid::Uuid::new_v4().to_string();
    let ext = if format == "jpeg" { "jpg" } else { format };
    let key = format!(
        "{}{id}/original.{ext}",
        reelforge_kit::blob::user_copyright_prefix(&caller.tenant, &user)
    );
    let size = bytes.len() as u64;
    media.blob().put(&key, bytes).await.map_err(|e| {
        tracing::error!(error = %e, "copyright proof not stored");
        ApiError::NotAvailable("storing uploads")
    })?;
    let record = pb::CopyrightRecord {
        id,
        name,
        key: key.clone(),
        format: format.to_owned(),
        bytes: size,
    };
    let recorded = match state
        .clients
        .ring
        .clone()
        .record_copyright(caller.request(record)?)
        .await
    {
        Ok(r) => r.into_inner(),
        Err(s) => {
            // Nothing half-kept: an object no proof names is removed.
            if let Err(e) = media.blob().delete(&key).await {
                tracing::error!(%key, error = %e, "unrecorded copyright proof not removed");
            }
            return Err(ApiError::Service(s).into());
        }
    };
    Ok(envelope::ok(CopyrightDto {
        url: view_url(&state, &recorded.key),
        id: recorded.id,
        name: recorded.name,
    }))
}

/// Query of a signed file URL.
#[derive(Deserialize, utoipa::IntoParams)]
pub struct FileQuery {
    /// The storage key.
    key: String,
    /// Expiry, seconds since the epoch.
    exp: u64,
    /// The signature.
    sig: String,
}

/// A stored video, cover or proof by a signed URL (deliveries to a carrier's ring platform, covers
/// and proofs in answers): no sign-in, the signature is the grant; ranges are served.
#[utoipa::path(get, path = "/diyvrbt/ring/file", params(FileQuery), responses((status = 200), (status = 404)))]
pub async fn file(
    req: HttpRequest,
    q: web::Query<FileQuery>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    if !reelforge_kit::signed::verify(&state.keys, &q.key, q.exp, &q.sig, now_seconds()) {
        return Err(ApiError::NotFound);
    }
    let media = state
        .media
        .as_ref()
        .ok_or(ApiError::NotAvailable("media"))?;
    let content_type = match q.key.rsplit('.').next() {
        Some("mp4") => "video/mp4",
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("png") => "image/png",
        Some("pdf") => "application/pdf",
        _ => "application/octet-stream",
    };
    media.serve(&req, &q.key, content_type, None).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn proofs_by_magic_and_extension() {
        assert_eq!(proof_format("a.PDF", b"%PDF-1.7\n"), Some("pdf"));
        assert_eq!(
            proof_format("a.jpg", &[0xff, 0xd8, 0xff, 0xe0]),
            Some("jpeg")
        );
        assert_eq!(proof_format("a.png", b"\x89PNG\r\n\x1a\n...."), Some("png"));
        assert_eq!(
            proof_format("a.pdf", b"\x89PNG\r\n\x1a\n"),
            None,
            "the bytes must agree with the name"
        );
        assert_eq!(proof_format("a.gif", b"GIF89a"), None);
        assert!(pdf_complete(b"%PDF-1.4\n...\n%%EOF\n"));
        assert!(!pdf_complete(b"%PDF-1.4\n... cut"));
    }
}
