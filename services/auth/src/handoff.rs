//! Embedded hand-offs: a host platform sends a user over with a short HS256 token signed with the
//! variant's hand-off secret (docs/auth.md). The token is checked here and used once.

use std::sync::Arc;
use std::time::Duration;

use jsonwebtoken::{Algorithm, DecodingKey, Validation};
use reelforge_kit::Cache;
use serde::Deserialize;

use crate::domain::AuthError;

/// The audience a hand-off token must name.
pub const HANDOFF_AUDIENCE: &str = "reelforge-handoff";
/// The longest life a hand-off token may have, in seconds.
pub const HANDOFF_MAX_SECONDS: u64 = 120;

/// What a hand-off token says.
#[derive(Debug, Clone, Deserialize)]
pub struct HandoffClaims {
    /// The host platform's user id.
    pub sub: String,
    /// The user's mobile number.
    #[serde(default)]
    pub mobile: String,
    /// The variant it was issued for.
    pub tenant: String,
    /// A unique id; a token is accepted once.
    pub jti: String,
    /// Issue time.
    pub iat: u64,
    /// Expiry, at most [`HANDOFF_MAX_SECONDS`] after `iat`.
    pub exp: u64,
}

fn refused(why: &str) -> AuthError {
    tracing::info!(why, "hand-off refused");
    AuthError::Refused(format!("handoff: {why}"))
}

/// Checks `token` for `tenant` with the variant's `secret` and marks its id used.
pub async fn accept(cache: &Arc<dyn Cache>, tenant: &str, secret: &str, token: &str) -> Result<HandoffClaims, AuthError> {
    if secret.is_empty() {
        return Err(AuthError::Refused(format!("handoff: hand-offs are not configured for variant `{tenant}`")));
    }
    let mut validation = Validation::new(Algorithm::HS256);
    validation.algorithms = vec![Algorithm::HS256];
    validation.leeway = 5;
    validation.set_audience(&[HANDOFF_AUDIENCE]);
    validation.set_required_spec_claims(&["exp", "aud", "sub"]);
    let claims = jsonwebtoken::decode::<HandoffClaims>(token, &DecodingKey::from_secret(secret.as_bytes()), &validation)
        .map_err(|e| refused(&format!("invalid or expired token ({e})")))?
        .claims;
    if claims.tenant != tenant {
        return Err(refused("issued for another variant"));
    }
    if claims.exp < claims.iat || claims.exp - claims.iat > HANDOFF_MAX_SECONDS {
        return Err(refused("lives longer than 120 seconds"));
    }
    let user_ok = !claims.sub.is_empty()
        && claims.sub.len() <= 64
        && claims.sub.bytes().all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_' || b == b'.');
    if !user_ok {
        return Err(refused("sub: 1 to 64 letters, digits, `-`, `_` or `.`"));
    }
    if claims.mobile.len() > 20 || !claims.mobile.bytes().all(|b| b.is_ascii_digit() || b == b'+') {
        return Err(refused("mobile: up to 20 digits"));
    }
    if claims.jti.is_empty() || claims.jti.len() > 128 {
        return Err(refused("jti: missing"));
    }
    let first = cache
        .incr(&format!("auth:handoff:{tenant}:{}", claims.jti), Duration::from_secs(HANDOFF_MAX_SECONDS + 10))
        .await?;
    if first != 1 {
        return Err(refused("this hand-off was already used"));
    }
    Ok(claims)
}
