//! One-time sign-in codes in the cache: kept only as a keyed hash, a short life, one new code per
//! address per interval, per-address, per-client and per-tenant daily limits, and a try counter that
//! burns the code on the fifth wrong try. Every counter is one atomic cache increment, so concurrent
//! guesses cannot check a code more than [`MAX_TRIES`] times.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rand::Rng;
use reelforge_kit::config::AuthConfig;
use reelforge_kit::{Cache, Keyring};

use crate::domain::{AuthError, Mail, WRONG_CODE};

/// Checks one code may have; the fifth wrong one burns it.
pub const MAX_TRIES: i64 = 5;

const HOUR: Duration = Duration::from_secs(3600);
const DAY: Duration = Duration::from_secs(24 * 3600);

/// How often codes may be asked for and tried.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Life of a code.
    pub code_ttl: Duration,
    /// Seconds before another code may go to the same address; zero turns the interval off.
    pub resend_seconds: u64,
    /// Codes per address per day.
    pub per_address_per_day: i64,
    /// Codes, and sign-in tries, per client address per hour.
    pub per_ip_per_hour: i64,
    /// Codes per tenant per day.
    pub per_tenant_per_day: i64,
}

impl Limits {
    /// The limits configured under `auth`.
    pub fn from_config(c: &AuthConfig) -> Self {
        Self {
            code_ttl: Duration::from_secs(c.code_ttl_seconds.max(1)),
            resend_seconds: c.resend_seconds,
            per_address_per_day: i64::from(c.codes_per_address_per_day),
            per_ip_per_hour: i64::from(c.requests_per_ip_per_hour),
            per_tenant_per_day: i64::from(c.codes_per_tenant_per_day),
        }
    }
}

/// Issues and checks codes.
#[derive(Clone)]
pub struct Codes {
    cache: Arc<dyn Cache>,
    keys: Keyring,
    limits: Limits,
    compared: Arc<AtomicU64>,
}

fn key(kind: &str, tenant: &str, who: &str) -> String {
    format!("auth:{kind}:{tenant}:{who}")
}

impl Codes {
    /// Codes over `cache`, hashed under the signing key of `keys`.
    pub fn new(cache: Arc<dyn Cache>, keys: Keyring, limits: Limits) -> Self {
        Self { cache, keys, limits, compared: Arc::new(AtomicU64::new(0)) }
    }

    /// How many times a stored code was compared with a guess (the try counter's effect).
    pub fn compared(&self) -> u64 {
        self.compared.load(Ordering::Relaxed)
    }

    /// Counts one more use of `key` in a window of `window`; past `limit` answers how long to wait.
    async fn count(&self, key: &str, window: Duration, limit: i64, what: &str) -> Result<(), AuthError> {
        if self.cache.incr(key, window).await? <= limit {
            return Ok(());
        }
        let wait = self.cache.ttl(key).await?.map_or(window.as_secs(), |t| t.as_secs().max(1));
        Err(AuthError::RateLimited { what: what.to_owned(), wait_seconds: wait })
    }

    /// Counts one request from the client address `ip` (an empty one is not counted).
    pub async fn count_client(&self, tenant: &str, ip: &str) -> Result<(), AuthError> {
        if ip.is_empty() {
            return Ok(());
        }
        self.count(&key("ip", tenant, ip), HOUR, self.limits.per_ip_per_hour, "too many requests from this address").await
    }

    /// Makes and stores a code after the limits allow it; returns it with the seconds before another
    /// may be asked for. The answer never depends on whether the address has an account.
    pub async fn issue(&self, tenant: &str, mail: &Mail) -> Result<(String, u64), AuthError> {
        let resend = self.limits.resend_seconds;
        if resend > 0 {
            self.count(&key("resend", tenant, mail.as_str()), Duration::from_secs(resend), 1, "a code was sent to this address a moment ago")
                .await?;
        }
        self.count(&key("day", tenant, mail.as_str()), DAY, self.limits.per_address_per_day, "too many codes for this address today")
            .await?;
        self.count(&key("tenant-day", tenant, ""), DAY, self.limits.per_tenant_per_day, "too many codes sent today").await?;
        let code = format!("{:06}", rand::rng().random_range(0..1_000_000u32));
        // A fresh nonce per code gives each code its own try counter.
        let nonce = uuid::Uuid::new_v4().simple().to_string();
        let stored = format!("{nonce}:{}", self.hash(tenant, mail, &code)?);
        self.cache.set(&key("code", tenant, mail.as_str()), &stored, Some(self.limits.code_ttl)).await?;
        Ok((code, resend))
    }

    fn hash(&self, tenant: &str, mail: &Mail, code: &str) -> Result<String, AuthError> {
        Ok(self.keys.mac("sign-in code", format!("{tenant}\n{}\n{code}", mail.as_str()).as_bytes())?)
    }

    /// Consumes the code if it matches. Each check first takes a number from the code's counter;
    /// only the first [`MAX_TRIES`] are compared, and a wrong fifth burns the code.
    pub async fn check(&self, tenant: &str, mail: &Mail, code: &str) -> Result<(), AuthError> {
        let wrong = || AuthError::Refused(WRONG_CODE.into());
        let code_key = key("code", tenant, mail.as_str());
        let Some(stored) = self.cache.get(&code_key).await? else { return Err(wrong()) };
        let Some((nonce, hash)) = stored.split_once(':') else { return Err(wrong()) };
        let tries_key = key("tries", tenant, nonce);
        let n = self.cache.incr(&tries_key, self.limits.code_ttl).await?;
        if n > MAX_TRIES {
            return Err(wrong());
        }
        self.compared.fetch_add(1, Ordering::Relaxed);
        let well_formed = code.len() == 6 && code.bytes().all(|b| b.is_ascii_digit());
        if well_formed && constant_time_eq(self.hash(tenant, mail, code)?.as_bytes(), hash.as_bytes()) {
            // `take` makes the code single-use even when two right answers race.
            if self.cache.take(&code_key).await?.as_deref() != Some(stored.as_str()) {
                return Err(wrong());
            }
            return Ok(());
        }
        if n == MAX_TRIES {
            // The counter outlives the code, so every later check is refused before comparing.
            tracing::info!(tenant, "a code was burned after {MAX_TRIES} wrong tries");
        }
        Err(wrong())
    }
}

fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
