//! A carrier's ring platform over HTTP: `POST {url}` with the JSON delivery, signed with
//! `X-Ring-Signature: sha256=<hex HMAC-SHA256(secret, body)>` and carrying `Idempotency-Key`.
//! A 2xx `{ref}` is accepted; a 4xx is refused with the platform's `reason` (or its text), or is
//! "not joined" when it says so (`{"notJoined": true}` or `{"reason": "not_joined"}`); 408, 429,
//! 5xx, a timeout or a refused connection are unreachable (tried again from the outbox).

use hmac::Mac;
use reelforge_kit::config::TimeoutConfig;

use super::{Delivery, RingPlatform};
use crate::domain::{Outcome, Phone};

/// The longest reason kept from a platform's refusal, in characters.
const REASON_CHARS: usize = 500;

/// A carrier's platform at a URL.
pub struct HttpPlatform {
    url: String,
    secret: Vec<u8>,
    client: reqwest::Client,
}

/// The signature header's value for `body`: `sha256=<hex HMAC-SHA256(secret, body)>`.
pub fn signature(secret: &[u8], body: &[u8]) -> String {
    // HMAC takes a key of any length, so this never fails.
    let hex = hmac::Hmac::<sha2::Sha256>::new_from_slice(secret)
        .map(|mut mac| {
            mac.update(body);
            mac.finalize()
                .into_bytes()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect::<String>()
        })
        .unwrap_or_default();
    format!("sha256={hex}")
}

impl HttpPlatform {
    /// The platform at `url`, signing with `secret`; connects and calls time out as `timeouts` says.
    pub fn new(url: &str, secret: &[u8], timeouts: &TimeoutConfig) -> Result<Self, reqwest::Error> {
        let client = reqwest::Client::builder()
            .connect_timeout(TimeoutConfig::of(timeouts.connect_seconds))
            .timeout(TimeoutConfig::of(timeouts.service_call_seconds))
            .build()?;
        Ok(Self {
            url: url.to_owned(),
            secret: secret.to_vec(),
            client,
        })
    }
}

#[derive(serde::Deserialize, Default)]
#[serde(rename_all = "camelCase")]
struct Answer {
    #[serde(default, rename = "ref")]
    reference: String,
    #[serde(default)]
    reason: String,
    #[serde(default)]
    not_joined: bool,
}

#[async_trait::async_trait]
impl RingPlatform for HttpPlatform {
    async fn deliver(&self, d: &Delivery) -> Outcome {
        let body = match serde_json::to_vec(d) {
            Ok(b) => b,
            Err(e) => {
                return Outcome::Unreachable {
                    error: format!("delivery body: {e}"),
                };
            }
        };
        let sent = self
            .client
            .post(&self.url)
            .header(reqwest::header::CONTENT_TYPE, "application/json")
            .header("X-Ring-Signature", signature(&self.secret, &body))
            .header("Idempotency-Key", d.idempotency_key())
            .body(body)
            .send()
            .await;
        let res = match sent {
            Ok(r) => r,
            Err(e) => {
                return Outcome::Unreachable {
                    error: e.to_string(),
                };
            }
        };
        let status = res.status();
        let text = match res.text().await {
            Ok(t) => t,
            Err(e) => {
                return Outcome::Unreachable {
                    error: format!("HTTP {status}: reading the answer: {e}"),
                };
            }
        };
        let answer: Answer = serde_json::from_str(&text).unwrap_or_default();
        if status.is_success() {
            return Outcome::Accepted {
                reference: answer.reference,
            };
        }
        let transient = status.is_server_error() || matches!(status.as_u16(), 408 | 429);
        if !status.is_client_error() || transient {
            return Outcome::Unreachable {
                error: format!("HTTP {status}"),
            };
        }
        if answer.not_joined || answer.reason == "not_joined" {
            return Outcome::NotJoined;
        }
        let reason = if answer.reason.trim().is_empty() {
            text.trim().to_owned()
        } else {
            answer.reason.trim().to_owned()
        };
        let reason = if reason.is_empty() {
            format!("refused by the ring platform (HTTP {})", status.as_u16())
        } else {
            reason
        };
        Outcome::Refused {
            reason: reason.chars().take(REASON_CHARS).collect(),
        }
    }

    /// An HTTP platform is asked nothing before a delivery: every mainland number is taken as
    /// allowed, and a delivery the platform answers "not joined" sets the order NOTJOIN.
    async fn joined(&self, _phone: &Phone) -> bool {
        true
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn signature_is_hex_hmac_sha256() {
        // RFC 4231 test case 2.
        assert_eq!(
            signature(b"Jefe", b"what do ya want for nothing?"),
            "sha256=5bdcc146bf60754e6a042426089575c75a003f089d2739839dec58b964ec3843"
        );
    }
}
