//! The job queue for renders and toolbox jobs: a durable queue whose jobs live in the database
//! (embedded; a restart resumes them) or RabbitMQ quorum queues (distributed). Both deliver at least
//! once: a consumer acks after its work is stored, an unacked job is delivered again, and a job
//! delivered more than the limit goes to the dead letters.

mod amqp;
mod migration;
mod table;

use std::sync::Arc;
use std::time::Duration;

pub use amqp::{AmqpQueue, BROKER_ANSWER};
pub use table::TableQueue;

use crate::config::QueueConfig;

/// The queue render jobs travel on, from the task service to the render workers.
pub const RENDER_QUEUE: &str = "reelforge.render";

/// Why a queue call failed.
#[derive(Debug, thiserror::Error)]
pub enum QueueError {
    /// The queue URL is not `db://` or `amqp://…`.
    #[error("unsupported queue url `{0}` (expected db:// or amqp://…)")]
    Url(String),
    /// The broker refused or lost the message; it must be considered unsent.
    #[error("broker: {0}")]
    Broker(String),
    /// The database failed.
    #[error("queue database: {0}")]
    Db(#[from] sea_orm::DbErr),
}

/// A delivered job.
#[derive(Debug)]
pub struct Job {
    /// The id given at publish time.
    pub id: String,
    /// The message body.
    pub body: Vec<u8>,
    /// 1 on first delivery, then 2, 3, …
    pub attempt: u32,
    /// Why a dead letter died, as RabbitMQ's `x-death` header says; none on the database queue,
    /// which keeps no such record, and on a job that never died.
    pub death: Option<Death>,
    pub(crate) handle: JobHandle,
}

/// The latest entry of a dead letter's `x-death` header.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Death {
    /// The queue the job died in.
    pub queue: String,
    /// The broker's reason: `delivery_limit` for a job returned more often than the queue's
    /// delivery limit, `rejected` for one sent to the dead letters at once.
    pub reason: String,
    /// How many times the job died in that queue for that reason.
    pub count: u64,
}

#[derive(Debug)]
pub(crate) enum JobHandle {
    Table { lease: String },
    /// `queue` is the queue a copy goes back to; none for a dead letter, which is requeued.
    Amqp { acker: lapin::Acker, queue: Option<String> },
}

/// A durable, at-least-once job queue.
#[async_trait::async_trait]
pub trait JobQueue: Send + Sync {
    /// Stores a job durably (confirmed by the broker) and returns once it is safe.
    async fn publish(&self, queue: &str, id: &str, body: &[u8]) -> Result<(), QueueError>;
    /// Waits up to `wait` for the next job.
    async fn receive(&self, queue: &str, wait: Duration) -> Result<Option<Job>, QueueError>;
    /// Marks a job done.
    async fn ack(&self, job: Job) -> Result<(), QueueError>;
    /// Gives a job back for another delivery; the delivery counts towards the limit.
    async fn retry(&self, job: Job) -> Result<(), QueueError>;
    /// Gives a job back without counting its delivery: the consumer is stopping and the job did
    /// not fail, so a rolling restart must not use up its deliveries and dead-letter it.
    async fn give_back(&self, job: Job) -> Result<(), QueueError>;
    /// Sends a job to the dead letters at once (a message no delivery can handle).
    async fn reject(&self, job: Job) -> Result<(), QueueError>;
    /// Takes the next dead letter of `queue` (a job delivered more than the limit), if any; it
    /// stays stored until acked, so a consumer that fails before recording it loses nothing.
    async fn receive_dead(&self, queue: &str) -> Result<Option<Job>, QueueError>;
    /// Answers whether the backend is reachable.
    async fn ping(&self) -> Result<(), QueueError>;
}

/// Opens the queue named by the configuration; `db` serves the `db://` queue.
pub async fn open(config: &QueueConfig, db: &sea_orm::DatabaseConnection) -> Result<Arc<dyn JobQueue>, QueueError> {
    if config.url.starts_with("db:") {
        Ok(Arc::new(
            TableQueue::new(db.clone(), config.delivery_limit, Duration::from_secs(config.lease_seconds)).await?,
        ))
    } else if config.url.starts_with("amqp://") || config.url.starts_with("amqps://") {
        Ok(Arc::new(AmqpQueue::connect(&config.url, config.delivery_limit, config.prefetch).await?))
    } else {
        Err(QueueError::Url(config.url.clone()))
    }
}
