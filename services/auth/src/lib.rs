//! The auth service: sign-in with a mailed one-time code or a host platform's hand-off, user tokens,
//! their checks (deny-list, disabled and changed users) and revocation, and the administrators'
//! user management. `lib.rs` holds the flows; `codes` the code and client-address limits over the
//! cache, `challenge` the proof-of-work asked past an address's threshold, `mail` the delivery,
//! `handoff` the host tokens, `store` the user table, `checks` its rows kept briefly for token
//! checks, `grpc` the server.

pub mod challenge;
mod checks;
pub mod codes;
pub mod domain;
mod grpc;
pub mod handoff;
pub mod mail;
pub mod provider;
mod store;

use std::collections::BTreeMap;
use std::sync::Arc;
use std::time::Duration;

pub use challenge::{Challenge, Proof, ProofError};
pub use codes::{Ask, Codes, Limits, MAX_TRIES};
pub use domain::{AuthError, Login, Mail, User, UserPage};
pub use grpc::AuthGrpc;
pub use mail::Mailer;
pub use provider::{Application, ApplicationInput, ApplicationState};
pub use store::{UserStore, migrate, migration_book, unmigrate};

use reelforge_kit::config::TenantConfig;
use reelforge_kit::identity::{Guarded, Identity, OperatorLevel, Role};
use reelforge_kit::revocation::Revocations;
use reelforge_kit::{Cache, Config, Keyring};
use reelforge_proto::auth::auth_service_server::AuthServiceServer;

use crate::checks::UserChecks;

/// The largest page of users an administrator may ask for.
pub const MAX_PAGE_SIZE: u64 = 100;

/// The sign-in flows over the user table, the cache and the signing keys.
#[derive(Clone)]
pub struct Auth {
    codes: Codes,
    mailer: Mailer,
    users: UserStore,
    checks: UserChecks,
    cache: Arc<dyn Cache>,
    keys: Keyring,
    token_seconds: u64,
    tenants: Arc<BTreeMap<String, TenantConfig>>,
    revocations: Revocations,
}

impl Auth {
    /// Builds the flows over a migrated database and the cache, with the configured limits, mail
    /// delivery (the dev outbox lives in `config.data_dir`) and variants.
    pub fn new(db: sea_orm::DatabaseConnection, cache: Arc<dyn Cache>, config: &Config, keys: Keyring) -> Result<Self, AuthError> {
        Ok(Self {
            codes: Codes::new(cache.clone(), keys.clone(), Limits::from_config(&config.auth)),
            mailer: Mailer::from_config(&config.mail, &config.timeouts, config.data_dir.clone())?,
            checks: UserChecks::new(UserStore::new(db.clone()), Duration::from_secs(config.auth.user_check_seconds)),
            users: UserStore::new(db),
            revocations: Revocations::new(cache.clone()),
            cache,
            keys,
            token_seconds: config.auth.token_hours.saturating_mul(3600),
            tenants: Arc::new(config.tenants.clone()),
        })
    }

    /// The code flow.
    pub fn codes(&self) -> &Codes {
        &self.codes
    }

    /// Replaces the code limits (tests tighten or loosen them).
    pub fn with_limits(mut self, limits: Limits) -> Self {
        self.codes = Codes::new(self.cache.clone(), self.keys.clone(), limits);
        self
    }

    fn tenant_of(&self, caller: &Identity) -> Result<String, AuthError> {
        caller.require_service()?;
        if self.tenants.contains_key(&caller.tenant) {
            Ok(caller.tenant.clone())
        } else {
            Err(AuthError::Invalid(format!("tenant: unknown variant `{}`", caller.tenant)))
        }
    }

    /// Mails a fresh code to `mail` for the gateway's caller coming from `client_ip`; returns the
    /// seconds before another may be asked for. The answer is the same whether or not the address
    /// has an account.
    pub async fn send_code(&self, caller: &Identity, client_ip: &str, mail: &str) -> Result<u64, AuthError> {
        self.send_code_with_proof(caller, client_ip, mail, None).await
    }

    /// As [`Auth::send_code`], with the solved challenge a client address past its threshold needs.
    pub async fn send_code_with_proof(&self, caller: &Identity, client_ip: &str, mail: &str, proof: Option<&Proof>) -> Result<u64, AuthError> {
        let tenant = self.tenant_of(caller)?;
        let mail = Mail::parse(mail)?;
        self.codes.admit(&tenant, client_ip, Ask::Code(&mail), proof).await?;
        let (code, resend) = self.codes.issue(&tenant, &mail).await?;
        self.mailer.send(&tenant, &mail, &code).await?;
        Ok(resend)
    }

    /// Checks the code, creates the user on first sign-in and issues a token.
    pub async fn login(&self, caller: &Identity, client_ip: &str, mail: &str, code: &str) -> Result<Login, AuthError> {
        let tenant = self.tenant_of(caller)?;
        let mail = Mail::parse(mail)?;
        self.codes.admit(&tenant, client_ip, Ask::Login(&mail), None).await?;
        self.codes.check(&tenant, &mail, code).await?;
        let user = self.users.find_or_create(&tenant, mail.as_str(), "", OperatorLevel::DEFAULT).await?;
        self.checks.forget(&tenant, mail.as_str());
        self.sign_in(user)
    }

    /// Accepts a host platform's hand-off token and signs its user in.
    pub async fn handoff(&self, caller: &Identity, client_ip: &str, token: &str) -> Result<Login, AuthError> {
        let tenant = self.tenant_of(caller)?;
        self.codes.admit(&tenant, client_ip, Ask::Handoff, None).await?;
        let secret = self.tenants.get(&tenant).map(|t| t.handoff_secret.as_str()).unwrap_or_default();
        let claims = handoff::accept(&self.cache, &tenant, secret, token).await?;
        let user = self.users.find_or_create(&tenant, &claims.sub, &claims.mobile, OperatorLevel::DEFAULT).await?;
        // A hand-off may have brought a new mobile number.
        self.checks.forget(&tenant, &claims.sub);
        self.sign_in(user)
    }

    fn sign_in(&self, user: User) -> Result<Login, AuthError> {
        if user.disabled {
            return Err(AuthError::Disabled);
        }
        let (token, _) = self.keys.issue_user(&user.tenant, &user.user_id, user.level, self.token_seconds)?;
        tracing::info!(tenant = %user.tenant, "user signed in");
        Ok(Login { token, user })
    }

    /// The user of a verified user token, refused when the token was revoked, the user is disabled
    /// or gone, or their level changed since the token was issued (they sign in again). The user's
    /// row may be a copy a few seconds old (`auth.user_check_seconds`, see `checks`).
    pub async fn verify(&self, caller: &Identity) -> Result<User, AuthError> {
        let (tenant, user_id) = caller.require_user()?;
        if self.cache.get(&reelforge_kit::revocation::deny_key(&caller.jti)).await?.is_some() {
            return Err(AuthError::Revoked);
        }
        let user = self.checks.find(tenant, user_id).await?.ok_or(AuthError::Revoked)?;
        if user.disabled || Some(user.level) != caller.level {
            return Err(AuthError::Revoked);
        }
        Ok(user)
    }

    /// Revokes the caller's token until it would have expired (every service reads the deny-list),
    /// and the media tickets the caller was given until now.
    pub async fn logout(&self, caller: &Identity) -> Result<(), AuthError> {
        self.verify(caller).await?;
        self.revocations.sign_out(caller).await?;
        Ok(())
    }

    /// The tenant of a verified administrator.
    async fn admin<'a>(&self, caller: &'a Identity) -> Result<&'a str, AuthError> {
        self.verify(caller).await?;
        caller.require_admin()?;
        Ok(&caller.tenant)
    }

    /// Lists the administrator's tenant's users whose id contains `keyword`; `page` counts from 1.
    pub async fn list_users(&self, caller: &Identity, keyword: &str, page: u32, size: u32) -> Result<UserPage, AuthError> {
        let tenant = self.admin(caller).await?;
        if keyword.len() > 254 {
            return Err(AuthError::Invalid("keyword: at most 254 characters".into()));
        }
        let size = if size == 0 { 10 } else { u64::from(size).min(MAX_PAGE_SIZE) };
        self.users.list(tenant, keyword.trim(), u64::from(page.max(1)), size).await
    }

    /// Changes a user's operator level; their tokens stop working, so they sign in again.
    pub async fn set_level(&self, caller: &Identity, user_id: &str, level: i32) -> Result<(), AuthError> {
        let tenant = self.admin(caller).await?;
        let level = domain::parse_level(level, "operatorLevel")?;
        if caller.user_id.as_deref() == Some(user_id) {
            return Err(AuthError::Invalid("userId: administrators cannot change their own level".into()));
        }
        self.users.set_level(tenant, user_id, level).await?;
        self.checks.forget(tenant, user_id);
        // The services, which read the level from the token, refuse the old tokens too.
        self.revocations.set_level(tenant, user_id, level.number(), self.token_seconds).await?;
        Ok(())
    }

    /// Turns a user off (their tokens stop working) or back on.
    pub async fn set_disabled(&self, caller: &Identity, user_id: &str, disabled: bool) -> Result<(), AuthError> {
        let tenant = self.admin(caller).await?;
        if caller.user_id.as_deref() == Some(user_id) {
            return Err(AuthError::Invalid("userId: administrators cannot disable themselves".into()));
        }
        self.users.set_disabled(tenant, user_id, disabled).await?;
        self.checks.forget(tenant, user_id);
        // The services and the media tickets read the mark.
        self.revocations.set_disabled(tenant, user_id, disabled, self.token_seconds).await?;
        Ok(())
    }

    /// The tenant and user id of a verified template manager.
    async fn manager<'a>(&self, caller: &'a Identity) -> Result<(&'a str, &'a str), AuthError> {
        self.verify(caller).await?;
        caller.require_role(Role::TemplateManager)?;
        Ok(caller.require_user()?)
    }

    /// Whether the verified `user` is a service provider of their tenant.
    pub async fn is_provider(&self, user: &User) -> Result<bool, AuthError> {
        self.users.is_provider(&user.tenant, &user.user_id).await
    }

    /// Whether the user a service token acts for is a provider of the token's tenant: another
    /// service's question, so a user's own token is refused (a user cannot vouch for themselves).
    pub async fn provider_of(&self, caller: &Identity) -> Result<bool, AuthError> {
        caller.require_service()?;
        let (tenant, user_id) = caller.owner()?;
        self.users.is_provider(tenant, user_id).await
    }

    /// The user of the token's tenant that a service token names by account or, failing that, by
    /// mobile number: another service's question (adding an enterprise member), so a user's own
    /// token is refused.
    pub async fn user_of(&self, caller: &Identity) -> Result<Option<User>, AuthError> {
        caller.require_service()?;
        let (tenant, named) = caller.owner()?;
        match self.users.find(tenant, named).await? {
            Some(user) => Ok(Some(user)),
            None => self.users.find_by_mobile(tenant, named).await,
        }
    }

    /// The caller applies to become a service provider; refused while an application of theirs
    /// waits or once they are one.
    pub async fn apply(&self, caller: &Identity, input: ApplicationInput) -> Result<Application, AuthError> {
        let user = self.verify(caller).await?;
        self.users.apply(&user.tenant, &user.user_id, input.checked()?).await
    }

    /// The caller's applications, newest first.
    pub async fn my_applications(&self, caller: &Identity) -> Result<Vec<Application>, AuthError> {
        let user = self.verify(caller).await?;
        self.users.applications_of(&user.tenant, &user.user_id).await
    }

    /// A template manager's page of the tenant's applications in `state` (empty: pending).
    pub async fn review_applications(&self, caller: &Identity, state: &str, page: u32, size: u32) -> Result<(Vec<Application>, u64), AuthError> {
        let (tenant, _) = self.manager(caller).await?;
        let state = if state.trim().is_empty() { ApplicationState::Pending } else { ApplicationState::parse(state)? };
        let size = if size == 0 { 10 } else { u64::from(size).min(MAX_PAGE_SIZE) };
        self.users.applications(tenant, state, u64::from(page.max(1)), size).await
    }

    /// A template manager's view of one of the tenant's applications.
    pub async fn review_application(&self, caller: &Identity, id: i64) -> Result<Application, AuthError> {
        let (tenant, _) = self.manager(caller).await?;
        self.users.application(tenant, id).await
    }

    /// A template manager approves a pending application (its user becomes a service provider) or
    /// rejects it with a reason the applicant sees.
    pub async fn decide_application(&self, caller: &Identity, id: i64, approve: bool, reason: &str) -> Result<Application, AuthError> {
        let (tenant, reviewer) = self.manager(caller).await?;
        let (state, reason) = provider::decision(approve, reason)?;
        self.users.decide(tenant, id, reviewer, state, &reason).await
    }
}

/// Gives `mail` of `tenant` operator level `level`, creating the user if missing (the bootstrap of
/// the first administrator: `reelforge admin grant`).
pub async fn grant(
    users: &UserStore,
    tenants: &BTreeMap<String, TenantConfig>,
    tenant: &str,
    mail: &str,
    level: i32,
) -> Result<User, AuthError> {
    if !tenants.contains_key(tenant) {
        let known: Vec<&str> = tenants.keys().map(String::as_str).collect();
        return Err(AuthError::Invalid(format!("tenant: unknown variant `{tenant}` (known: {})", known.join(", "))));
    }
    let mail = Mail::parse(mail)?;
    let level = domain::parse_level(level, "level")?;
    let user = users.find_or_create(tenant, mail.as_str(), "", level).await?;
    users.set_level(tenant, mail.as_str(), level).await?;
    Ok(User { level, ..user })
}

/// Builds the gRPC service over a migrated database and the cache; every call must carry a token
/// `keys` verify.
pub fn grpc_service(
    db: sea_orm::DatabaseConnection,
    cache: Arc<dyn Cache>,
    config: &Config,
    keys: Keyring,
) -> Result<Guarded<AuthServiceServer<AuthGrpc>>, AuthError> {
    let verifier = keys.verifier();
    Ok(AuthServiceServer::with_interceptor(AuthGrpc::new(Auth::new(db, cache, config, keys)?), verifier))
}

