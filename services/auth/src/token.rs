//! HS256 JWTs: issue on sign-in, verify on every request.

use jsonwebtoken::{Algorithm, DecodingKey, EncodingKey, Header, Validation};
use reelforge_proto::common::Caller;
use serde::{Deserialize, Serialize};

use crate::domain::{AuthError, Mail, Role};

/// The audience of every token.
pub const AUDIENCE: &str = "reelforge";

/// What a token says.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct Claims {
    /// The user's id (mail address).
    pub sub: String,
    /// The tenant it was issued for.
    pub tenant: String,
    /// The role at issue time.
    pub role: String,
    /// Expiry, seconds since the epoch.
    pub exp: u64,
    /// Issue time, seconds since the epoch.
    pub iat: u64,
    /// Always [`AUDIENCE`].
    pub aud: String,
}

/// Signs and verifies tokens with one secret.
#[derive(Clone)]
pub struct Tokens {
    encoding: EncodingKey,
    decoding: DecodingKey,
    validity_seconds: u64,
}

fn invalid() -> AuthError {
    AuthError::Unauthenticated("token: invalid or expired".into())
}

impl Tokens {
    /// Uses `secret`; tokens stay valid `hours`.
    pub fn new(secret: &str, hours: u64) -> Self {
        // Only the rust_crypto backend is compiled in; installing it explicitly keeps token code
        // working if another crate ever turns on a second backend. A second install is a no-op.
        let _ = jsonwebtoken::crypto::rust_crypto::DEFAULT_PROVIDER.install_default();
        Self {
            encoding: EncodingKey::from_secret(secret.as_bytes()),
            decoding: DecodingKey::from_secret(secret.as_bytes()),
            validity_seconds: hours.saturating_mul(3600),
        }
    }

    /// Signs claims as they are (tests use it to make expired tokens).
    pub fn sign(&self, claims: &Claims) -> Result<String, AuthError> {
        jsonwebtoken::encode(&Header::new(Algorithm::HS256), claims, &self.encoding).map_err(AuthError::Sign)
    }

    /// Issues a token for a user of `tenant`.
    pub fn issue(&self, tenant: &str, mail: &Mail, role: Role) -> Result<String, AuthError> {
        let now = jsonwebtoken::get_current_timestamp();
        self.sign(&Claims {
            sub: mail.as_str().to_owned(),
            tenant: tenant.to_owned(),
            role: role.as_str().to_owned(),
            exp: now.saturating_add(self.validity_seconds),
            iat: now,
            aud: AUDIENCE.to_owned(),
        })
    }

    /// Checks signature (HS256 only), expiry, audience and that the token belongs to `tenant`.
    pub fn verify(&self, token: &str, tenant: &str) -> Result<Caller, AuthError> {
        let mut validation = Validation::new(Algorithm::HS256);
        validation.algorithms = vec![Algorithm::HS256];
        validation.leeway = 5;
        validation.set_audience(&[AUDIENCE]);
        validation.set_required_spec_claims(&["exp", "aud", "sub"]);
        let data = jsonwebtoken::decode::<Claims>(token, &self.decoding, &validation).map_err(|e| {
            tracing::debug!(error = %e, "token refused");
            invalid()
        })?;
        let claims = data.claims;
        if claims.tenant.is_empty() || claims.tenant != tenant {
            return Err(AuthError::Unauthenticated("token: issued for another tenant".into()));
        }
        Ok(Caller { tenant: claims.tenant, user_id: claims.sub, role: claims.role })
    }
}
