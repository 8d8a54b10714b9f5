//! Where ring orders are delivered: a variant's carrier platform over signed HTTP
//! ([`HttpPlatform`]), or the ring platform inside the binary ([`LocalPlatform`]), chosen per
//! variant by `[ring.platforms.<variant>]`.

mod http;
mod local;

use std::collections::BTreeMap;
use std::sync::Arc;

use reelforge_kit::config::{RingConfig, TimeoutConfig};
use serde::Serialize;

pub use http::{HttpPlatform, signature};
pub use local::LocalPlatform;

use crate::domain::{Action, Outcome, Phone};
use crate::store::RingStore;

/// The video of a delivery: a URL the platform can fetch, its size and SHA-256 (hex).
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct VideoRef {
    /// A signed URL of the MP4.
    pub url: String,
    /// Its size in bytes.
    pub bytes: u64,
    /// Its SHA-256, lower-case hex.
    pub sha256: String,
}

/// The cover of a delivery.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
pub struct CoverRef {
    /// A signed URL of the cover picture.
    pub url: String,
}

/// One delivery, serialised as the body of docs/ringtone.md.
#[derive(Debug, Clone, PartialEq, Eq, Serialize)]
#[serde(rename_all = "camelCase")]
pub struct Delivery {
    /// The order.
    pub order_id: i64,
    /// The variant.
    pub tenant: String,
    /// The 11-digit number.
    pub phone: String,
    /// The task whose video it is.
    pub task_id: i64,
    /// The video.
    pub video: VideoRef,
    /// The cover.
    pub cover: CoverRef,
    /// `set` or `cancel`.
    pub action: &'static str,
}

impl Delivery {
    /// The idempotency key of the delivery: `<orderId>-<action>`.
    pub fn idempotency_key(&self) -> String {
        format!("{}-{}", self.order_id, self.action)
    }

    /// The action delivered.
    pub fn action(&self) -> Action {
        Action::parse(self.action).unwrap_or(Action::Set)
    }
}

/// A carrier's ring platform.
#[async_trait::async_trait]
pub trait RingPlatform: Send + Sync {
    /// Delivers once; every failure to get an answer is [`Outcome::Unreachable`].
    async fn deliver(&self, delivery: &Delivery) -> Outcome;
    /// Whether the number may receive a video ringtone, as far as the platform says before a delivery.
    async fn joined(&self, phone: &Phone) -> bool;
}

/// The platform of each variant.
#[derive(Clone)]
pub struct Platforms {
    by_variant: BTreeMap<String, Arc<dyn RingPlatform>>,
    fallback: Arc<dyn RingPlatform>,
}

impl Platforms {
    /// The platforms `config` names: a variant with a `url` is delivered over HTTP (its `secret`
    /// is required, and `public_base_url` too), every other one to the platform inside the binary.
    /// A refusal is one line naming the value.
    pub fn from_config(
        config: &RingConfig,
        timeouts: &TimeoutConfig,
        store: RingStore,
    ) -> Result<Self, String> {
        let mut by_variant: BTreeMap<String, Arc<dyn RingPlatform>> = BTreeMap::new();
        for (variant, p) in &config.platforms {
            let platform: Arc<dyn RingPlatform> = if p.url.trim().is_empty() {
                Arc::new(LocalPlatform::new(store.clone(), &p.not_joined))
            } else {
                if p.secret.is_empty() {
                    return Err(format!(
                        "ring.platforms.{variant}.secret is required with ring.platforms.{variant}.url"
                    ));
                }
                if config.public_base_url.trim().is_empty() {
                    return Err(format!(
                        "ring.public_base_url is required with ring.platforms.{variant}.url (the platform fetches the video from it)"
                    ));
                }
                Arc::new(
                    HttpPlatform::new(p.url.trim(), p.secret.as_bytes(), timeouts)
                        .map_err(|e| format!("ring.platforms.{variant}.url: {e}"))?,
                )
            };
            by_variant.insert(variant.clone(), platform);
        }
        Ok(Self {
            by_variant,
            fallback: Arc::new(LocalPlatform::new(store, &[])),
        })
    }

    /// The platform of `variant` (the one inside the binary for a variant not configured).
    pub fn of(&self, variant: &str) -> Arc<dyn RingPlatform> {
        self.by_variant
            .get(variant)
            .cloned()
            .unwrap_or_else(|| self.fallback.clone())
    }
}
