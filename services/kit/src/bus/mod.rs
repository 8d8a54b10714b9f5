//! The event bus for render progress and cancel signals: fire-and-forget messages on topics
//! (`a.b.c`), subscribed to by pattern (`*` one word, `#` any words), in-process (tokio broadcast,
//! embedded) or on a RabbitMQ topic exchange (distributed), chosen by the queue URL like the queue.
//! Events are not durable: a subscriber sees what is published while it listens; the durable state
//! lives in the database.

mod amqp;
mod memory;

use std::sync::Arc;

pub use amqp::AmqpBus;
pub use memory::MemoryBus;

/// Why a bus call failed.
#[derive(Debug, thiserror::Error)]
pub enum BusError {
    /// The URL is not `db://` or `amqp://…`.
    #[error("unsupported event bus url `{0}` (expected db:// or amqp://…)")]
    Url(String),
    /// The broker refused or lost the connection.
    #[error("event broker: {0}")]
    Broker(String),
}

/// One event.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Event {
    /// Its topic, words joined by dots.
    pub topic: String,
    /// The message body.
    pub body: Vec<u8>,
}

/// The events of one subscription, in publish order per publisher.
pub struct Subscription {
    rx: tokio::sync::mpsc::Receiver<Event>,
}

impl Subscription {
    /// Waits for the next event; `None` once the bus is gone.
    pub async fn next(&mut self) -> Option<Event> {
        self.rx.recv().await
    }
}

/// Topic pattern of every task's render events.
pub const PROGRESS_TOPICS: &str = "task.progress.*";
/// Topic pattern of every job cancel.
pub const CANCEL_TOPICS: &str = "job.cancel.*";

/// The topic of one task's render events (progress from its worker, the end from the task service).
pub fn progress_topic(task_id: i64) -> String {
    format!("task.progress.{task_id}")
}

/// The topic that tells the worker rendering a job to stop.
pub fn cancel_topic(job_id: &str) -> String {
    format!("job.cancel.{job_id}")
}

/// Events buffered per subscription before the slowest are dropped (progress is replaced by the next).
const BUFFER: usize = 1024;

/// A publish/subscribe bus.
#[async_trait::async_trait]
pub trait EventBus: Send + Sync {
    /// Publishes `body` on `topic` to the current subscribers.
    async fn publish(&self, topic: &str, body: &[u8]) -> Result<(), BusError>;
    /// Subscribes to the topics matching `pattern`.
    async fn subscribe(&self, pattern: &str) -> Result<Subscription, BusError>;
    /// Answers whether the bus is reachable.
    async fn ping(&self) -> Result<(), BusError>;
}

/// Whether `topic` matches the AMQP-style `pattern` (`*` one word, `#` zero or more words).
pub fn matches(pattern: &str, topic: &str) -> bool {
    fn go(p: &[&str], t: &[&str]) -> bool {
        match (p.first(), t.first()) {
            (None, None) => true,
            (Some(&"#"), _) => go(&p[1..], t) || (!t.is_empty() && go(p, &t[1..])),
            (Some(&"*"), Some(_)) => go(&p[1..], &t[1..]),
            (Some(a), Some(b)) if a == b => go(&p[1..], &t[1..]),
            _ => false,
        }
    }
    let p: Vec<&str> = pattern.split('.').collect();
    let t: Vec<&str> = topic.split('.').collect();
    go(&p, &t)
}

/// Opens the bus that goes with the queue `url`: in-process for `db://`, RabbitMQ for `amqp://`.
pub async fn open(url: &str) -> Result<Arc<dyn EventBus>, BusError> {
    if url.starts_with("db:") {
        Ok(Arc::new(MemoryBus::default()))
    } else if url.starts_with("amqp://") || url.starts_with("amqps://") {
        Ok(Arc::new(AmqpBus::connect(url).await?))
    } else {
        Err(BusError::Url(url.to_owned()))
    }
}

#[cfg(test)]
mod tests {
    use super::matches;

    #[test]
    fn patterns_match_like_amqp() {
        assert!(matches("task.progress.*", "task.progress.7"));
        assert!(!matches("task.progress.*", "task.progress.7.x"));
        assert!(matches("task.#", "task.progress.7"));
        assert!(matches("#", "a"));
        assert!(!matches("job.cancel.*", "task.progress.7"));
    }
}
