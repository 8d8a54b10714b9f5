//! The editor's autosave: the latest editor state of a task, one per user and task, kept in the
//! cache (in-process when embedded, Redis when distributed) so the editor can offer a restore after
//! a crash or reload. Kept for [`KEEP`]; each store replaces the last.

use std::sync::Arc;
use std::time::Duration;

use reelforge_kit::Cache;
use reelforge_kit::db::now_millis;

use crate::domain::{History, MAX_HISTORY_BYTES, Owner, TaskError};

/// How long an editor state is kept after its last store.
pub const KEEP: Duration = Duration::from_secs(7 * 24 * 3600);

/// The editor states of every user, in the cache.
#[derive(Clone)]
pub struct HistoryStore {
    cache: Arc<dyn Cache>,
}

/// The cache key of a user's state of a task; every unsaved new task of a user shares `new`.
fn key(owner: &Owner, task_id: i64) -> String {
    let task = if task_id > 0 { task_id.to_string() } else { "new".to_owned() };
    format!("history:{}:{}:{task}", owner.tenant, owner.user_id)
}

impl HistoryStore {
    /// Keeps states in `cache`.
    pub fn new(cache: Arc<dyn Cache>) -> Self {
        Self { cache }
    }

    /// Keeps `history` as the owner's latest state of the task; returns when it was stored. The
    /// caller has checked the task is the owner's.
    pub async fn store(&self, owner: &Owner, task_id: i64, history: &str) -> Result<i64, TaskError> {
        if history.len() > MAX_HISTORY_BYTES {
            return Err(TaskError::Invalid(format!(
                "history: {} bytes, over the limit of {} MB",
                history.len(),
                MAX_HISTORY_BYTES >> 20
            )));
        }
        if history.trim().is_empty() {
            return Err(TaskError::Invalid("history: empty".into()));
        }
        if serde_json::from_str::<serde::de::IgnoredAny>(history).is_err() {
            return Err(TaskError::Invalid("history: not a JSON text".into()));
        }
        let now = now_millis();
        self.cache.set(&key(owner, task_id), &format!("{now}:{history}"), Some(KEEP)).await?;
        Ok(now)
    }

    /// The owner's latest state of the task; empty with `stored_ms` 0 when none is kept.
    pub async fn get(&self, owner: &Owner, task_id: i64) -> Result<History, TaskError> {
        let Some(text) = self.cache.get(&key(owner, task_id)).await? else {
            return Ok(History::default());
        };
        let (ms, history) = text.split_once(':').unwrap_or(("0", ""));
        match ms.parse::<i64>() {
            Ok(stored_ms) => Ok(History { stored_ms, history: history.to_owned() }),
            Err(_) => Ok(History::default()),
        }
    }

    /// Forgets the owner's state of the task (the task was deleted).
    pub async fn forget(&self, owner: &Owner, task_id: i64) -> Result<(), TaskError> {
        self.cache.delete(&key(owner, task_id)).await?;
        Ok(())
    }
}
