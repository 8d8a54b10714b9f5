//! One-time sign-in codes in the cache: rate limits, single use, failure counting, and the dev outbox.

use std::path::PathBuf;
use std::sync::Arc;
use std::time::Duration;

use rand::Rng;
use reelforge_kit::Cache;
use tokio::io::AsyncWriteExt;

use crate::domain::{AuthError, Mail};

/// Seconds before another code may be asked for.
pub const RESEND_AFTER_SECONDS: u64 = 60;
/// Codes one address may ask for per window.
pub const MAX_CODES_PER_WINDOW: i64 = 5;
/// The window of that limit, in seconds.
pub const WINDOW_SECONDS: u64 = 600;
/// Wrong tries that burn a code.
pub const MAX_WRONG_TRIES: i64 = 5;

const WRONG: &str = "verification code is wrong or expired";

/// Issues and checks codes.
#[derive(Clone)]
pub struct Codes {
    cache: Arc<dyn Cache>,
    ttl: Duration,
    resend: u64,
    outbox: PathBuf,
}

fn key(kind: &str, tenant: &str, mail: &Mail) -> String {
    format!("auth:{kind}:{tenant}:{}", mail.as_str())
}

impl Codes {
    /// Codes live `ttl_seconds`; mail goes to `outbox_dir/mail-outbox.log`.
    pub fn new(cache: Arc<dyn Cache>, ttl_seconds: u64, outbox_dir: PathBuf) -> Self {
        Self { cache, ttl: Duration::from_secs(ttl_seconds.max(1)), resend: RESEND_AFTER_SECONDS, outbox: outbox_dir }
    }

    /// Changes the resend interval; zero turns it off.
    pub fn with_resend_interval(mut self, seconds: u64) -> Self {
        self.resend = seconds;
        self
    }

    /// Makes, stores and mails a code; returns the seconds before the next may be asked for.
    pub async fn send(&self, tenant: &str, mail: &Mail) -> Result<u64, AuthError> {
        if self.resend > 0 && self.cache.incr(&key("resend", tenant, mail), Duration::from_secs(self.resend)).await? > 1 {
            return Err(AuthError::RateLimited(format!("mail: wait {} seconds before asking for another code", self.resend)));
        }
        if self.cache.incr(&key("sent", tenant, mail), Duration::from_secs(WINDOW_SECONDS)).await? > MAX_CODES_PER_WINDOW {
            return Err(AuthError::RateLimited("too many codes, try later".into()));
        }
        let code = format!("{:06}", rand::rng().random_range(0..1_000_000u32));
        self.cache.set(&key("code", tenant, mail), &code, Some(self.ttl)).await?;
        self.cache.delete(&key("wrong", tenant, mail)).await?;
        self.deliver(tenant, mail, &code).await?;
        Ok(self.resend)
    }

    /// Appends the message to the dev outbox (SMTP comes later).
    async fn deliver(&self, tenant: &str, mail: &Mail, code: &str) -> Result<(), AuthError> {
        tokio::fs::create_dir_all(&self.outbox).await?;
        let line = format!("{}\t{tenant}\t{}\tyour Reelforge verification code is {code}\n", chrono::Utc::now().to_rfc3339(), mail.as_str());
        let mut file = tokio::fs::OpenOptions::new().create(true).append(true).open(self.outbox.join("mail-outbox.log")).await?;
        file.write_all(line.as_bytes()).await?;
        file.flush().await?;
        tracing::info!(tenant, outbox = %self.outbox.display(), "verification code written to the dev mail outbox");
        Ok(())
    }

    /// Consumes the code if it matches; a wrong try is counted and the fifth burns the code.
    pub async fn check(&self, tenant: &str, mail: &Mail, code: &str) -> Result<(), AuthError> {
        let code_key = key("code", tenant, mail);
        let wrong_key = key("wrong", tenant, mail);
        let stored = self.cache.get(&code_key).await?;
        let well_formed = code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit());
        match stored {
            Some(s) if well_formed && s == code => {
                // `take` makes the code single-use even when two sign-ins race.
                if self.cache.take(&code_key).await?.as_deref() != Some(code) {
                    return Err(AuthError::Unauthenticated(WRONG.into()));
                }
                self.cache.delete(&wrong_key).await?;
                Ok(())
            }
            Some(_) => {
                if self.cache.incr(&wrong_key, self.ttl).await? >= MAX_WRONG_TRIES {
                    self.cache.delete(&code_key).await?;
                    self.cache.delete(&wrong_key).await?;
                }
                Err(AuthError::Unauthenticated(WRONG.into()))
            }
            None => Err(AuthError::Unauthenticated(WRONG.into())),
        }
    }
}
