//! The user rows behind token checks, kept briefly in process. `Verify` runs on every signed-in
//! request; reading the user table each time made it the busiest query of the system (the dev build
//! saturated near 150 req/s on SQLite pool timeouts). A user's enabled state and level change rarely
//! and only through this service, which forgets its copy when it changes them; the cache's
//! revocation marks (`reelforge_kit::revocation`) refuse a change made by another replica at once.
//! The copy lives `auth.user_check_seconds`, so the table stays the durable check: a cache restart
//! that loses those marks re-admits nothing for longer than that.

use std::time::Duration;

use crate::domain::{AuthError, User};
use crate::store::UserStore;

/// Users read for token checks, each kept a few seconds.
#[derive(Clone)]
pub struct UserChecks {
    users: UserStore,
    recent: Option<moka::sync::Cache<(String, String), User>>,
}

/// Users kept at most; beyond that the least used are read again.
const CAPACITY: u64 = 100_000;

impl UserChecks {
    /// Reads `users`, keeping each row `keep` (zero: reading it every time).
    pub fn new(users: UserStore, keep: Duration) -> Self {
        let recent = (!keep.is_zero()).then(|| moka::sync::Cache::builder().max_capacity(CAPACITY).time_to_live(keep).build());
        Self { users, recent }
    }

    /// The user `user_id` of `tenant`, if any: the kept copy, or the row.
    pub async fn find(&self, tenant: &str, user_id: &str) -> Result<Option<User>, AuthError> {
        let key = (tenant.to_owned(), user_id.to_owned());
        if let Some(user) = self.recent.as_ref().and_then(|r| r.get(&key)) {
            return Ok(Some(user));
        }
        let user = self.users.find(tenant, user_id).await?;
        if let (Some(recent), Some(user)) = (&self.recent, &user) {
            recent.insert(key, user.clone());
        }
        Ok(user)
    }

    /// Forgets the copy of a user this service just changed, so the next check reads the row.
    pub fn forget(&self, tenant: &str, user_id: &str) {
        if let Some(recent) = &self.recent {
            recent.invalidate(&(tenant.to_owned(), user_id.to_owned()));
        }
    }
}
