//! Who is calling: the tenant from `X-Variant` (or the host's first label), and the user from the
//! `Authorization` token, verified by the auth service.

use actix_web::HttpRequest;
use reelforge_proto::auth::VerifyRequest;
use reelforge_proto::common::Caller;

use crate::{ApiError, AppState};

/// Variant keys the platform serves.
pub const VARIANTS: &[&str] = &["qs", "cc", "migu", "cu"];

/// The tenant of a request: `X-Variant`, else a known variant as the host's first label, else `qs`.
pub fn tenant(req: &HttpRequest) -> Result<String, ApiError> {
    if let Some(v) = req.headers().get("x-variant").and_then(|v| v.to_str().ok()).filter(|v| !v.is_empty()) {
        return if VARIANTS.contains(&v) {
            Ok(v.to_owned())
        } else {
            Err(ApiError::BadRequest(format!("X-Variant: unknown variant `{v}`")))
        };
    }
    let host = req.connection_info().host().to_owned();
    let first = host.split('.').next().unwrap_or_default();
    Ok(VARIANTS.iter().find(|v| **v == first).map_or("qs", |v| v).to_owned())
}

/// The verified caller; no or a bad token is 'login expired'.
pub async fn caller(req: &HttpRequest, state: &AppState) -> Result<Caller, ApiError> {
    let tenant = tenant(req)?;
    let token = req
        .headers()
        .get("authorization")
        .and_then(|v| v.to_str().ok())
        .map(|v| v.strip_prefix("Bearer ").unwrap_or(v).trim().to_owned())
        .filter(|t| !t.is_empty())
        .ok_or(ApiError::LoginExpired)?;
    let reply = state.clients.auth.clone().verify(VerifyRequest { token, tenant }).await.map_err(|s| {
        if s.code() == tonic::Code::Unauthenticated { ApiError::LoginExpired } else { ApiError::Service(s) }
    })?;
    reply.into_inner().caller.ok_or(ApiError::LoginExpired)
}

/// A caller with only the tenant, for public reads.
pub fn anonymous(req: &HttpRequest) -> Result<Caller, ApiError> {
    Ok(Caller { tenant: tenant(req)?, user_id: String::new(), role: String::new() })
}
