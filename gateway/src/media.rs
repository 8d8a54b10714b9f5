//! Rendered videos and covers for the browser: streamed from the blob store with HTTP ranges, to
//! the task's owner, who authenticates with the usual headers or with a media ticket (a short-lived
//! HS256 token bound to tenant, user and one task: `<video src>`, `<img src>` and links cannot send
//! headers). Tickets are accepted only by the download and cover routes.

use std::ops::Range;

use actix_web::http::header;
use actix_web::{HttpRequest, HttpResponse};
use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use reelforge_kit::{BlobError, BlobStore};
use serde::{Deserialize, Serialize};

use crate::ApiError;

/// Seconds a media ticket stays valid.
pub const TICKET_SECONDS: u64 = 600;
const AUDIENCE: &str = "reelforge-media";

/// The blob store and the ticket key.
#[derive(Clone)]
pub struct Media {
    blob: BlobStore,
    encoding: EncodingKey,
    decoding: DecodingKey,
}

#[derive(Serialize, Deserialize)]
struct Ticket {
    sub: String,
    tenant: String,
    task: i64,
    exp: u64,
    aud: String,
}

impl Media {
    /// Serves objects of `blob`, signing tickets with `secret`.
    pub fn new(blob: BlobStore, secret: &[u8]) -> Self {
        let _ = jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER.install_default();
        Self {
            blob,
            encoding: EncodingKey::from_secret(secret),
            decoding: DecodingKey::from_secret(secret),
        }
    }

    /// A ticket for `user_id` of `tenant` to read the media of `task_id`.
    pub fn ticket(&self, tenant: &str, user_id: &str, task_id: i64) -> Result<String, ApiError> {
        let claims = Ticket {
            sub: user_id.to_owned(),
            tenant: tenant.to_owned(),
            task: task_id,
            exp: jsonwebtoken::get_current_timestamp().saturating_add(TICKET_SECONDS),
            aud: AUDIENCE.to_owned(),
        };
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), &claims, &self.encoding).map_err(|e| {
            tracing::error!(error = %e, "media ticket not signed");
            ApiError::NotAvailable("media tickets")
        })
    }

    /// The user a ticket stands for, if it is valid for `tenant` and `task_id`; else 'login expired'.
    pub fn ticket_user(&self, ticket: &str, tenant: &str, task_id: i64) -> Result<String, ApiError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.algorithms = vec![Algorithm::HS256];
        validation.leeway = 5;
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "aud", "sub"]);
        let t = jsonwebtoken::decode::<Ticket>(ticket, &self.decoding, &validation)
            .map_err(|_| ApiError::LoginExpired)?
            .claims;
        if t.tenant != tenant || t.task != task_id || t.sub.is_empty() {
            return Err(ApiError::LoginExpired);
        }
        Ok(t.sub)
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
        let bytes = self
            .blob
            .read_range(key, range.unwrap_or(0..size))
            .await
            .map_err(missing)?;
        Ok(res.body(bytes))
    }
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
    format!("attachment; filename=\"{ascii}.{ext}\"; filename*=UTF-8''{encoded}")
}

#[cfg(test)]
mod tests {
    use super::{attachment, byte_range};

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
    fn file_names_are_safe() {
        assert_eq!(
            attachment("促销 \"a\"/..\\b\r\n", "mp4"),
            "attachment; filename=\"____a_..b.mp4\"; filename*=UTF-8''%E4%BF%83%E9%94%80%20%22a%22..b.mp4"
        );
        assert_eq!(
            attachment("  ", "jpg"),
            "attachment; filename=\"video.jpg\"; filename*=UTF-8''video.jpg"
        );
    }
}
