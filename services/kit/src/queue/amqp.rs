//! The RabbitMQ queue through lapin: quorum queues with a delivery limit and an at-least-once
//! dead-letter exchange, publisher confirms with `mandatory`, manual acks and per-consumer prefetch.

use std::collections::HashMap;
use std::time::Duration;

use futures::StreamExt;
use lapin::options::{
    BasicAckOptions, BasicConsumeOptions, BasicGetOptions, BasicNackOptions, BasicPublishOptions, BasicQosOptions,
    ConfirmSelectOptions, ExchangeDeclareOptions, QueueBindOptions, QueueDeclareOptions,
};
use lapin::types::{AMQPValue, FieldTable, ShortString};
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties, Consumer, ExchangeKind};
use tokio::sync::Mutex;

use super::{DeadLetter, Job, JobHandle, JobQueue, QueueError};

const DEAD_LETTER_EXCHANGE: &str = "reelforge.dead";

/// A queue on RabbitMQ.
pub struct AmqpQueue {
    conn: Connection,
    publisher: Channel,
    delivery_limit: u32,
    prefetch: u16,
    declared: Mutex<Vec<String>>,
    consumers: Mutex<HashMap<String, (Channel, Consumer)>>,
}

fn broker(e: lapin::Error) -> QueueError {
    QueueError::Broker(e.to_string())
}

impl AmqpQueue {
    /// Connects, opens a confirming publisher channel and declares the dead-letter exchange.
    pub async fn connect(url: &str, delivery_limit: u32, prefetch: u16) -> Result<Self, QueueError> {
        let conn = tokio::time::timeout(Duration::from_secs(10), Connection::connect(url, ConnectionProperties::default()))
            .await
            .map_err(|_| QueueError::Broker(format!("no answer from {} within 10 s", redact(url))))?
            .map_err(broker)?;
        let publisher = conn.create_channel().await.map_err(broker)?;
        publisher.confirm_select(ConfirmSelectOptions::default()).await.map_err(broker)?;
        publisher
            .exchange_declare(
                DEAD_LETTER_EXCHANGE.into(),
                ExchangeKind::Direct,
                ExchangeDeclareOptions { durable: true, ..Default::default() },
                FieldTable::default(),
            )
            .await
            .map_err(broker)?;
        Ok(Self {
            conn,
            publisher,
            delivery_limit: delivery_limit.max(1),
            prefetch: prefetch.max(1),
            declared: Mutex::new(Vec::new()),
            consumers: Mutex::new(HashMap::new()),
        })
    }

    /// Declares `queue` and its dead-letter queue once per process.
    async fn ensure(&self, queue: &str) -> Result<(), QueueError> {
        let mut declared = self.declared.lock().await;
        if declared.iter().any(|q| q == queue) {
            return Ok(());
        }
        let dead = dead_queue(queue);
        let mut dead_args = FieldTable::default();
        dead_args.insert("x-queue-type".into(), AMQPValue::LongString("quorum".into()));
        let durable = QueueDeclareOptions { durable: true, ..Default::default() };
        self.publisher.queue_declare(dead.as_str().into(), durable, dead_args).await.map_err(broker)?;
        self.publisher
            .queue_bind(dead.as_str().into(), DEAD_LETTER_EXCHANGE.into(), queue.into(), QueueBindOptions::default(), FieldTable::default())
            .await
            .map_err(broker)?;
        let mut args = FieldTable::default();
        args.insert("x-queue-type".into(), AMQPValue::LongString("quorum".into()));
        args.insert("x-delivery-limit".into(), AMQPValue::LongInt(i32::try_from(self.delivery_limit).unwrap_or(i32::MAX)));
        args.insert("x-dead-letter-exchange".into(), AMQPValue::LongString(DEAD_LETTER_EXCHANGE.into()));
        args.insert("x-dead-letter-routing-key".into(), AMQPValue::LongString(queue.into()));
        args.insert("x-dead-letter-strategy".into(), AMQPValue::LongString("at-least-once".into()));
        args.insert("x-overflow".into(), AMQPValue::LongString("reject-publish".into()));
        self.publisher.queue_declare(queue.into(), durable, args).await.map_err(broker)?;
        declared.push(queue.to_owned());
        Ok(())
    }
}

fn dead_queue(queue: &str) -> String {
    format!("{queue}.dead")
}

fn redact(url: &str) -> String {
    match (url.find("://"), url.rfind('@')) {
        (Some(s), Some(at)) if at > s => format!("{}***{}", &url[..s + 3], &url[at..]),
        _ => url.to_owned(),
    }
}

fn delivery_count(props: &BasicProperties) -> u32 {
    let Some(headers) = props.headers() else { return 0 };
    match headers.inner().get("x-delivery-count") {
        Some(AMQPValue::LongLongInt(n)) => u32::try_from(*n).unwrap_or(0),
        Some(AMQPValue::LongInt(n)) => u32::try_from(*n).unwrap_or(0),
        Some(AMQPValue::LongUInt(n)) => *n,
        Some(AMQPValue::ShortInt(n)) => u32::try_from(*n).unwrap_or(0),
        _ => 0,
    }
}

fn message_id(props: &BasicProperties) -> String {
    props.message_id().as_ref().map(ShortString::to_string).unwrap_or_default()
}

#[async_trait::async_trait]
impl JobQueue for AmqpQueue {
    async fn publish(&self, queue: &str, id: &str, body: &[u8]) -> Result<(), QueueError> {
        self.ensure(queue).await?;
        let props = BasicProperties::default().with_delivery_mode(2).with_message_id(id.into());
        let confirm = self
            .publisher
            .basic_publish("".into(), queue.into(), BasicPublishOptions { mandatory: true, ..Default::default() }, body, props)
            .await
            .map_err(broker)?
            .await
            .map_err(broker)?;
        if !confirm.is_ack() {
            return Err(QueueError::Broker(format!("job {id} was not confirmed by the broker")));
        }
        if confirm.take_message().is_some() {
            return Err(QueueError::Broker(format!("job {id} was returned: no queue `{queue}`")));
        }
        Ok(())
    }

    async fn receive(&self, queue: &str, wait: Duration) -> Result<Option<Job>, QueueError> {
        self.ensure(queue).await?;
        let mut consumers = self.consumers.lock().await;
        if !consumers.contains_key(queue) {
            let channel = self.conn.create_channel().await.map_err(broker)?;
            channel.basic_qos(self.prefetch, BasicQosOptions::default()).await.map_err(broker)?;
            let tag = format!("reelforge-{}", uuid::Uuid::new_v4());
            let consumer = channel
                .basic_consume(queue.into(), tag.as_str().into(), BasicConsumeOptions::default(), FieldTable::default())
                .await
                .map_err(broker)?;
            consumers.insert(queue.to_owned(), (channel, consumer));
        }
        let Some((_, consumer)) = consumers.get_mut(queue) else { return Ok(None) };
        match tokio::time::timeout(wait, consumer.next()).await {
            Err(_) => Ok(None),
            Ok(None) => {
                consumers.remove(queue);
                Err(QueueError::Broker(format!("consumer of `{queue}` was cancelled")))
            }
            Ok(Some(Err(e))) => {
                consumers.remove(queue);
                Err(broker(e))
            }
            Ok(Some(Ok(delivery))) => Ok(Some(Job {
                id: message_id(&delivery.properties),
                attempt: delivery_count(&delivery.properties) + 1,
                body: delivery.data,
                handle: JobHandle::Amqp { acker: delivery.acker },
            })),
        }
    }

    async fn ack(&self, job: Job) -> Result<(), QueueError> {
        let JobHandle::Amqp { acker } = job.handle else { return Ok(()) };
        acker.ack(BasicAckOptions::default()).await.map_err(broker)?;
        Ok(())
    }

    async fn retry(&self, job: Job) -> Result<(), QueueError> {
        let JobHandle::Amqp { acker } = job.handle else { return Ok(()) };
        acker.nack(BasicNackOptions { requeue: true, ..Default::default() }).await.map_err(broker)?;
        Ok(())
    }

    async fn drain_dead_letters(&self, queue: &str, max: usize) -> Result<Vec<DeadLetter>, QueueError> {
        self.ensure(queue).await?;
        let dead = dead_queue(queue);
        let mut out = Vec::new();
        while out.len() < max {
            let got = self.publisher.basic_get(dead.as_str().into(), BasicGetOptions::default()).await.map_err(broker)?;
            let Some(msg) = got else { break };
            let id = message_id(&msg.delivery.properties);
            let body = msg.delivery.data.clone();
            msg.delivery.acker.ack(BasicAckOptions::default()).await.map_err(broker)?;
            out.push(DeadLetter { id, body });
        }
        Ok(out)
    }

    async fn ping(&self) -> Result<(), QueueError> {
        if self.conn.status().connected() {
            Ok(())
        } else {
            Err(QueueError::Broker("connection to the broker is closed".into()))
        }
    }
}
