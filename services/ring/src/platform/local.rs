//! The ring platform inside the binary, the embedded default: it records each delivery as a receipt
//! in the database (once per idempotency key) and answers a reference, so the whole flow works on
//! one machine; numbers in `not_joined` are answered as having no video-ringtone service.

use std::collections::BTreeSet;

use super::{Delivery, RingPlatform};
use crate::domain::{Outcome, Phone};
use crate::store::RingStore;

/// The platform inside the binary.
pub struct LocalPlatform {
    store: RingStore,
    not_joined: BTreeSet<String>,
}

impl LocalPlatform {
    /// Records receipts in `store`; `not_joined` numbers (as typed in configuration) have no service.
    pub fn new(store: RingStore, not_joined: &[String]) -> Self {
        let not_joined = not_joined
            .iter()
            .filter_map(|n| Phone::parse(n).ok())
            .map(|p| p.as_str().to_owned())
            .collect();
        Self { store, not_joined }
    }
}

#[async_trait::async_trait]
impl RingPlatform for LocalPlatform {
    async fn deliver(&self, d: &Delivery) -> Outcome {
        if self.not_joined.contains(&d.phone) {
            return Outcome::NotJoined;
        }
        match self
            .store
            .receipt(
                &d.tenant,
                &d.idempotency_key(),
                d.order_id,
                d.action(),
                &d.phone,
                d.task_id,
            )
            .await
        {
            Ok(reference) => Outcome::Accepted { reference },
            Err(e) => Outcome::Unreachable {
                error: e.to_string(),
            },
        }
    }

    async fn joined(&self, phone: &Phone) -> bool {
        !self.not_joined.contains(phone.as_str())
    }
}
