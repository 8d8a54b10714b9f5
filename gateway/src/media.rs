//! Rendered videos, covers and material files for the browser: streamed from the blob store with
//! HTTP ranges, to the owner, who authenticates with the usual headers or with a media ticket (a
//! short-lived HS256 token bound to tenant, user and one task or one material: `<video src>`,
//! `<img src>` and links cannot send headers). Tickets are accepted only by the download, cover
//! and material file routes. A ticket stops working at once when its user signs out or is disabled
//! ([`refuse_revoked_tickets`], reading `reelforge_kit::revocation` before any route runs).

use std::ops::Range;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};
use actix_web::body::MessageBody;
use actix_web::dev::{ServiceRequest, ServiceResponse};
use actix_web::middleware::Next;
use actix_web::web;
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use reelforge_kit::revocation::{self, Revocations};
use reelforge_kit::{BlobError, BlobStore};
use serde::{Deserialize, Serialize};

use crate::ApiError;

/// Seconds a media ticket stays valid.
pub const TICKET_SECONDS: u64 = 600;
/// Seconds a material file ticket stays valid: the library's signed URLs sit in an editor page
/// for a working session, and a ticket reads only that one material's files.
pub const MATERIAL_TICKET_SECONDS: u64 = 6 * 3600;
const AUDIENCE: &str = "reelforge-media";
// A ticket revocation must outlive every ticket it revokes.
const _: () = assert!(MATERIAL_TICKET_SECONDS <= revocation::TICKET_MAX_SECONDS && TICKET_SECONDS <= revocation::TICKET_MAX_SECONDS);

/// The blob store, the ticket key and the revocations tickets are checked against, and the cache
/// uploads in parts are kept one sender at a time through.
#[derive(Clone)]
pub struct Media {
    blob: BlobStore,
    encoding: EncodingKey,
    decoding: DecodingKey,
    revocations: Revocations,
    cache: std::sync::Arc<dyn reelforge_kit::Cache>,
}

#[derive(Serialize, Deserialize)]
struct Ticket {
    sub: String,
    tenant: String,
    /// The task, for a task ticket.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    task: Option<i64>,
    /// The material id, for a material ticket.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    material: Option<String>,
    /// What a preview ticket shows (a template's preview, a contest entry's work) and its keys.
    #[serde(default, skip_serializing_if = "Option::is_none")]
    preview: Option<Preview>,
    /// When it was given, ms since the epoch: a sign-out after it ends it.
    #[serde(default)]
    issued_ms: u64,
    exp: u64,
    aud: String,
}

/// What a preview ticket grants: the video and cover of one template or one contest entry, whose
/// keys the gateway read from the task service when it signed the ticket for a viewer allowed to
/// see them.
#[derive(Serialize, Deserialize, Debug, Clone, PartialEq, Eq)]
pub struct Preview {
    /// What is shown.
    pub of: PreviewOf,
    /// The template's or the entry's id.
    pub id: i64,
    /// Storage key of the video.
    pub video: String,
    /// Storage key of the cover.
    pub cover: String,
}

/// What a preview shows.
#[derive(Serialize, Deserialize, Debug, Clone, Copy, PartialEq, Eq)]
pub enum PreviewOf {
    /// A template's preview.
    Template,
    /// The work entered in a contest.
    ContestEntry,
    /// A sample work of a marketplace service (by the work's task id).
    ServiceSample,
    /// A work or material shared with an enterprise (by the share's id).
    EnterpriseShare,
}

impl PreviewOf {
    /// Its name in messages.
    pub fn name(self) -> &'static str {
        match self {
            Self::Template => "template",
            Self::ContestEntry => "entry",
            Self::ServiceSample => "sample",
            Self::EnterpriseShare => "share",
        }
    }
}

impl Media {
    /// Serves objects of `blob`, signing tickets with `secret`, ending them as `revocations` say;
    /// `cache` is the deployment's (shared by every gateway replica).
    pub fn new(blob: BlobStore, secret: &[u8], revocations: Revocations, cache: std::sync::Arc<dyn reelforge_kit::Cache>) -> Self {
        let _ = jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER.install_default();
        Self {
            blob,
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
            revocations,
            cache,
        }
    }

    /// Whether a ticket that verifies was ended since it was given (its user signed out or was
    /// disabled); a ticket that does not verify is not this check's to refuse.
    pub async fn revoked(&self, ticket: &str) -> Result<bool, ApiError> {
        let Ok(t) = self.decode(ticket) else { return Ok(false) };
        self.revocations.ticket_revoked(&t.tenant, &t.sub, t.issued_ms).await.map_err(|e| {
            tracing::error!(error = %e, "revocations unreadable: media ticket refused");
            ApiError::NotAvailable("the sign-in check")
        })
    }

    /// A ticket for `user_id` of `tenant` to read the media of `task_id`.
    pub fn ticket(&self, tenant: &str, user_id: &str, task_id: i64) -> Result<String, ApiError> {
        self.sign(Ticket {
            sub: user_id.to_owned(),
            tenant: tenant.to_owned(),
            task: Some(task_id),
            material: None,
            preview: None,
            issued_ms: revocation::now_ms(),
            exp: jsonwebtoken::get_current_timestamp().saturating_add(TICKET_SECONDS),
            aud: AUDIENCE.to_owned(),
        })
    }

    /// A ticket for `user_id` of `tenant` to read the files of material `id`.
    pub fn material_ticket(&self, tenant: &str, user_id: &str, id: &str) -> Result<String, ApiError> {
        self.sign(Ticket {
            sub: user_id.to_owned(),
            tenant: tenant.to_owned(),
            task: None,
            material: Some(id.to_owned()),
            preview: None,
            issued_ms: revocation::now_ms(),
            exp: jsonwebtoken::get_current_timestamp().saturating_add(MATERIAL_TICKET_SECONDS),
            aud: AUDIENCE.to_owned(),
        })
    }

    /// A ticket for `user_id` of `tenant` to read `preview` (video and cover of one template or
    /// contest entry), signed once the task service let the user see it; as long-lived as a
    /// material's, since a template or contest page sits open as long as an editor.
    pub fn preview_ticket(&self, tenant: &str, user_id: &str, preview: Preview) -> Result<String, ApiError> {
        self.sign(Ticket {
            sub: user_id.to_owned(),
            tenant: tenant.to_owned(),
            task: None,
            material: None,
            preview: Some(preview),
            issued_ms: revocation::now_ms(),
            exp: jsonwebtoken::get_current_timestamp().saturating_add(MATERIAL_TICKET_SECONDS),
            aud: AUDIENCE.to_owned(),
        })
    }

    /// The preview a ticket grants, if it is valid for `tenant` and shows `of` `id` with keys under
    /// the tenant's prefix; else the item reads as one that does not exist (as every id-taking route
    /// answers a stranger), with a hint for an expired address.
    pub fn preview(&self, ticket: &str, tenant: &str, of: PreviewOf, id: i64) -> Result<Preview, ApiError> {
        let refused = || ApiError::BadRequest(format!("{} {id} does not exist, or its preview address expired: list them again", of.name()));
        let t = self.verify(ticket, tenant).map_err(|_| refused())?;
        let prefix = format!("t/{tenant}/");
        match t.preview {
            Some(p)
                if p.of == of
                    && p.id == id
                    && t.task.is_none()
                    && t.material.is_none()
                    && [&p.video, &p.cover].iter().all(|k| k.is_empty() || k.starts_with(&prefix)) =>
            {
                Ok(p)
            }
            _ => Err(refused()),
        }
    }

    fn sign(&self, claims: Ticket) -> Result<String, ApiError> {
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding).map_err(|e| {
            tracing::error!(error = %e, "media ticket not signed");
            ApiError::NotAvailable("media tickets")
        })
    }

    /// The user a ticket stands for, if it is valid for `tenant` and `task_id`; else 'login expired'.
    pub fn ticket_user(&self, ticket: &str, tenant: &str, task_id: i64) -> Result<String, ApiError> {
        let t = self.verify(ticket, tenant)?;
        if t.task != Some(task_id) || t.material.is_some() || t.preview.is_some() {
            return Err(ApiError::LoginExpired);
        }
        Ok(t.sub)
    }

    /// The user a ticket stands for, if it is valid for `tenant` and material `id`; else 'login expired'.
    pub fn material_ticket_user(&self, ticket: &str, tenant: &str, id: &str) -> Result<String, ApiError> {
        let t = self.verify(ticket, tenant)?;
        if t.material.as_deref() != Some(id) || t.task.is_some() || t.preview.is_some() {
            return Err(ApiError::LoginExpired);
        }
        Ok(t.sub)
    }

    /// A ticket's claims once its signature, audience and expiry check out.
    fn decode(&self, ticket: &str) -> Result<Ticket, ApiError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.algorithms = vec![Algorithm::HS256];
        validation.leeway = 5;
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "aud", "sub"]);
        Ok(jsonwebtoken::decode::<Ticket>(ticket, &self.decoding, &validation)
            .map_err(|_| ApiError::LoginExpired)?
            .claims)
    }

    fn verify(&self, ticket: &str, tenant: &str) -> Result<Ticket, ApiError> {
        let t = self.decode(ticket)?;
        if t.tenant != tenant || t.sub.is_empty() {
            return Err(ApiError::LoginExpired);
        }
        Ok(t)
    }

    /// The blob store the media come from.
    pub fn blob(&self) -> &BlobStore {
        &self.blob
    }

    /// The deployment's cache.
    pub fn cache(&self) -> &std::sync::Arc<dyn reelforge_kit::Cache> {
        &self.cache
    }

    /// Answers the object under `key` (or the requested byte range of it, 206).
    pub async fn serve(
        &self,
        req: &HttpRequest,
        key: &str,
        content_type: &str,
        disposition: Option<String>,
    ) -> Result<HttpResponse, ApiError> {
        let missing = |e: BlobError| match e {
            BlobError::NotFound(_) => {
                ApiError::BadRequest("the file is no longer in storage".into())
            }
            other => {
                tracing::error!(error = %other, "media read failed");
                ApiError::NotAvailable("the file")
            }
        };
        let size = self.blob.size(key).await.map_err(missing)?;
        let asked = req
            .headers()
            .get(header::RANGE)
            .and_then(|v| v.to_str().ok());
        let range = match asked.map(|r| byte_range(r, size)) {
            None => None,
            Some(Some(r)) => Some(r),
            Some(None) => {
                return Ok(HttpResponse::RangeNotSatisfiable()
                    .insert_header((header::CONTENT_RANGE, format!("bytes */{size}")))
                    .finish());
            }
        };
        let mut res = match &range {
            Some(r) => {
                let mut res = HttpResponse::PartialContent();
                res.insert_header((
                    header::CONTENT_RANGE,
                    format!("bytes {}-{}/{size}", r.start, r.end - 1),
                ));
                res
            }
            None => HttpResponse::Ok(),
        };
        res.content_type(content_type)
            .insert_header((header::ACCEPT_RANGES, "bytes"));
        if let Some(d) = disposition {
            res.insert_header((header::CONTENT_DISPOSITION, d));
        }
        // Streamed, so a large original never sits whole in the gateway's memory.
        let range = range.unwrap_or(0..size);
        let length = range.end - range.start;
        let body = self.blob.stream(key, range).await.map_err(missing)?;
        Ok(res.no_chunking(length).streaming(body))
    }
}

/// Refuses a request carrying a media ticket (`?ticket=`) that was ended since it was given (its
/// user signed out or is disabled) with 'login expired', before the route runs; the route still
/// checks what the ticket grants.
pub async fn refuse_revoked_tickets(
    req: ServiceRequest,
    next: Next<impl MessageBody + 'static>,
) -> Result<ServiceResponse<impl MessageBody>, actix_web::Error> {
    let ticket = web::Query::<std::collections::HashMap<String, String>>::from_query(req.query_string())
        .ok()
        .and_then(|q| q.get("ticket").filter(|t| !t.is_empty()).cloned());
    if let Some(ticket) = ticket
        && let Some(media) = req.app_data::<web::Data<crate::AppState>>().and_then(|s| s.media.clone())
    {
        let refused = match media.revoked(&ticket).await {
            Ok(false) => None,
            Ok(true) => Some(ApiError::LoginExpired),
            Err(e) => Some(e),
        };
        if let Some(e) = refused {
            let res = actix_web::ResponseError::error_response(&e);
            return Ok(req.into_response(res).map_into_right_body());
        }
    }
    Ok(next.call(req).await?.map_into_left_body())
}

/// The one byte range of a `Range: bytes=…` header within `size`; `None` when unsatisfiable.
fn byte_range(header: &str, size: u64) -> Option<Range<u64>> {
    let spec = header.trim().strip_prefix("bytes=")?;
    if spec.contains(',') || size == 0 {
        return None;
    }
    let (a, b) = spec.split_once('-')?;
    let (a, b) = (a.trim(), b.trim());
    let range = if a.is_empty() {
        let n: u64 = b.parse().ok()?;
        size.saturating_sub(n)..size
    } else {
        let start: u64 = a.parse().ok()?;
        let end = if b.is_empty() {
            size - 1
        } else {
            b.parse::<u64>().ok()?.min(size - 1)
        };
        if start > end {
            return None;
        }
        start..end + 1
    };
    (range.start < size && !range.is_empty()).then_some(range)
}

/// A `Content-Disposition: attachment` for `name` (RFC 6266): an ASCII fallback with anything
/// outside letters, digits, `-`, `_` and `.` replaced, and the full name UTF-8 percent-encoded.
pub fn attachment(name: &str, ext: &str) -> String {
    disposition("attachment", name, ext)
}

/// A `Content-Disposition: inline` naming the file `name` as [`attachment`] does: the browser
/// shows it, and saves it under that safe name.
pub fn inline(name: &str, ext: &str) -> String {
    disposition("inline", name, ext)
}

fn disposition(kind: &str, name: &str, ext: &str) -> String {
    let name: String = name
        .chars()
        .filter(|c| !c.is_control() && !matches!(c, '/' | '\\'))
        .collect();
    let name = name.trim();
    let name = if name.is_empty() { "video" } else { name };
    let ascii: String = name
        .chars()
        .map(|c| {
            if c.is_ascii_alphanumeric() || matches!(c, '-' | '_' | '.') {
                c
            } else {
                '_'
            }
        })
        .collect();
    let encoded: String = format!("{name}.{ext}")
        .bytes()
        .map(|b| {
            if b.is_ascii_alphanumeric() || matches!(b, b'-' | b'_' | b'.' | b'~') {
                (b as char).to_string()
            } else {
                format!("%{b:02X}")
            }
        })
        .collect();
    format!("{kind}; filename=\"{ascii}.{ext}\"; filename*=UTF-8''{encoded}")
}

#[cfg(test)]
mod tests {
    use super::{Revocations, attachment, byte_range, inline};

    #[test]
    fn ranges() {
        assert_eq!(byte_range("bytes=0-99", 1000), Some(0..100));
        assert_eq!(byte_range("bytes=900-", 1000), Some(900..1000));
        assert_eq!(byte_range("bytes=-100", 1000), Some(900..1000));
        assert_eq!(byte_range("bytes=990-2000", 1000), Some(990..1000));
        assert_eq!(byte_range("bytes=1000-", 1000), None);
        assert_eq!(byte_range("bytes=5-1", 1000), None);
        assert_eq!(byte_range("bytes=0-1,5-6", 1000), None);
        assert_eq!(byte_range("items=0-1", 1000), None);
    }

    #[test]
    fn tickets_open_only_what_they_name() -> Result<(), Box<dyn std::error::Error>> {
        let dir = std::env::temp_dir().join(format!("media-{}", uuid::Uuid::new_v4().simple()));
        let blob = reelforge_kit::BlobStore::open(&format!("fs://{}", dir.display()))?;
        let cache: std::sync::Arc<dyn reelforge_kit::Cache> = std::sync::Arc::new(reelforge_kit::cache::MemoryCache::default());
        let media = super::Media::new(blob, b"0123456789abcdef0123456789abcdef", Revocations::new(cache.clone()), cache);
        let task = media.ticket("qs", "a@x.cn", 7)?;
        let material = media.material_ticket("qs", "a@x.cn", "m1")?;
        assert_eq!(media.ticket_user(&task, "qs", 7)?, "a@x.cn");
        assert_eq!(media.material_ticket_user(&material, "qs", "m1")?, "a@x.cn");
        assert!(media.ticket_user(&task, "qs", 8).is_err());
        assert!(media.ticket_user(&task, "cc", 7).is_err());
        assert!(media.material_ticket_user(&material, "qs", "m2").is_err());
        assert!(media.material_ticket_user(&task, "qs", "7").is_err(), "a task ticket opens no material");
        assert!(media.ticket_user(&material, "qs", 0).is_err(), "a material ticket opens no task");
        Ok(())
    }

    #[test]
    fn file_names_are_safe() {
        assert_eq!(
            attachment("促销 \"a\"/..\\b\r\n", "mp4"),
            "attachment; filename=\"____a_..b.mp4\"; filename*=UTF-8''%E4%BF%83%E9%94%80%20%22a%22..b.mp4"
        );
        assert_eq!(
            attachment("  ", "jpg"),
            "attachment; filename=\"video.jpg\"; filename*=UTF-8''video.jpg"
        );
        assert_eq!(
            inline("%2e%2e%2f\0/etc/passwd", "png"),
            "inline; filename=\"_2e_2e_2fetcpasswd.png\"; filename*=UTF-8''%252e%252e%252fetcpasswd.png"
        );
    }
}
