//! The RabbitMQ bus: a durable topic exchange; each subscription is an exclusive, auto-deleted,
//! server-named queue bound by its pattern. The publisher and every subscription reconnect with
//! backoff after a broker restart and declare their exchange, queue and binding again.

use std::time::Duration;

use futures::StreamExt;
use lapin::options::{
    BasicConsumeOptions, BasicPublishOptions, ExchangeDeclareOptions, QueueBindOptions,
    QueueDeclareOptions,
};
use lapin::types::FieldTable;
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties, ExchangeKind};
use tokio::sync::{Mutex, mpsc, oneshot};

use super::{BUFFER, BusError, Event, EventBus, Subscription};

const EXCHANGE: &str = "reelforge.events";
const MAX_BACKOFF: Duration = Duration::from_secs(10);

/// A bus on a RabbitMQ topic exchange.
pub struct AmqpBus {
    url: String,
    publisher: Mutex<Option<Channel>>,
}

fn broker(e: lapin::Error) -> BusError {
    BusError::Broker(e.to_string())
}

async fn open_channel(url: &str) -> Result<Channel, BusError> {
    let conn = tokio::time::timeout(
        Duration::from_secs(10),
        Connection::connect(url, ConnectionProperties::default()),
    )
    .await
    .map_err(|_| BusError::Broker("no answer from the broker within 10 s".into()))?
    .map_err(broker)?;
    let channel = conn.create_channel().await.map_err(broker)?;
    channel
        .exchange_declare(
            EXCHANGE.into(),
            ExchangeKind::Topic,
            ExchangeDeclareOptions {
                durable: true,
                ..Default::default()
            },
            FieldTable::default(),
        )
        .await
        .map_err(broker)?;
    Ok(channel)
}

type Ready = Option<oneshot::Sender<Result<(), BusError>>>;

/// Binds a fresh queue to `pattern` and forwards its events until the connection ends; `ready`
/// hears once the binding stands.
async fn consume(
    url: &str,
    pattern: &str,
    tx: &mpsc::Sender<Event>,
    ready: &mut Ready,
) -> Result<(), BusError> {
    let channel = open_channel(url).await?;
    let queue = channel
        .queue_declare(
            "".into(),
            QueueDeclareOptions {
                exclusive: true,
                auto_delete: true,
                ..Default::default()
            },
            FieldTable::default(),
        )
        .await
        .map_err(broker)?;
    let name = queue.name().clone();
    channel
        .queue_bind(
            name.clone(),
            EXCHANGE.into(),
            pattern.into(),
            QueueBindOptions::default(),
            FieldTable::default(),
        )
        .await
        .map_err(broker)?;
    let mut consumer = channel
        .basic_consume(
            name,
            "".into(),
            BasicConsumeOptions {
                no_ack: true,
                ..Default::default()
            },
            FieldTable::default(),
        )
        .await
        .map_err(broker)?;
    if let Some(r) = ready.take() {
        let _ = r.send(Ok(()));
    }
    while let Some(delivery) = consumer.next().await {
        let delivery = delivery.map_err(broker)?;
        let event = Event {
            topic: delivery.routing_key.to_string(),
            body: delivery.data,
        };
        if tx.send(event).await.is_err() {
            return Ok(());
        }
    }
    Err(BusError::Broker("the subscription was cancelled".into()))
}

impl AmqpBus {
    /// Connects and declares the exchange.
    pub async fn connect(url: &str) -> Result<Self, BusError> {
        let channel = open_channel(url).await?;
        Ok(Self {
            url: url.to_owned(),
            publisher: Mutex::new(Some(channel)),
        })
    }
}

#[async_trait::async_trait]
impl EventBus for AmqpBus {
    async fn publish(&self, topic: &str, body: &[u8]) -> Result<(), BusError> {
        let mut publisher = self.publisher.lock().await;
        let channel = match publisher.as_ref().filter(|c| c.status().connected()) {
            Some(c) => c.clone(),
            None => {
                *publisher = None;
                let c = open_channel(&self.url).await?;
                *publisher = Some(c.clone());
                c
            }
        };
        let sent = channel
            .basic_publish(
                EXCHANGE.into(),
                topic.into(),
                BasicPublishOptions::default(),
                body,
                BasicProperties::default(),
            )
            .await;
        if let Err(e) = sent {
            *publisher = None;
            return Err(broker(e));
        }
        Ok(())
    }

    async fn subscribe(&self, pattern: &str) -> Result<Subscription, BusError> {
        let (tx, rx) = mpsc::channel(BUFFER);
        let (url, pattern) = (self.url.clone(), pattern.to_owned());
        // The first binding is made before returning, so events published after subscribe() arrive.
        let (ready_tx, ready_rx) = oneshot::channel();
        tokio::spawn(async move {
            let mut ready: Ready = Some(ready_tx);
            let mut backoff = Duration::from_millis(200);
            loop {
                match consume(&url, &pattern, &tx, &mut ready).await {
                    Ok(()) => return,
                    Err(e) => {
                        if let Some(r) = ready.take() {
                            let _ = r.send(Err(e));
                            return;
                        }
                        if tx.is_closed() {
                            return;
                        }
                        tracing::warn!(error = %e, pattern, "event subscription lost; reconnecting");
                        tokio::time::sleep(backoff).await;
                        backoff = (backoff * 2).min(MAX_BACKOFF);
                    }
                }
            }
        });
        ready_rx
            .await
            .map_err(|_| BusError::Broker("subscription task ended".into()))??;
        Ok(Subscription { rx })
    }

    async fn ping(&self) -> Result<(), BusError> {
        match self.publisher.lock().await.as_ref() {
            Some(c) if c.status().connected() => Ok(()),
            _ => open_channel(&self.url).await.map(|_| ()),
        }
    }
}
