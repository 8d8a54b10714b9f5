//! The auth service: sign-in with a mailed one-time code, JWT issue and verification.
//! `lib.rs` wires; `domain` holds the rules, `codes` the code flow over the cache, `token` the JWTs,
//! `store` the user table, `grpc` the server.

pub mod codes;
pub mod domain;
mod grpc;
mod store;
pub mod token;

use std::path::PathBuf;
use std::sync::Arc;

pub use codes::{Codes, RESEND_AFTER_SECONDS};
pub use domain::{AuthError, Login, Mail, Role};
pub use grpc::AuthGrpc;
pub use store::{UserStore, migrate};
pub use token::{Claims, Tokens};

use reelforge_kit::Cache;
use reelforge_kit::config::AuthConfig;
use reelforge_proto::auth::auth_service_server::AuthServiceServer;
use reelforge_proto::common::Caller;

/// The sign-in flow: codes, users and tokens together.
#[derive(Clone)]
pub struct Auth {
    codes: Codes,
    users: UserStore,
    tokens: Tokens,
}

impl Auth {
    /// Builds the flow over a migrated database, a cache and the dev mail outbox directory.
    pub fn new(db: sea_orm::DatabaseConnection, cache: Arc<dyn Cache>, config: &AuthConfig, outbox_dir: PathBuf) -> Self {
        Self {
            codes: Codes::new(cache, config.code_ttl_seconds, outbox_dir),
            users: UserStore::new(db),
            tokens: Tokens::new(&config.jwt_secret, config.token_hours),
        }
    }

    /// Changes the minimum interval between two codes to one address (tests shorten it).
    pub fn with_resend_interval(mut self, seconds: u64) -> Self {
        self.codes = self.codes.with_resend_interval(seconds);
        self
    }

    /// Mails a fresh code; returns the seconds before another may be asked for.
    pub async fn send_code(&self, tenant: &str, mail: &str) -> Result<u64, AuthError> {
        let tenant = domain::parse_tenant(tenant)?;
        let mail = Mail::parse(mail)?;
        self.codes.send(&tenant, &mail).await
    }

    /// Checks the code, creates the user on first sign-in and issues a token.
    pub async fn login(&self, tenant: &str, mail: &str, code: &str) -> Result<Login, AuthError> {
        let tenant = domain::parse_tenant(tenant)?;
        let mail = Mail::parse(mail)?;
        self.codes.check(&tenant, &mail, code).await?;
        let level = self.users.find_or_create(&tenant, &mail).await?;
        let role = Role::from_operator_level(level);
        let token = self.tokens.issue(&tenant, &mail, role)?;
        tracing::info!(tenant = %tenant, "user signed in");
        Ok(Login { token, user_id: mail.as_str().to_owned(), role, operator_level: level })
    }

    /// Verifies a token issued for `tenant` and returns its caller.
    pub fn verify(&self, token: &str, tenant: &str) -> Result<Caller, AuthError> {
        self.tokens.verify(token, tenant)
    }
}

/// Builds the gRPC service over a migrated database, the cache and the dev mail outbox directory.
pub fn grpc_service(
    db: sea_orm::DatabaseConnection,
    cache: Arc<dyn Cache>,
    config: AuthConfig,
    outbox_dir: PathBuf,
) -> AuthServiceServer<AuthGrpc> {
    AuthServiceServer::new(AuthGrpc::new(Auth::new(db, cache, &config, outbox_dir)))
}
