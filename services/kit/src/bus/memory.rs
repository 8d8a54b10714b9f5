//! The in-process bus: one tokio broadcast channel; each subscription filters by its pattern.

use tokio::sync::{broadcast, mpsc};

use super::{BUFFER, BusError, Event, EventBus, Subscription, matches};

/// An in-process bus.
pub struct MemoryBus {
    tx: broadcast::Sender<Event>,
}

impl Default for MemoryBus {
    fn default() -> Self {
        Self {
            tx: broadcast::channel(BUFFER).0,
        }
    }
}

#[async_trait::async_trait]
impl EventBus for MemoryBus {
    async fn publish(&self, topic: &str, body: &[u8]) -> Result<(), BusError> {
        // No subscriber is not an error: events are for whoever listens now.
        let _ = self.tx.send(Event {
            topic: topic.to_owned(),
            body: body.to_vec(),
        });
        Ok(())
    }

    async fn subscribe(&self, pattern: &str) -> Result<Subscription, BusError> {
        let mut all = self.tx.subscribe();
        let (tx, rx) = mpsc::channel(BUFFER);
        let pattern = pattern.to_owned();
        tokio::spawn(async move {
            loop {
                match all.recv().await {
                    Ok(e) if matches(&pattern, &e.topic) => {
                        if tx.send(e).await.is_err() {
                            return;
                        }
                    }
                    Ok(_) | Err(broadcast::error::RecvError::Lagged(_)) => {}
                    Err(broadcast::error::RecvError::Closed) => return,
                }
            }
        });
        Ok(Subscription { rx })
    }

    async fn ping(&self) -> Result<(), BusError> {
        Ok(())
    }
}
