//! Proof-of-work challenges for a client address past its hourly threshold. A challenge is a token
//! the server signs (HMAC under the signing key) for one tenant, one client address and a short life;
//! the client finds a solution such that `SHA-256(token ":" solution)` starts with the token's
//! number of zero bits, and a solved token is accepted once (its nonce is marked in the cache).
//!
//! Token: `c1.<bits>.<expires, unix seconds>.<nonce>.<hmac>`. No crate was taken for this: the one
//! hashcash crate is an unmaintained SHA-1 stamp format (LGPL) without binding or single use.

use std::sync::Arc;
use std::time::Duration;

use reelforge_kit::{Cache, Keyring};
use sha2::{Digest, Sha256};

use crate::domain::AuthError;

const VERSION: &str = "c1";
const PURPOSE: &str = "sign-in challenge";
/// The longest solution accepted.
const MAX_SOLUTION: usize = 64;
/// The most bits a challenge may ask for; more could not be solved in a browser.
pub const MAX_BITS: u32 = 32;

/// A challenge as the client gets it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Challenge {
    /// The signed token, sent back with the solution.
    pub token: String,
    /// Leading zero bits `SHA-256(token ":" solution)` must have.
    pub bits: u32,
}

/// A client's answer to a challenge.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Proof {
    /// The challenge's token.
    pub token: String,
    /// The solution found.
    pub solution: String,
}

/// Why a proof was refused.
#[derive(Debug, Clone, Copy, PartialEq, Eq, thiserror::Error)]
pub enum ProofError {
    /// Not a token of ours, or one for another address or tenant.
    #[error("the challenge is not valid for this address")]
    Forged,
    /// Its life is over.
    #[error("the challenge has expired")]
    Expired,
    /// The solution's hash has too few leading zero bits.
    #[error("the solution does not solve the challenge")]
    Wrong,
    /// It was accepted before.
    #[error("the challenge was already used")]
    Used,
}

/// Issues and redeems challenges.
#[derive(Clone)]
pub struct Challenges {
    cache: Arc<dyn Cache>,
    keys: Keyring,
    bits: u32,
    ttl: Duration,
}

fn now() -> u64 {
    jsonwebtoken::get_current_timestamp()
}

impl Challenges {
    /// Challenges of `bits` (at most [`MAX_BITS`]) that live `ttl`, signed under `keys`.
    pub fn new(cache: Arc<dyn Cache>, keys: Keyring, bits: u32, ttl: Duration) -> Self {
        Self { cache, keys, bits: bits.min(MAX_BITS), ttl }
    }

    fn mac(&self, tenant: &str, ip: &str, bits: u32, expires: u64, nonce: &str) -> Result<String, AuthError> {
        Ok(self.keys.mac(PURPOSE, format!("{tenant}\n{ip}\n{bits}\n{expires}\n{nonce}").as_bytes())?)
    }

    /// A fresh challenge for the client address `ip` of `tenant`.
    pub fn issue(&self, tenant: &str, ip: &str) -> Result<Challenge, AuthError> {
        let expires = now() + self.ttl.as_secs().max(1);
        let nonce = uuid::Uuid::new_v4().simple().to_string();
        let mac = self.mac(tenant, ip, self.bits, expires, &nonce)?;
        Ok(Challenge { token: format!("{VERSION}.{}.{expires}.{nonce}.{mac}", self.bits), bits: self.bits })
    }

    /// Accepts `proof` once when it solves a live challenge issued to `ip` of `tenant`; a refusal
    /// names why. The cache fails as an error of its own.
    pub async fn redeem(&self, tenant: &str, ip: &str, proof: &Proof) -> Result<Result<(), ProofError>, AuthError> {
        let parts: Vec<&str> = proof.token.split('.').collect();
        let [VERSION, bits, expires, nonce, mac] = parts.as_slice() else { return Ok(Err(ProofError::Forged)) };
        let (Ok(bits), Ok(expires)) = (bits.parse::<u32>(), expires.parse::<u64>()) else { return Ok(Err(ProofError::Forged)) };
        let signed = self.mac(tenant, ip, bits, expires, nonce)?;
        // A token of fewer bits than configured now (the setting was raised) is not accepted.
        if !crate::codes::constant_time_eq(signed.as_bytes(), mac.as_bytes()) || bits < self.bits {
            return Ok(Err(ProofError::Forged));
        }
        let now = now();
        if now > expires {
            return Ok(Err(ProofError::Expired));
        }
        if !solves(&proof.token, &proof.solution, bits) {
            return Ok(Err(ProofError::Wrong));
        }
        let left = Duration::from_secs(expires - now + 1);
        if self.cache.incr(&format!("auth:challenge:{tenant}:{nonce}"), left).await? != 1 {
            return Ok(Err(ProofError::Used));
        }
        Ok(Ok(()))
    }
}

/// The number of leading zero bits of `hash`.
pub fn leading_zero_bits(hash: &[u8]) -> u32 {
    let mut n = 0;
    for b in hash {
        n += b.leading_zeros();
        if *b != 0 {
            break;
        }
    }
    n
}

/// Answers whether `solution` solves `token` at `bits`.
pub fn solves(token: &str, solution: &str, bits: u32) -> bool {
    if solution.is_empty() || solution.len() > MAX_SOLUTION {
        return false;
    }
    let hash = Sha256::new().chain_update(token.as_bytes()).chain_update(b":").chain_update(solution.as_bytes()).finalize();
    leading_zero_bits(&hash) >= bits
}

/// Finds the smallest decimal solution of `token` at `bits`, as the browser does (the reference
/// for clients and tests; about 2^bits hashes).
pub fn solve(token: &str, bits: u32) -> String {
    let bits = bits.min(MAX_BITS);
    (0u64..).map(|n| n.to_string()).find(|s| solves(token, s, bits)).unwrap_or_default()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn zero_bits_are_counted_across_bytes() {
        assert_eq!(leading_zero_bits(&[0, 0, 0x1f, 0xff]), 19);
        assert_eq!(leading_zero_bits(&[0x80]), 0);
        assert_eq!(leading_zero_bits(&[0, 0]), 16);
    }

    #[test]
    fn a_solution_solves_its_token_only() {
        let s = solve("c1.10.1.n.m", 10);
        assert!(solves("c1.10.1.n.m", &s, 10));
        assert!(!solves("c1.10.1.n.m", "", 0), "an empty solution");
        assert!(!solves("c1.10.1.n.m", &"1".repeat(65), 0), "too long");
    }
}
