//! Helpers for tests against real backends: a fresh database per test, the services' URLs from the
//! environment with loopback defaults, and unique names; a RabbitMQ node of a test's own; the fuzz
//! driver of the parsers' harnesses.

pub mod broker;
pub mod fuzz;

/// The PostgreSQL server URL used by tests (`REELFORGE_TEST_POSTGRES`, default loopback trust auth).
pub fn postgres_server() -> String {
    std::env::var("REELFORGE_TEST_POSTGRES").unwrap_or_else(|_| "postgres://postgres@127.0.0.1:5432".into())
}

/// The Redis URL used by tests.
pub fn redis_url() -> String {
    std::env::var("REELFORGE_TEST_REDIS").unwrap_or_else(|_| "redis://127.0.0.1:6379/0".into())
}

/// The RabbitMQ URL used by tests.
pub fn amqp_url() -> String {
    std::env::var("REELFORGE_TEST_AMQP").unwrap_or_else(|_| "amqp://guest:guest@127.0.0.1:5672/%2f".into())
}

/// The S3-compatible store used by tests, as a storage URL.
pub fn s3_url() -> String {
    std::env::var("REELFORGE_TEST_S3").unwrap_or_else(|_| {
        "s3://reelforge-test?endpoint=http://127.0.0.1:8333&region=us-east-1&anonymous".into()
    })
}

/// A name no other test uses.
pub fn unique(prefix: &str) -> String {
    format!("{prefix}_{}", uuid::Uuid::new_v4().simple())
}

/// Creates a fresh PostgreSQL database and returns its URL.
pub async fn fresh_postgres() -> Result<String, sea_orm::DbErr> {
    use sea_orm::ConnectionTrait;
    let server = postgres_server();
    let admin = crate::db::connect(&format!("{server}/postgres")).await?;
    let name = unique("rf");
    admin.execute_unprepared(&format!("CREATE DATABASE {name}")).await?;
    Ok(format!("{server}/{name}"))
}

/// Returns the URL of a fresh SQLite database in a new temporary directory (kept for the process).
pub fn fresh_sqlite() -> String {
    let dir = std::env::temp_dir().join(unique("reelforge-test"));
    format!("sqlite://{}?mode=rwc", dir.join("test.db").display())
}

/// `cache` with every key under `prefix:`, so that systems of parallel tests (and of earlier runs,
/// whose counters Redis keeps for an hour) sharing one Redis never see each other's keys.
pub fn namespaced(cache: std::sync::Arc<dyn crate::Cache>, prefix: &str) -> std::sync::Arc<dyn crate::Cache> {
    std::sync::Arc::new(Namespaced { inner: cache, prefix: format!("{prefix}:") })
}

struct Namespaced {
    inner: std::sync::Arc<dyn crate::Cache>,
    prefix: String,
}

impl Namespaced {
    fn key(&self, key: &str) -> String {
        format!("{}{key}", self.prefix)
    }
}

#[async_trait::async_trait]
impl crate::Cache for Namespaced {
    async fn get(&self, key: &str) -> Result<Option<String>, crate::CacheError> {
        self.inner.get(&self.key(key)).await
    }

    async fn set(&self, key: &str, value: &str, ttl: Option<std::time::Duration>) -> Result<(), crate::CacheError> {
        self.inner.set(&self.key(key), value, ttl).await
    }

    async fn delete(&self, key: &str) -> Result<bool, crate::CacheError> {
        self.inner.delete(&self.key(key)).await
    }

    async fn take(&self, key: &str) -> Result<Option<String>, crate::CacheError> {
        self.inner.take(&self.key(key)).await
    }

    async fn incr(&self, key: &str, ttl: std::time::Duration) -> Result<i64, crate::CacheError> {
        self.inner.incr(&self.key(key), ttl).await
    }

    async fn ttl(&self, key: &str) -> Result<Option<std::time::Duration>, crate::CacheError> {
        self.inner.ttl(&self.key(key)).await
    }

    async fn ping(&self) -> Result<(), crate::CacheError> {
        self.inner.ping().await
    }
}
