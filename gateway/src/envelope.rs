//! The envelope `{code, data, desc}` and the one place where errors become envelope codes:
//! 2000 success, 3000 failure with a message, 4000 login expired, 4001 role refused. Business
//! failures keep HTTP 200, as the spec's client expects; only an address the gateway does not serve
//! (an unknown host, `/metrics` on the public port, a source map) is HTTP 404, still in the envelope.

use actix_web::http::header::RETRY_AFTER;
use actix_web::{HttpResponse, ResponseError, http::StatusCode};
use reelforge_kit::status::{CHALLENGE_BITS_METADATA, CHALLENGE_METADATA, ErrorKind, REASON_METADATA, RETRY_AFTER_METADATA};
use serde::Serialize;

/// Every answer of the API.
#[derive(Debug, Serialize, utoipa::ToSchema)]
pub struct Envelope<T: Serialize> {
    /// 2000 success, 3000 failure, 4000/4001 login expired.
    pub code: i32,
    /// The payload.
    pub data: T,
    /// A message for people.
    pub desc: String,
}

/// Answers success with `data`.
pub fn ok<T: Serialize>(data: T) -> HttpResponse {
    HttpResponse::Ok().json(Envelope { code: 2000, data, desc: "success".into() })
}

/// Answers success with `data` and a message.
pub fn ok_with<T: Serialize>(data: T, desc: &str) -> HttpResponse {
    HttpResponse::Ok().json(Envelope { code: 2000, data, desc: desc.into() })
}

/// The envelope with members beside the three, which clients that know only the envelope ignore.
#[derive(Serialize)]
struct Extended<T: Serialize, E: Serialize> {
    #[serde(flatten)]
    envelope: Envelope<T>,
    #[serde(flatten)]
    extra: E,
}

/// Answers success with `data`, a message and the members of `extra` beside them (an upload's
/// `uploads`), where the spec fixes what `data` is.
pub fn ok_with_extra<T: Serialize, E: Serialize>(data: T, desc: &str, extra: E) -> HttpResponse {
    HttpResponse::Ok().json(Extended { envelope: Envelope { code: 2000, data, desc: desc.into() }, extra })
}

/// Answers a refused upload: failure 3000 with `data` (its `reason` and details) and a message,
/// under `status` (200, or 413 for a body refused before it is read).
pub fn refused(status: StatusCode, data: serde_json::Value, desc: &str) -> HttpResponse {
    HttpResponse::build(status).json(Envelope { code: 3000, data, desc: desc.into() })
}

/// A failed API call.
#[derive(Debug, thiserror::Error)]
pub enum ApiError {
    /// A service answered with an error status.
    #[error("{}", .0.message())]
    Service(#[from] tonic::Status),
    /// The request itself was wrong; the message names what.
    #[error("{0}")]
    BadRequest(String),
    /// No valid token.
    #[error("登录过期,请重新登录！")]
    LoginExpired,
    /// The feature is not offered yet.
    #[error("{0} is not available yet")]
    NotAvailable(&'static str),
    /// Nothing is served at this address to this caller.
    #[error("not found")]
    NotFound,
}

impl ApiError {
    /// The envelope code.
    pub fn code(&self) -> i32 {
        match self {
            Self::Service(s) => ErrorKind::envelope_code(s.code()),
            Self::LoginExpired => 4000,
            Self::BadRequest(_) | Self::NotAvailable(_) | Self::NotFound => 3000,
        }
    }

    /// The metadata value `key` of a rate-limited call's status.
    fn limited(&self, key: &str) -> Option<&str> {
        match self {
            Self::Service(s) if s.code() == tonic::Code::ResourceExhausted => s.metadata().get(key).and_then(|v| v.to_str().ok()),
            _ => None,
        }
    }

    /// The stable reason of a conflict the client resolves itself (a save based on an older version).
    fn conflict_reason(&self) -> Option<&str> {
        match self {
            Self::Service(s) if s.code() == tonic::Code::FailedPrecondition => {
                s.metadata().get(REASON_METADATA).and_then(|v| v.to_str().ok())
            }
            _ => None,
        }
    }

    /// The wait a rate-limited call was told, from the status's `retry-after` metadata.
    fn retry_after(&self) -> Option<u64> {
        self.limited(RETRY_AFTER_METADATA).and_then(|v| v.parse().ok())
    }

    /// The data of a refusal clients word themselves: its stable `reason`, the wait in
    /// `retryAfterSeconds`, and a proof-of-work `challenge {token, bits}` to solve.
    fn refusal(&self) -> Option<serde_json::Value> {
        let mut data = serde_json::Map::new();
        if let Some(reason) = self.limited(REASON_METADATA).or_else(|| self.conflict_reason()) {
            data.insert("reason".into(), reason.into());
        }
        if let Some(seconds) = self.retry_after() {
            data.insert("retryAfterSeconds".into(), seconds.into());
        }
        let bits = self.limited(CHALLENGE_BITS_METADATA).and_then(|b| b.parse::<u32>().ok());
        if let (Some(token), Some(bits)) = (self.limited(CHALLENGE_METADATA), bits) {
            data.insert("challenge".into(), serde_json::json!({ "token": token, "bits": bits }));
        }
        (!data.is_empty()).then_some(serde_json::Value::Object(data))
    }

    fn desc(&self) -> String {
        match self {
            Self::Service(s) if s.code() == tonic::Code::Unavailable => "service unavailable, please retry later".into(),
            Self::Service(s) if s.code() == tonic::Code::Unauthenticated => "登录过期,请重新登录！".into(),
            other => other.to_string(),
        }
    }
}

impl ResponseError for ApiError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::NotFound => StatusCode::NOT_FOUND,
            _ => StatusCode::OK,
        }
    }

    fn error_response(&self) -> HttpResponse {
        if let Self::Service(s) = self
            && matches!(s.code(), tonic::Code::Unavailable | tonic::Code::Unknown)
        {
            tracing::warn!(status = ?s.code(), message = %s.message(), "service call failed");
        }
        let mut res = HttpResponse::build(self.status_code());
        if let Some(seconds) = self.retry_after() {
            res.insert_header((RETRY_AFTER, seconds.to_string()));
        }
        res.json(Envelope { code: self.code(), data: self.refusal().unwrap_or(serde_json::Value::Null), desc: self.desc() })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use futures::FutureExt;

    #[test]
    fn statuses_map_to_the_spec_codes() {
        let cases = [
            (tonic::Status::invalid_argument("scenes[0].timeLength: below minimum 2"), 3000),
            (tonic::Status::not_found("task 7 does not exist"), 3000),
            (tonic::Status::unauthenticated("bad token"), 4000),
            (tonic::Status::permission_denied("role"), 4001),
            (tonic::Status::internal("internal error"), 3000),
        ];
        for (status, code) in cases {
            assert_eq!(ApiError::Service(status).code(), code);
        }
        assert_eq!(ApiError::LoginExpired.code(), 4000);
        assert_eq!(ApiError::BadRequest("x".into()).code(), 3000);
    }

    #[test]
    fn a_rate_limit_carries_its_wait() -> Result<(), Box<dyn std::error::Error>> {
        let mut s = tonic::Status::resource_exhausted("too many codes asked for; try again in 42 seconds");
        s.metadata_mut().insert(RETRY_AFTER_METADATA, "42".parse()?);
        s.metadata_mut().insert(REASON_METADATA, "rate_limited".parse()?);
        let res = ApiError::Service(s).error_response();
        assert_eq!(res.headers().get(RETRY_AFTER).and_then(|v| v.to_str().ok()), Some("42"));
        let body = actix_web::body::to_bytes(res.into_body()).now_or_never().ok_or("body")?.map_err(|_| "body")?;
        let v: serde_json::Value = serde_json::from_slice(&body)?;
        assert_eq!(v["code"], 3000);
        assert_eq!(v["data"], serde_json::json!({"reason": "rate_limited", "retryAfterSeconds": 42}));
        assert!(v["desc"].as_str().is_some_and(|d| d.contains("42 seconds")));
        Ok(())
    }

    #[test]
    fn a_conflict_carries_its_reason_and_others_carry_none() -> Result<(), Box<dyn std::error::Error>> {
        let data = |s: tonic::Status| -> Result<serde_json::Value, Box<dyn std::error::Error>> {
            let res = ApiError::Service(s).error_response();
            let body = actix_web::body::to_bytes(res.into_body()).now_or_never().ok_or("body")?.map_err(|_| "body")?;
            Ok(serde_json::from_slice::<serde_json::Value>(&body)?["data"].take())
        };
        let mut stale = tonic::Status::failed_precondition("该作品已在别处修改，请刷新后再保存");
        stale.metadata_mut().insert(REASON_METADATA, "stale_version".parse()?);
        assert_eq!(data(stale)?, serde_json::json!({"reason": "stale_version"}));
        assert_eq!(data(tonic::Status::failed_precondition("task 7 is being rendered"))?, serde_json::Value::Null);
        let mut invalid = tonic::Status::invalid_argument("name: too long");
        invalid.metadata_mut().insert(REASON_METADATA, "x".parse()?);
        assert_eq!(data(invalid)?, serde_json::Value::Null, "only conflicts and limits word their reason here");
        Ok(())
    }

    #[test]
    fn a_challenge_comes_with_its_bits_and_no_wait() -> Result<(), Box<dyn std::error::Error>> {
        let mut s = tonic::Status::resource_exhausted("solve the challenge");
        s.metadata_mut().insert(REASON_METADATA, "challenge_required".parse()?);
        s.metadata_mut().insert(CHALLENGE_METADATA, "c1.16.1.n.m".parse()?);
        s.metadata_mut().insert(CHALLENGE_BITS_METADATA, "16".parse()?);
        let res = ApiError::Service(s).error_response();
        assert!(res.headers().get(RETRY_AFTER).is_none());
        let body = actix_web::body::to_bytes(res.into_body()).now_or_never().ok_or("body")?.map_err(|_| "body")?;
        let v: serde_json::Value = serde_json::from_slice(&body)?;
        let challenge = serde_json::json!({"token": "c1.16.1.n.m", "bits": 16});
        assert_eq!(v["data"], serde_json::json!({"reason": "challenge_required", "challenge": challenge}));
        Ok(())
    }
}
