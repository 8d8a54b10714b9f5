//! The Redis cache through a reconnecting connection manager.

use std::time::Duration;

use redis::AsyncCommands;
use redis::aio::ConnectionManager;

use super::{Cache, CacheError};

/// A cache on Redis.
#[derive(Clone)]
pub struct RedisCache {
    conn: ConnectionManager,
}

fn err(e: redis::RedisError) -> CacheError {
    CacheError::Redis(e.to_string())
}

impl RedisCache {
    /// Connects to `url` and checks the server answers.
    pub async fn connect(url: &str) -> Result<Self, CacheError> {
        let client = redis::Client::open(url).map_err(err)?;
        let conn = tokio::time::timeout(Duration::from_secs(5), ConnectionManager::new(client))
            .await
            .map_err(|_| CacheError::Redis(format!("no answer from {url} within 5 s")))?
            .map_err(err)?;
        Ok(Self { conn })
    }
}

#[async_trait::async_trait]
impl Cache for RedisCache {
    async fn get(&self, key: &str) -> Result<Option<String>, CacheError> {
        self.conn.clone().get(key).await.map_err(err)
    }

    async fn set(&self, key: &str, value: &str, ttl: Option<Duration>) -> Result<(), CacheError> {
        let mut c = self.conn.clone();
        match ttl {
            Some(t) => c.pset_ex::<_, _, ()>(key, value, t.as_millis().max(1) as u64).await.map_err(err),
            None => c.set::<_, _, ()>(key, value).await.map_err(err),
        }
    }

    async fn delete(&self, key: &str) -> Result<bool, CacheError> {
        let n: i64 = self.conn.clone().del(key).await.map_err(err)?;
        Ok(n > 0)
    }

    async fn take(&self, key: &str) -> Result<Option<String>, CacheError> {
        self.conn.clone().get_del(key).await.map_err(err)
    }

    async fn incr(&self, key: &str, ttl: Duration) -> Result<i64, CacheError> {
        // The expiry is set with the key, in one transaction, so no counter outlives its window.
        let (n,): (i64,) = redis::pipe()
            .atomic()
            .cmd("SET")
            .arg(key)
            .arg(0)
            .arg("PX")
            .arg(ttl.as_millis().max(1) as u64)
            .arg("NX")
            .ignore()
            .cmd("INCR")
            .arg(key)
            .query_async(&mut self.conn.clone())
            .await
            .map_err(err)?;
        Ok(n)
    }

    async fn ttl(&self, key: &str) -> Result<Option<Duration>, CacheError> {
        let ms: i64 = self.conn.clone().pttl(key).await.map_err(err)?;
        Ok(u64::try_from(ms).ok().map(Duration::from_millis))
    }

    async fn ping(&self) -> Result<(), CacheError> {
        redis::cmd("PING").query_async::<String>(&mut self.conn.clone()).await.map(|_| ()).map_err(err)
    }
}
