//! The cache for verification codes, edit history and rate limits: an in-process store with TTLs
//! (embedded) or Redis (distributed), chosen by URL.

mod memory;
mod redis;

use std::sync::Arc;
use std::time::Duration;

pub use memory::MemoryCache;
pub use redis::RedisCache;

/// Why a cache call failed.
#[derive(Debug, thiserror::Error)]
pub enum CacheError {
    /// The cache URL is not `memory://` or `redis://…`.
    #[error("unsupported cache url `{0}` (expected memory:// or redis://host:port)")]
    Url(String),
    /// Redis could not be reached or refused the command.
    #[error("redis: {0}")]
    Redis(String),
}

/// A string key-value store with expiry.
#[async_trait::async_trait]
pub trait Cache: Send + Sync {
    /// Returns the value under `key`, if present and not expired.
    async fn get(&self, key: &str) -> Result<Option<String>, CacheError>;
    /// Stores `value` under `key`, expiring after `ttl` when given.
    async fn set(&self, key: &str, value: &str, ttl: Option<Duration>) -> Result<(), CacheError>;
    /// Removes `key`; returns whether it existed.
    async fn delete(&self, key: &str) -> Result<bool, CacheError>;
    /// Returns and removes the value under `key` in one step (single-use codes).
    async fn take(&self, key: &str) -> Result<Option<String>, CacheError>;
    /// Adds one to the counter under `key` and returns the new value; a new counter expires after `ttl`.
    async fn incr(&self, key: &str, ttl: Duration) -> Result<i64, CacheError>;
    /// The time `key` has left; none when it is absent or never expires.
    async fn ttl(&self, key: &str) -> Result<Option<Duration>, CacheError>;
    /// Answers whether the backend is reachable.
    async fn ping(&self) -> Result<(), CacheError>;
}

/// Opens the cache named by `url`.
pub async fn open(url: &str) -> Result<Arc<dyn Cache>, CacheError> {
    if url.starts_with("memory:") {
        Ok(Arc::new(MemoryCache::default()))
    } else if url.starts_with("redis://") || url.starts_with("rediss://") {
        Ok(Arc::new(RedisCache::connect(url).await?))
    } else {
        Err(CacheError::Url(url.to_owned()))
    }
}
