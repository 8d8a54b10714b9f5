//! Ended sign-ins, shared through the cache by every process that believes a user's token: a
//! signed-out token (its `jti` on the deny-list until it would have expired), a disabled user (every
//! token and media ticket refused while the mark stands), a user whose level an administrator
//! changed (tokens carrying another level refused), and the media tickets a user was given before
//! signing out (tickets name no session, so signing out ends them all). The auth service writes;
//! the gateway and every gRPC service read, so a token the gateway refuses is refused at a service's
//! own port too ([`Revoking`]), and a ticket stops working at once.
//!
//! The cache is the one the deployment configures: Redis in distributed mode, where every process
//! must reach the same one, the in-process map in `all`. A cache that does not answer refuses the
//! call (unavailable) rather than letting a possibly revoked token through.

use std::sync::Arc;
use std::time::Duration;

use tonic::codegen::{Body, BoxFuture, Bytes, Context, Poll, Service, StdError, http};
use tonic::server::NamedService;

use crate::cache::{Cache, CacheError};
use crate::identity::{self, Identity, Keyring, TokenKind};

/// The longest a media ticket lives (the gateway's material and template tickets), in seconds: a
/// ticket revocation is kept this long.
pub const TICKET_MAX_SECONDS: u64 = 6 * 3600;
/// Seconds a revocation outlives what it revokes (the verification leeway, and some).
const SLACK_SECONDS: u64 = 10;

/// The deny-list entry of a signed-out token.
pub fn deny_key(jti: &str) -> String {
    format!("auth:deny:{jti}")
}

/// Present while a user is disabled.
pub fn disabled_key(tenant: &str, user: &str) -> String {
    format!("auth:disabled:{tenant}:{user}")
}

/// A user's operator level since an administrator changed it.
pub fn level_key(tenant: &str, user: &str) -> String {
    format!("auth:level:{tenant}:{user}")
}

/// The time (ms since the epoch) up to which every media ticket of a user is revoked.
pub fn tickets_key(tenant: &str, user: &str) -> String {
    format!("auth:tickets-revoked:{tenant}:{user}")
}

/// Milliseconds since the epoch, as media tickets carry their issue time.
pub fn now_ms() -> u64 {
    u64::try_from(crate::db::now_millis()).unwrap_or(0)
}

/// The revocations in the cache.
#[derive(Clone)]
pub struct Revocations {
    cache: Arc<dyn Cache>,
}

impl std::fmt::Debug for Revocations {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("Revocations").finish_non_exhaustive()
    }
}

impl Revocations {
    /// Revocations kept in `cache`.
    pub fn new(cache: Arc<dyn Cache>) -> Self {
        Self { cache }
    }

    /// Ends the sign-in of a user's token: the token is denied until it would have expired, and
    /// the media tickets its user was given until now stop working.
    pub async fn sign_out(&self, id: &Identity) -> Result<(), CacheError> {
        let left = id.expires_at.saturating_sub(jsonwebtoken::get_current_timestamp()).max(1);
        self.cache.set(&deny_key(&id.jti), "1", Some(Duration::from_secs(left + SLACK_SECONDS))).await?;
        if let Some(user) = &id.user_id {
            let key = tickets_key(&id.tenant, user);
            self.cache.set(&key, &now_ms().to_string(), Some(Duration::from_secs(TICKET_MAX_SECONDS + SLACK_SECONDS))).await?;
        }
        Ok(())
    }

    /// Marks `user` of `tenant` disabled (every token and ticket refused), or clears the mark. The
    /// mark outlives the longest token (`token_seconds`) and ticket; a disabled user gets no new one.
    pub async fn set_disabled(&self, tenant: &str, user: &str, disabled: bool, token_seconds: u64) -> Result<(), CacheError> {
        let key = disabled_key(tenant, user);
        if disabled {
            let keep = token_seconds.max(TICKET_MAX_SECONDS) + SLACK_SECONDS;
            self.cache.set(&key, "1", Some(Duration::from_secs(keep))).await
        } else {
            self.cache.delete(&key).await.map(|_| ())
        }
    }

    /// Records `user`'s new operator level: their tokens carrying another level are refused until
    /// they would have expired (`token_seconds`).
    pub async fn set_level(&self, tenant: &str, user: &str, level: i32, token_seconds: u64) -> Result<(), CacheError> {
        let keep = Duration::from_secs(token_seconds + SLACK_SECONDS);
        self.cache.set(&level_key(tenant, user), &level.to_string(), Some(keep)).await
    }

    /// Whether a user's token was signed out, its user is disabled, or its level is no longer the
    /// user's. Service tokens are minted per call by holders of the key and are never revoked.
    pub async fn token_revoked(&self, id: &Identity) -> Result<bool, CacheError> {
        if id.kind != TokenKind::User {
            return Ok(false);
        }
        if self.cache.get(&deny_key(&id.jti)).await?.is_some() {
            return Ok(true);
        }
        let Some(user) = &id.user_id else { return Ok(false) };
        if self.cache.get(&disabled_key(&id.tenant, user)).await?.is_some() {
            return Ok(true);
        }
        let level = self.cache.get(&level_key(&id.tenant, user)).await?;
        Ok(level.is_some_and(|l| Some(l.as_str()) != id.level.map(|x| x.number().to_string()).as_deref()))
    }

    /// Whether a media ticket given to `user` of `tenant` at `issued_ms` (ms since the epoch) no
    /// longer works: the user is disabled, or signed out after it was given.
    pub async fn ticket_revoked(&self, tenant: &str, user: &str, issued_ms: u64) -> Result<bool, CacheError> {
        if self.cache.get(&disabled_key(tenant, user)).await?.is_some() {
            return Ok(true);
        }
        let until = self.cache.get(&tickets_key(tenant, user)).await?.and_then(|v| v.parse::<u64>().ok());
        Ok(until.is_some_and(|until| issued_ms <= until))
    }

    /// Wraps a gRPC service so that a revoked user's token is refused before the service's own
    /// verifier runs.
    pub fn guard<S>(&self, keys: &Keyring, inner: S) -> Revoking<S> {
        Revoking { inner, keys: keys.clone(), revocations: self.clone() }
    }
}

/// A gRPC service that refuses calls carrying a revoked user's token (`Unauthenticated`), and calls
/// when the cache does not answer (`Unavailable`); tokens that do not verify are left to the
/// service's own [`identity::Verifier`].
#[derive(Clone)]
pub struct Revoking<S> {
    inner: S,
    keys: Keyring,
    revocations: Revocations,
}

impl<S: NamedService> NamedService for Revoking<S> {
    const NAME: &'static str = S::NAME;
}

impl<S, B, R> Service<http::Request<B>> for Revoking<S>
where
    S: Service<http::Request<B>, Response = http::Response<R>> + Clone + Send + 'static,
    S::Future: Send + 'static,
    S::Error: Send + 'static,
    B: Send + 'static,
    R: Body<Data = Bytes> + Send + 'static,
    R::Error: Into<StdError>,
{
    type Response = http::Response<tonic::body::Body>;
    type Error = S::Error;
    type Future = BoxFuture<Self::Response, Self::Error>;

    fn poll_ready(&mut self, cx: &mut Context<'_>) -> Poll<Result<(), Self::Error>> {
        self.inner.poll_ready(cx)
    }

    fn call(&mut self, req: http::Request<B>) -> Self::Future {
        // The clone that was made ready serves this call (tower's rule for cloned services).
        let clone = self.inner.clone();
        let mut inner = std::mem::replace(&mut self.inner, clone);
        let identity = req
            .headers()
            .get(identity::AUTHORIZATION)
            .and_then(|v| v.to_str().ok())
            .map(|v| v.strip_prefix("Bearer ").unwrap_or(v).trim())
            .and_then(|token| self.keys.verify(token).ok());
        let revocations = self.revocations.clone();
        Box::pin(async move {
            if let Some(id) = identity {
                match revocations.token_revoked(&id).await {
                    Ok(false) => {}
                    Ok(true) => {
                        tracing::info!(tenant = %id.tenant, "revoked token refused");
                        let status = tonic::Status::unauthenticated("authorization: this sign-in was ended; sign in again");
                        return Ok(status.into_http());
                    }
                    Err(e) => {
                        tracing::error!(error = %e, "revocations unreadable: call refused");
                        return Ok(tonic::Status::unavailable("sign-in check unavailable, please retry later").into_http());
                    }
                }
            }
            Ok(inner.call(req).await?.map(tonic::body::Body::new))
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::config::SigningKeyConfig;
    use crate::identity::OperatorLevel;

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    fn keys() -> Result<Keyring, crate::IdentityError> {
        Keyring::new(&[SigningKeyConfig { id: "k".into(), secret: "0123456789abcdef0123456789abcdef".into() }])
    }

    #[tokio::test]
    async fn signed_out_disabled_and_changed_users() -> TestResult {
        let keys = keys()?;
        let r = Revocations::new(Arc::new(crate::cache::MemoryCache::default()));
        let token = |user: &str, level| -> Result<Identity, crate::IdentityError> { keys.verify(&keys.issue_user("qs", user, level, 3600)?.0) };
        let (a1, a2, b) = (token("a", OperatorLevel::DEFAULT)?, token("a", OperatorLevel::DEFAULT)?, token("b", OperatorLevel::DEFAULT)?);
        let ticket_ms = now_ms();
        assert!(!r.token_revoked(&a1).await? && !r.ticket_revoked("qs", "a", ticket_ms).await?);

        r.sign_out(&a1).await?;
        assert!(r.token_revoked(&a1).await?, "the signed-out token");
        assert!(!r.token_revoked(&a2).await?, "another sign-in of the same user goes on");
        assert!(r.ticket_revoked("qs", "a", ticket_ms).await?, "tickets given before the sign-out");
        assert!(!r.ticket_revoked("qs", "a", now_ms() + 1).await?, "tickets given after it");
        assert!(!r.ticket_revoked("qs", "b", ticket_ms).await?, "another user's tickets");

        r.set_disabled("qs", "b", true, 3600).await?;
        assert!(r.token_revoked(&b).await? && r.ticket_revoked("qs", "b", now_ms() + 1).await?, "disabled: everything refused");
        assert!(!r.ticket_revoked("cc", "b", ticket_ms).await?, "the same id in another tenant");
        let service = keys.verify(&keys.service_token("qs", Some("b"), 60)?)?;
        assert!(!r.token_revoked(&service).await?, "service tokens are not users' sign-ins");
        r.set_disabled("qs", "b", false, 3600).await?;
        assert!(!r.token_revoked(&b).await?, "enabled again");

        r.set_level("qs", "b", OperatorLevel::OperationsManager.number(), 3600).await?;
        assert!(r.token_revoked(&b).await?, "a token of the old level");
        assert!(!r.token_revoked(&token("b", OperatorLevel::OperationsManager)?).await?, "a token of the new level");
        Ok(())
    }
}
