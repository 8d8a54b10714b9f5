//! The delivery relay, one background loop per ring service process: it reads the outbox rows that
//! are due, claims each (so replicas never deliver one row at once), hands the delivery to the
//! variant's platform and records the answer with the order's state in one transaction. A try that
//! does not reach the platform is postponed with exponential backoff and full jitter, bounded by
//! `[ring] first_retry_seconds` and `max_retry_seconds`; after `delivery_attempts` tries the order
//! fails with "ring platform unreachable" (a new upload may retry it).

use std::time::Duration;

use futures::StreamExt;
use rand::Rng;
use reelforge_kit::config::RingConfig;
use reelforge_kit::db::now_millis;
use reelforge_kit::metrics::RING_DELIVERIES;
use reelforge_kit::{BlobStore, Keyring};
use sha2::Digest;
use tokio::sync::watch;

use crate::domain::{Action, Order, Outcome, RingError, moves};
use crate::platform::{CoverRef, Delivery, Platforms, VideoRef};
use crate::store::{OutboxEntry, RingStore};

/// Outbox rows delivered per pass.
const BATCH: u64 = 20;
/// How often the loop looks without being woken (other processes' uploads, postponed rows).
const IDLE: Duration = Duration::from_millis(500);

/// How the relay retries and what its deliveries carry.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct RelaySettings {
    /// Tries per delivery before the order fails.
    pub attempts: u32,
    /// The first retry's backoff ceiling; each further retry doubles it.
    pub first_retry: Duration,
    /// The highest backoff ceiling.
    pub max_retry: Duration,
    /// The gateway's address as a platform reaches it, before the signed file URLs.
    pub public_base_url: String,
    /// How long the signed file URLs of a delivery stay valid.
    pub file_url_lifetime: Duration,
}

impl RelaySettings {
    /// The settings of `[ring]`.
    pub fn from_config(c: &RingConfig) -> Self {
        Self {
            attempts: c.delivery_attempts.max(1),
            first_retry: Duration::from_secs(c.first_retry_seconds),
            max_retry: Duration::from_secs(c.max_retry_seconds.max(c.first_retry_seconds)),
            public_base_url: c.public_base_url.trim().to_owned(),
            file_url_lifetime: Duration::from_secs(c.file_url_hours.max(1).saturating_mul(3600)),
        }
    }
}

/// The wait before try `attempt + 1` after `attempt` tries failed: a uniformly random time up to
/// `first · 2^(attempt−1)`, capped at `max` (full jitter: replicas and orders retrying after one
/// outage spread out instead of arriving together).
pub fn backoff(attempt: u32, first: Duration, max: Duration) -> Duration {
    let doubling = 1u32
        .checked_shl(attempt.saturating_sub(1).min(31))
        .unwrap_or(u32::MAX);
    let ceiling = first.saturating_mul(doubling).min(max);
    let ms = u64::try_from(ceiling.as_millis()).unwrap_or(u64::MAX);
    Duration::from_millis(rand::rng().random_range(0..=ms))
}

/// The relay over its store, platforms and storage.
#[derive(Clone)]
pub struct Relay {
    store: RingStore,
    platforms: Platforms,
    blob: BlobStore,
    keys: Keyring,
    settings: RelaySettings,
}

impl Relay {
    /// A relay delivering `store`'s outbox to `platforms`, reading videos from `blob` and signing
    /// their URLs with `keys`.
    pub fn new(
        store: RingStore,
        platforms: Platforms,
        blob: BlobStore,
        keys: Keyring,
        settings: RelaySettings,
    ) -> Self {
        Self {
            store,
            platforms,
            blob,
            keys,
            settings,
        }
    }

    /// Delivers until `shutdown` turns true.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        let signal = self.store.outbox_signal();
        // A dropped sender can no longer ask for a shutdown; its channel would answer at once,
        // every time, and turn the wait into a busy loop.
        let mut listening = true;
        loop {
            if *shutdown.borrow() {
                return;
            }
            if let Err(e) = self.pass().await {
                tracing::warn!(error = %e, "ring delivery pass failed");
            }
            tokio::select! {
                _ = signal.notified() => {}
                _ = tokio::time::sleep(IDLE) => {}
                changed = shutdown.changed(), if listening => listening = changed.is_ok(),
            }
        }
    }

    /// One pass over the rows due now; answers how many were tried.
    pub async fn pass(&self) -> Result<usize, RingError> {
        let mut tried = 0;
        for entry in self.store.due(BATCH).await? {
            if !self.store.claim(&entry).await? {
                continue;
            }
            tried += 1;
            self.deliver(&entry).await?;
        }
        Ok(tried)
    }

    async fn deliver(&self, entry: &OutboxEntry) -> Result<(), RingError> {
        let Some(order) = self.store.order(entry.order_id).await? else {
            return self.store.drop_entry(entry.id).await;
        };
        let delivery = match self.delivery(&order, entry.action).await {
            Ok(d) => d,
            Err(e) => return self.retry_or_fail(entry, &order, &e.to_string()).await,
        };
        let outcome = self.platforms.of(&order.tenant).deliver(&delivery).await;
        match moves::delivered(entry.action, &outcome) {
            Some((state, reason)) => {
                let reference = match &outcome {
                    Outcome::Accepted { reference } if entry.action == Action::Set => {
                        Some(reference.as_str())
                    }
                    _ => None,
                };
                let moved = self
                    .store
                    .finish(entry, state, &reason, false, reference)
                    .await?;
                RING_DELIVERIES
                    .with_label_values(&[entry.action.as_str(), "answered"])
                    .inc();
                tracing::info!(
                    order_id = order.id,
                    action = entry.action.as_str(),
                    state = state.code(),
                    moved,
                    "ring delivery answered"
                );
                Ok(())
            }
            None => {
                let error = match outcome {
                    Outcome::Unreachable { error } => error,
                    _ => String::new(),
                };
                self.retry_or_fail(entry, &order, &error).await
            }
        }
    }

    async fn retry_or_fail(
        &self,
        entry: &OutboxEntry,
        order: &Order,
        error: &str,
    ) -> Result<(), RingError> {
        let attempts = entry.attempts + 1;
        if attempts >= self.settings.attempts {
            let (state, reason) = moves::exhausted(entry.action);
            tracing::error!(order_id = order.id, action = entry.action.as_str(), attempts, %error, "ring delivery given up");
            // A set that never reached the platform may be uploaded again.
            self.store
                .finish(entry, state, &reason, entry.action == Action::Set, None)
                .await?;
            RING_DELIVERIES
                .with_label_values(&[entry.action.as_str(), "given_up"])
                .inc();
            return Ok(());
        }
        let wait = backoff(attempts, self.settings.first_retry, self.settings.max_retry);
        let next = now_millis() + i64::try_from(wait.as_millis()).unwrap_or(i64::MAX / 2);
        tracing::warn!(order_id = order.id, action = entry.action.as_str(), attempts, %error, wait_ms = wait.as_millis(), "ring platform not reached; retrying later");
        self.store.postpone(entry, attempts, next, error).await?;
        RING_DELIVERIES
            .with_label_values(&[entry.action.as_str(), "retried"])
            .inc();
        Ok(())
    }

    /// The delivery of `order`: its video's signed URL, size and SHA-256 (read once, then kept on
    /// the order), and its cover's signed URL.
    async fn delivery(&self, order: &Order, action: Action) -> Result<Delivery, RingError> {
        let (bytes, sha256) = match self.store.video_digest(order.id).await? {
            Some(d) => d,
            None => {
                let d = self.digest(&order.video_key).await?;
                self.store.set_video_digest(order.id, d.0, &d.1).await?;
                d
            }
        };
        let expires = u64::try_from(chrono::Utc::now().timestamp())
            .unwrap_or(0)
            .saturating_add(self.settings.file_url_lifetime.as_secs());
        let sign = |key: &str| {
            reelforge_kit::signed::url(&self.keys, &self.settings.public_base_url, key, expires)
                .map_err(|e| RingError::Blob(e.to_string()))
        };
        Ok(Delivery {
            order_id: order.id,
            tenant: order.tenant.clone(),
            phone: order.phone.clone(),
            task_id: order.task_id,
            video: VideoRef {
                url: sign(&order.video_key)?,
                bytes,
                sha256,
            },
            cover: CoverRef {
                url: if order.cover_key.is_empty() {
                    String::new()
                } else {
                    sign(&order.cover_key)?
                },
            },
            action: action.as_str(),
        })
    }

    /// The size and SHA-256 of the object under `key`, streamed.
    async fn digest(&self, key: &str) -> Result<(u64, String), RingError> {
        let blob = |e: reelforge_kit::BlobError| RingError::Blob(e.to_string());
        let size = self.blob.size(key).await.map_err(blob)?;
        let chunks = self.blob.stream(key, 0..size).await.map_err(blob)?;
        let mut chunks = std::pin::pin!(chunks);
        let mut hasher = sha2::Sha256::new();
        let mut read = 0u64;
        while let Some(chunk) = chunks.next().await {
            let chunk = chunk.map_err(|e| RingError::Blob(e.to_string()))?;
            read += chunk.len() as u64;
            hasher.update(&chunk);
        }
        Ok((
            read,
            hasher
                .finalize()
                .iter()
                .map(|b| format!("{b:02x}"))
                .collect(),
        ))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn backoff_is_bounded_and_grows() {
        let first = Duration::from_secs(2);
        let max = Duration::from_secs(300);
        for attempt in 1..40 {
            let ceiling = first
                .saturating_mul(2u32.saturating_pow(attempt - 1))
                .min(max);
            for _ in 0..20 {
                assert!(backoff(attempt, first, max) <= ceiling, "attempt {attempt}");
            }
        }
        let late: Vec<Duration> = (0..50).map(|_| backoff(10, first, max)).collect();
        assert!(
            late.iter().any(|d| *d > first * 4),
            "later retries wait longer: {late:?}"
        );
        assert!(backoff(1, Duration::ZERO, max).is_zero());
    }
}
