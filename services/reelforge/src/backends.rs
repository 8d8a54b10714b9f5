//! Opens the backends a target needs, each failure a one-line error naming the backend and URL.

use std::sync::Arc;

use reelforge_kit::{BlobStore, Cache, Config, EventBus, JobQueue, bus, cache, db, queue};
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
    /// Event bus of render progress and cancels (on the queue's broker, or in-process).
    pub bus: Option<Arc<dyn EventBus>>,
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
            // A worker's prefetch is its concurrency, so it never holds jobs it cannot start.
            let mut queue_config = config.queue.clone();
            if matches!(target, Target::Worker | Target::All) {
                queue_config.prefetch = config.worker.concurrency.max(1);
            }
            let q = queue::open(&queue_config, &conn)
                .await
                .map_err(|e| format!("queue {}: {e}", redact(&config.queue.url)))?;
            b.queue = Some(q);
            let events = bus::open(&config.queue.url)
                .await
                .map_err(|e| format!("event bus {}: {e}", redact(&config.queue.url)))?;
            b.bus = Some(events);
        }
        if target.needs(Backend::Storage) {
            let url = config.storage_url();
            let store =
                BlobStore::open_with(&url, &config.timeouts).map_err(|e| format!("storage {}: {e}", redact(&url)))?;
            store
                .check()
                .await
                .map_err(|e| format!("storage {}: {e}", redact(&url)))?;
            b.blob = Some(store);
        }
        Ok(b)
    }

    /// Answers whether every opened backend answers now, naming the first that does not.
    pub async fn check(&self) -> Result<(), String> {
        let limit = std::time::Duration::from_secs(2);
        let within = |what: &'static str| move |_| format!("{what}: no answer within 2 s");
        if let Some(db) = &self.db {
            tokio::time::timeout(limit, db.ping())
                .await
                .map_err(within("database"))?
                .map_err(|e| format!("database: {e}"))?;
        }
        if let Some(c) = &self.cache {
            tokio::time::timeout(limit, c.ping())
                .await
                .map_err(within("cache"))?
                .map_err(|e| format!("cache: {e}"))?;
        }
        if let Some(q) = &self.queue {
            tokio::time::timeout(limit, q.ping())
                .await
                .map_err(within("queue"))?
                .map_err(|e| format!("queue: {e}"))?;
        }
        if let Some(b) = &self.bus {
            tokio::time::timeout(limit, b.ping())
                .await
                .map_err(within("event bus"))?
                .map_err(|e| format!("event bus: {e}"))?;
        }
        if let Some(s) = &self.blob {
            tokio::time::timeout(limit, s.check())
                .await
                .map_err(within("storage"))?
                .map_err(|e| format!("storage: {e}"))?;
        }
        Ok(())
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
    /// The event bus.
    pub fn bus(&self) -> Result<Arc<dyn EventBus>, String> {
        self.bus
            .clone()
            .ok_or_else(|| "event bus: not opened for this target".to_owned())
    }
    /// The blob store.
    pub fn blob(&self) -> Result<BlobStore, String> {
        self.blob
            .clone()
            .ok_or_else(|| "storage: not opened for this target".to_owned())
    }
}
