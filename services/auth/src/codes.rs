//! One-time sign-in codes in the cache: kept only as a keyed hash, a short life, one new code per
//! mail address per interval, per-mail and per-tenant daily limits, and a try counter that burns the
//! code on the fifth wrong try. Every counter is one atomic cache increment, so concurrent guesses
//! cannot check a code more than [`MAX_TRIES`] times.
//!
//! Client addresses are limited so that many users behind one (a carrier's NAT, an office) can
//! still sign in: a limit per (client address, mail) pair; past a per-address threshold each code
//! needs a solved proof-of-work challenge instead of a wait; a ceiling far above it stays hard.

use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use rand::Rng;
use reelforge_kit::config::AuthConfig;
use reelforge_kit::{Cache, Keyring};

use crate::challenge::{Challenges, Proof};
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
    /// Codes and sign-in tries per (client address, mail) pair per hour.
    pub per_ip_mail_per_hour: i64,
    /// Requests per client address per hour before each further code needs a solved challenge.
    pub challenge_after_per_ip_per_hour: i64,
    /// Requests per client address per hour, challenges solved or not.
    pub per_ip_per_hour: i64,
    /// Leading zero bits of a challenge.
    pub challenge_bits: u32,
    /// Life of a challenge.
    pub challenge_ttl: Duration,
    /// Codes per tenant per day.
    pub per_tenant_per_day: i64,
    /// The window of the per-client-address limits ("per hour"): a fixed window from the first
    /// request, so a client refused for the rest of it is let in again once it ends.
    pub client_window: Duration,
}

impl Limits {
    /// The limits configured under `auth`.
    pub fn from_config(c: &AuthConfig) -> Self {
        Self {
            code_ttl: Duration::from_secs(c.code_ttl_seconds.max(1)),
            resend_seconds: c.resend_seconds,
            per_address_per_day: i64::from(c.codes_per_address_per_day),
            per_ip_mail_per_hour: i64::from(c.requests_per_ip_mail_per_hour),
            challenge_after_per_ip_per_hour: i64::from(c.challenge_after_per_ip_per_hour),
            per_ip_per_hour: i64::from(c.requests_per_ip_per_hour),
            challenge_bits: c.challenge_bits,
            challenge_ttl: Duration::from_secs(c.challenge_ttl_seconds.max(1)),
            per_tenant_per_day: i64::from(c.codes_per_tenant_per_day),
            client_window: HOUR,
        }
    }
}

/// Issues and checks codes.
#[derive(Clone)]
pub struct Codes {
    cache: Arc<dyn Cache>,
    keys: Keyring,
    limits: Limits,
    challenges: Challenges,
    compared: Arc<AtomicU64>,
}

/// What a client asks for, as the address limits see it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Ask<'a> {
    /// A code for this mail address; past the threshold it needs a solved challenge.
    Code(&'a Mail),
    /// A sign-in with a code for this mail address.
    Login(&'a Mail),
    /// A hand-off sign-in.
    Handoff,
}

fn key(kind: &str, tenant: &str, who: &str) -> String {
    format!("auth:{kind}:{tenant}:{who}")
}

impl Codes {
    /// Codes over `cache`, hashed under the signing key of `keys`.
    pub fn new(cache: Arc<dyn Cache>, keys: Keyring, limits: Limits) -> Self {
        let challenges = Challenges::new(cache.clone(), keys.clone(), limits.challenge_bits, limits.challenge_ttl);
        Self { cache, keys, limits, challenges, compared: Arc::new(AtomicU64::new(0)) }
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
        Err(self.wait(key, window, what).await?)
    }

    /// Counts one request from the client address `ip` (an empty one is not counted) against the
    /// address's ceiling and, for a mail address, the pair's limit. Past the address's threshold a
    /// code needs `proof`: without one the answer is a challenge, with a refused one a fresh
    /// challenge; sign-ins and hand-offs are bounded by their own checks and never challenged.
    pub async fn admit(&self, tenant: &str, ip: &str, ask: Ask<'_>, proof: Option<&Proof>) -> Result<(), AuthError> {
        if ip.is_empty() {
            return Ok(());
        }
        let ip_key = key("ip", tenant, ip);
        let window = self.limits.client_window;
        let n = self.cache.incr(&ip_key, window).await?;
        if n > self.limits.per_ip_per_hour {
            return Err(self.wait(&ip_key, window, "too many requests from this address").await?);
        }
        let (Ask::Code(mail) | Ask::Login(mail)) = ask else { return Ok(()) };
        let pair = key("ip-mail", tenant, &format!("{ip}/{}", mail.as_str()));
        self.count(&pair, window, self.limits.per_ip_mail_per_hour, "too many requests for this mail address from this address").await?;
        if !matches!(ask, Ask::Code(_)) || n <= self.limits.challenge_after_per_ip_per_hour {
            return Ok(());
        }
        let Some(proof) = proof.filter(|p| !p.token.is_empty()) else {
            return Err(AuthError::ChallengeRequired(self.challenges.issue(tenant, ip)?));
        };
        match self.challenges.redeem(tenant, ip, proof).await? {
            Ok(()) => Ok(()),
            Err(why) => Err(AuthError::ChallengeFailed { why, challenge: self.challenges.issue(tenant, ip)? }),
        }
    }

    /// The refusal of a counter past its limit: the wait is the counter's time left.
    async fn wait(&self, key: &str, window: Duration, what: &str) -> Result<AuthError, AuthError> {
        let wait = self.cache.ttl(key).await?.map_or(window.as_secs(), |t| t.as_secs().max(1));
        Ok(AuthError::RateLimited { what: what.to_owned(), wait_seconds: wait })
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

/// Compares without an early exit, so the time taken says nothing of where two MACs differ.
pub(crate) fn constant_time_eq(a: &[u8], b: &[u8]) -> bool {
    a.len() == b.len() && a.iter().zip(b).fold(0u8, |acc, (x, y)| acc | (x ^ y)) == 0
}
