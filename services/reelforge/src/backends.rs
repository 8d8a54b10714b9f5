//! Opens the backends a target needs, each failure a one-line error naming the backend and URL.

use std::sync::Arc;

use reelforge_kit::{BlobStore, Cache, Config, JobQueue, cache, db, queue};
use sea_orm::DatabaseConnection;

use crate::target::{Backend, Target};

/// The opened backends; absent ones are not needed by the target.
#[derive(Clone, Default)]
pub struct Backends {
    /// Relational database.
    pub db: Option<DatabaseConnection>,
    /// Cache.
    pub cache: Option<Arc<dyn Cache>>,
    /// Job queue.
    pub queue: Option<Arc<dyn JobQueue>>,
    /// Blob storage.
    pub blob: Option<BlobStore>,
}

fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => format!("{}***{}", &url[..s + 3], &url[at..]),
        _ => url.split('?').next().unwrap_or(url).to_owned(),
    }
}

impl Backends {
    /// Opens what `target` needs (the queue may live in the database, so that is opened for it too).
    pub async fn open(target: Target, config: &Config) -> Result<Self, String> {
        let mut b = Backends::default();
        let queue_in_db = config.queue.url.starts_with("db:");
        if target.needs(Backend::Database) || (target.needs(Backend::Queue) && queue_in_db) {
            let url = config.database_url();
            let conn = db::connect(&url)
                .await
                .map_err(|e| format!("database {}: {e}", redact(&url)))?;
            b.db = Some(conn);
        }
        if target.needs(Backend::Cache) {
            let c = cache::open(&config.cache.url)
                .await
                .map_err(|e| format!("cache {}: {e}", redact(&config.cache.url)))?;
            b.cache = Some(c);
        }
        if target.needs(Backend::Queue) {
            let conn = match &b.db {
                Some(d) => d.clone(),
                None => db::connect("sqlite::memory:")
                    .await
                    .map_err(|e| format!("queue: {e}"))?,
            };
            let q = queue::open(&config.queue, &conn)
                .await
                .map_err(|e| format!("queue {}: {e}", redact(&config.queue.url)))?;
            b.queue = Some(q);
        }
        if target.needs(Backend::Storage) {
            let url = config.storage_url();
            let store =
                BlobStore::open(&url).map_err(|e| format!("storage {}: {e}", redact(&url)))?;
            store
                .check()
                .await
                .map_err(|e| format!("storage {}: {e}", redact(&url)))?;
            b.blob = Some(store);
        }
        Ok(b)
    }

    /// The database, or a clear error when the wiring asked for one it did not open.
    pub fn db(&self) -> Result<DatabaseConnection, String> {
        self.db
            .clone()
            .ok_or_else(|| "database: not opened for this target".to_owned())
    }
    /// The cache.
    pub fn cache(&self) -> Result<Arc<dyn Cache>, String> {
        self.cache
            .clone()
            .ok_or_else(|| "cache: not opened for this target".to_owned())
    }
    /// The queue.
    pub fn queue(&self) -> Result<Arc<dyn JobQueue>, String> {
        self.queue
            .clone()
            .ok_or_else(|| "queue: not opened for this target".to_owned())
    }
    /// The blob store.
    pub fn blob(&self) -> Result<BlobStore, String> {
        self.blob
            .clone()
            .ok_or_else(|| "storage: not opened for this target".to_owned())
    }
}
