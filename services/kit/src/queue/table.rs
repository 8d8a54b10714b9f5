//! The database queue: one row per job. A consumer leases a row (attempts + 1, lease deadline); ack
//! deletes it; a lease that runs out makes the job deliverable again, so a consumer that dies before
//! it acks loses nothing. Rows past the delivery limit turn dead.

use std::sync::Arc;
use std::time::Duration;

use sea_orm::{ConnectionTrait, DatabaseConnection, DbBackend, Statement, Value};
use sea_orm_migration::MigratorTrait;
use tokio::sync::Notify;

use super::migration::Migrator;
use super::{Job, JobHandle, JobQueue, QueueError};
use crate::db::now_millis;

/// A queue whose jobs are rows of `queue_jobs`.
pub struct TableQueue {
    db: DatabaseConnection,
    delivery_limit: u32,
    lease: Duration,
    published: Arc<Notify>,
}

impl TableQueue {
    /// Creates the queue table when missing.
    pub async fn new(db: DatabaseConnection, delivery_limit: u32, lease: Duration) -> Result<Self, QueueError> {
        Migrator::up(&db, None).await?;
        Ok(Self { db, delivery_limit: delivery_limit.max(1), lease, published: Arc::new(Notify::new()) })
    }

    fn stmt(&self, sql: &str, values: Vec<Value>) -> Statement {
        Statement::from_sql_and_values(self.backend(), sql, values)
    }

    fn backend(&self) -> DbBackend {
        self.db.get_database_backend()
    }

    async fn bury_exhausted(&self, queue: &str) -> Result<(), QueueError> {
        let now = now_millis();
        self.db
            .execute_raw(self.stmt(
                "UPDATE queue_jobs SET state = 'dead' WHERE queue = $1 AND attempts > $2 \
                 AND (state = 'ready' OR (state = 'leased' AND lease_until < $3))",
                vec![queue.into(), i64::from(self.delivery_limit).into(), now.into()],
            ))
            .await?;
        Ok(())
    }

    async fn try_claim(&self, queue: &str) -> Result<Option<Job>, QueueError> {
        self.bury_exhausted(queue).await?;
        let now = now_millis();
        let lease = uuid::Uuid::new_v4().to_string();
        let until = now + i64::try_from(self.lease.as_millis()).unwrap_or(i64::MAX / 2);
        // The outer state check makes the claim safe when two consumers pick the same row: only the
        // first update matches.
        let row = self
            .db
            .query_one_raw(self.stmt(
                "UPDATE queue_jobs SET state = 'leased', attempts = attempts + 1, lease_until = $1, lease = $2 \
                 WHERE id = (SELECT id FROM queue_jobs WHERE queue = $3 \
                   AND (state = 'ready' OR (state = 'leased' AND lease_until < $4)) ORDER BY created_ms, id LIMIT 1) \
                 AND (state = 'ready' OR (state = 'leased' AND lease_until < $4)) \
                 RETURNING id, body, attempts",
                vec![until.into(), lease.clone().into(), queue.into(), now.into()],
            ))
            .await?;
        let Some(row) = row else { return Ok(None) };
        let id: String = row.try_get("", "id")?;
        let body: Vec<u8> = row.try_get("", "body")?;
        let attempts: i64 = row.try_get("", "attempts")?;
        Ok(Some(Job { id, body, attempt: u32::try_from(attempts).unwrap_or(u32::MAX), death: None, handle: JobHandle::Table { lease } }))
    }
}

#[async_trait::async_trait]
impl JobQueue for TableQueue {
    async fn publish(&self, queue: &str, id: &str, body: &[u8]) -> Result<(), QueueError> {
        self.db
            .execute_raw(self.stmt(
                "INSERT INTO queue_jobs (id, queue, body, state, attempts, lease_until, lease, created_ms) \
                 VALUES ($1, $2, $3, 'ready', 0, 0, '', $4)",
                vec![id.into(), queue.into(), body.to_vec().into(), now_millis().into()],
            ))
            .await?;
        self.published.notify_waiters();
        Ok(())
    }

    async fn receive(&self, queue: &str, wait: Duration) -> Result<Option<Job>, QueueError> {
        let deadline = tokio::time::Instant::now() + wait;
        loop {
            let notified = self.published.notified();
            if let Some(job) = self.try_claim(queue).await? {
                return Ok(Some(job));
            }
            let now = tokio::time::Instant::now();
            if now >= deadline {
                return Ok(None);
            }
            // Woken at once by a publish in this process; other processes' jobs are found by polling.
            let poll = (deadline - now).min(Duration::from_millis(250));
            let _ = tokio::time::timeout(poll, notified).await;
        }
    }

    async fn ack(&self, job: Job) -> Result<(), QueueError> {
        let JobHandle::Table { lease } = job.handle else { return Ok(()) };
        self.db
            .execute_raw(self.stmt("DELETE FROM queue_jobs WHERE id = $1 AND lease = $2", vec![job.id.into(), lease.into()]))
            .await?;
        Ok(())
    }

    async fn retry(&self, job: Job) -> Result<(), QueueError> {
        let JobHandle::Table { lease } = job.handle else { return Ok(()) };
        self.db
            .execute_raw(self.stmt(
                "UPDATE queue_jobs SET state = 'ready', lease = '' WHERE id = $1 AND lease = $2",
                vec![job.id.into(), lease.into()],
            ))
            .await?;
        self.published.notify_waiters();
        Ok(())
    }

    async fn give_back(&self, job: Job) -> Result<(), QueueError> {
        let JobHandle::Table { lease } = job.handle else { return Ok(()) };
        // The claim counted this delivery; giving it back uncounts it.
        self.db
            .execute_raw(self.stmt(
                "UPDATE queue_jobs SET state = 'ready', lease = '', attempts = attempts - 1 \
                 WHERE id = $1 AND lease = $2 AND attempts > 0",
                vec![job.id.into(), lease.into()],
            ))
            .await?;
        self.published.notify_waiters();
        Ok(())
    }

    async fn reject(&self, job: Job) -> Result<(), QueueError> {
        let JobHandle::Table { lease } = job.handle else { return Ok(()) };
        self.db
            .execute_raw(self.stmt(
                "UPDATE queue_jobs SET state = 'dead', lease = '' WHERE id = $1 AND lease = $2",
                vec![job.id.into(), lease.into()],
            ))
            .await?;
        Ok(())
    }

    async fn receive_dead(&self, queue: &str) -> Result<Option<Job>, QueueError> {
        self.bury_exhausted(queue).await?;
        let now = now_millis();
        let lease = uuid::Uuid::new_v4().to_string();
        let until = now + i64::try_from(self.lease.as_millis()).unwrap_or(i64::MAX / 2);
        // A dead row stays dead; its lease only says which consumer may ack (delete) it, and
        // runs out so another consumer takes it when this one fails before acking.
        let row = self
            .db
            .query_one_raw(self.stmt(
                "UPDATE queue_jobs SET lease_until = $1, lease = $2 \
                 WHERE id = (SELECT id FROM queue_jobs WHERE queue = $3 AND state = 'dead' \
                   AND (lease = '' OR lease_until < $4) ORDER BY created_ms, id LIMIT 1) \
                 AND state = 'dead' AND (lease = '' OR lease_until < $4) \
                 RETURNING id, body, attempts",
                vec![until.into(), lease.clone().into(), queue.into(), now.into()],
            ))
            .await?;
        let Some(row) = row else { return Ok(None) };
        let id: String = row.try_get("", "id")?;
        let body: Vec<u8> = row.try_get("", "body")?;
        let attempts: i64 = row.try_get("", "attempts")?;
        Ok(Some(Job { id, body, attempt: u32::try_from(attempts).unwrap_or(u32::MAX), death: None, handle: JobHandle::Table { lease } }))
    }

    async fn ping(&self) -> Result<(), QueueError> {
        Ok(self.db.ping().await?)
    }
}
