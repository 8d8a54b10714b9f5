//! The RabbitMQ queue through lapin: quorum queues with a delivery limit and an at-least-once
//! dead-letter exchange, publisher confirms with `mandatory`, manual acks and per-consumer prefetch.

use std::collections::HashMap;
use std::sync::Arc;
use std::sync::atomic::{AtomicU64, Ordering};
use std::time::Duration;

use futures::StreamExt;
use lapin::options::{
    BasicAckOptions, BasicConsumeOptions, BasicGetOptions, BasicNackOptions, BasicPublishOptions, BasicQosOptions,
    ConfirmSelectOptions, ExchangeDeclareOptions, QueueBindOptions, QueueDeclareOptions,
};
use lapin::types::{AMQPValue, FieldTable, ShortString};
use lapin::{BasicProperties, Channel, Connection, ConnectionProperties, Consumer, ExchangeKind};
use tokio::sync::Mutex;

use super::{Death, Job, JobHandle, JobQueue, QueueError};

const DEAD_LETTER_EXCHANGE: &str = "reelforge.dead";

/// A queue on RabbitMQ. The connection is made again when the broker went away (a restart): the
/// next call reconnects, opens a confirming publisher channel and declares the topology again;
/// callers retry with their own backoff.
pub struct AmqpQueue {
    url: String,
    delivery_limit: u32,
    prefetch: u16,
    link: Mutex<Option<Link>>,
    /// Consumers by queue, with the generation of the link they were made on. Each queue has its
    /// own lock, held while its consumer waits for a delivery; the map's lock only finds the slot,
    /// so a client consuming several queues waits on each at once, not one after another.
    consumers: Mutex<HashMap<String, Arc<Mutex<Option<Consuming>>>>>,
    generations: AtomicU64,
}

/// A queue's consumer: the generation of the link it was made on, its channel and its stream.
type Consuming = (u64, Channel, Consumer);

/// One connection with its publisher channel and what was declared on it.
struct Link {
    conn: Connection,
    publisher: Channel,
    declared: Vec<String>,
    generation: u64,
}

impl Link {
    fn alive(&self) -> bool {
        self.conn.status().connected() && self.publisher.status().connected()
    }
}

/// Longest wait for a broker's answer (a publish confirm, a connection).
pub const BROKER_ANSWER: Duration = Duration::from_secs(10);

fn broker(e: lapin::Error) -> QueueError {
    QueueError::Broker(e.to_string())
}

async fn connect_link(url: &str, generation: u64) -> Result<Link, QueueError> {
    let conn = tokio::time::timeout(BROKER_ANSWER, Connection::connect(url, ConnectionProperties::default()))
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
    Ok(Link { conn, publisher, declared: Vec::new(), generation })
}

impl AmqpQueue {
    /// Connects, opens a confirming publisher channel and declares the dead-letter exchange.
    pub async fn connect(url: &str, delivery_limit: u32, prefetch: u16) -> Result<Self, QueueError> {
        let link = connect_link(url, 0).await?;
        Ok(Self {
            url: url.to_owned(),
            delivery_limit: delivery_limit.max(1),
            prefetch: prefetch.max(1),
            link: Mutex::new(Some(link)),
            consumers: Mutex::new(HashMap::new()),
            generations: AtomicU64::new(1),
        })
    }

    /// The live link with `queue` declared on it, reconnecting when the broker went away.
    async fn link(&self, queue: &str) -> Result<tokio::sync::MutexGuard<'_, Option<Link>>, QueueError> {
        let mut guard = self.link.lock().await;
        if !guard.as_ref().is_some_and(Link::alive) {
            *guard = None;
            let fresh = connect_link(&self.url, self.generations.fetch_add(1, Ordering::Relaxed)).await?;
            tracing::info!(url = %redact(&self.url), "connected to the broker again");
            *guard = Some(fresh);
        }
        if let Some(link) = guard.as_mut()
            && !link.declared.iter().any(|q| q == queue)
        {
            // A declaration refused with a hard error closes the connection: the next call
            // connects again.
            if let Err(e) = declare(&link.publisher, queue, self.delivery_limit).await {
                *guard = None;
                return Err(e);
            }
            link.declared.push(queue.to_owned());
        }
        Ok(guard)
    }
}

/// Declares `queue` (quorum, delivery limit, at-least-once dead-lettering) and its dead-letter queue.
async fn declare(publisher: &Channel, queue: &str, delivery_limit: u32) -> Result<(), QueueError> {
    let dead = dead_queue(queue);
    let mut dead_args = FieldTable::default();
    dead_args.insert("x-queue-type".into(), AMQPValue::LongString("quorum".into()));
    let durable = QueueDeclareOptions { durable: true, ..Default::default() };
    publisher.queue_declare(dead.as_str().into(), durable, dead_args).await.map_err(broker)?;
    publisher
        .queue_bind(dead.as_str().into(), DEAD_LETTER_EXCHANGE.into(), queue.into(), QueueBindOptions::default(), FieldTable::default())
        .await
        .map_err(broker)?;
    let mut args = FieldTable::default();
    args.insert("x-queue-type".into(), AMQPValue::LongString("quorum".into()));
    args.insert("x-delivery-limit".into(), AMQPValue::LongInt(i32::try_from(delivery_limit).unwrap_or(i32::MAX)));
    args.insert("x-dead-letter-exchange".into(), AMQPValue::LongString(DEAD_LETTER_EXCHANGE.into()));
    args.insert("x-dead-letter-routing-key".into(), AMQPValue::LongString(queue.into()));
    args.insert("x-dead-letter-strategy".into(), AMQPValue::LongString("at-least-once".into()));
    args.insert("x-overflow".into(), AMQPValue::LongString("reject-publish".into()));
    publisher.queue_declare(queue.into(), durable, args).await.map_err(broker)?;
    Ok(())
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

/// The latest death of a dead letter: RabbitMQ puts the newest entry of `x-death` first.
fn death(props: &BasicProperties) -> Option<Death> {
    let latest = props.headers().as_ref()?.inner().get("x-death")?.as_array()?.as_slice().first()?.as_field_table()?.inner();
    let text = |key: &str| match latest.get(key) {
        Some(AMQPValue::LongString(s)) => String::from_utf8_lossy(s.as_bytes()).into_owned(),
        Some(AMQPValue::ShortString(s)) => s.to_string(),
        _ => String::new(),
    };
    let count = match latest.get("count") {
        Some(AMQPValue::LongLongInt(n)) => u64::try_from(*n).unwrap_or(0),
        Some(AMQPValue::LongInt(n)) => u64::try_from(*n).unwrap_or(0),
        Some(AMQPValue::LongUInt(n)) => u64::from(*n),
        _ => 0,
    };
    Some(Death { queue: text("queue"), reason: text("reason"), count })
}

fn message_id(props: &BasicProperties) -> String {
    props.message_id().as_ref().map(ShortString::to_string).unwrap_or_default()
}

#[async_trait::async_trait]
impl JobQueue for AmqpQueue {
    async fn publish(&self, queue: &str, id: &str, body: &[u8]) -> Result<(), QueueError> {
        let guard = self.link(queue).await?;
        let Some(link) = guard.as_ref() else { return Err(QueueError::Broker("no connection".into())) };
        let props = BasicProperties::default().with_delivery_mode(2).with_message_id(id.into());
        let sent = async {
            link.publisher
                .basic_publish("".into(), queue.into(), BasicPublishOptions { mandatory: true, ..Default::default() }, body, props)
                .await
                .map_err(broker)?
                .await
                .map_err(broker)
        };
        let confirm = tokio::time::timeout(BROKER_ANSWER, sent)
            .await
            .map_err(|_| QueueError::Broker(format!("job {id} was not confirmed within 10 s")))??;
        if !confirm.is_ack() {
            return Err(QueueError::Broker(format!("job {id} was not confirmed by the broker")));
        }
        if confirm.take_message().is_some() {
            return Err(QueueError::Broker(format!("job {id} was returned: no queue `{queue}`")));
        }
        Ok(())
    }

    async fn receive(&self, queue: &str, wait: Duration) -> Result<Option<Job>, QueueError> {
        // Lock order: the map (only to find the queue's slot), then the slot, then the link
        // (publishers take only the link, briefly).
        let slot = Arc::clone(self.consumers.lock().await.entry(queue.to_owned()).or_default());
        let mut slot = slot.lock().await;
        let mut guard = self.link(queue).await?;
        let Some(link) = guard.as_ref() else { return Err(QueueError::Broker("no connection".into())) };
        // A consumer of an older connection went with it; its deliveries come again.
        if slot.as_ref().is_some_and(|(generation, _, _)| *generation != link.generation) {
            *slot = None;
        }
        if slot.is_none() {
            let generation = link.generation;
            let consume = async {
                let channel = link.conn.create_channel().await.map_err(broker)?;
                channel.basic_qos(self.prefetch, BasicQosOptions::default()).await.map_err(broker)?;
                let tag = format!("reelforge-{}", uuid::Uuid::new_v4());
                let consumer = channel
                    .basic_consume(queue.into(), tag.as_str().into(), BasicConsumeOptions::default(), FieldTable::default())
                    .await
                    .map_err(broker)?;
                Ok::<_, QueueError>((channel, consumer))
            };
            // A consumer refused with a hard error (a quorum queue without a leader yet) closes the
            // connection, which can still read as connected for a moment; one never answered is
            // given up after BROKER_ANSWER. Either way the link is dropped, so the next call connects
            // again instead of waiting on the dead one.
            match tokio::time::timeout(BROKER_ANSWER, consume).await {
                Ok(Ok((channel, consumer))) => *slot = Some((generation, channel, consumer)),
                Ok(Err(e)) => {
                    *guard = None;
                    return Err(e);
                }
                Err(_) => {
                    *guard = None;
                    return Err(QueueError::Broker(format!("no consumer of `{queue}` within 10 s")));
                }
            }
        }
        drop(guard);
        let Some((_, _, consumer)) = slot.as_mut() else { return Ok(None) };
        match tokio::time::timeout(wait, consumer.next()).await {
            Err(_) => Ok(None),
            Ok(None) => {
                *slot = None;
                Err(QueueError::Broker(format!("consumer of `{queue}` was cancelled")))
            }
            Ok(Some(Err(e))) => {
                *slot = None;
                Err(broker(e))
            }
            Ok(Some(Ok(delivery))) => Ok(Some(Job {
                id: message_id(&delivery.properties),
                attempt: delivery_count(&delivery.properties) + 1,
                death: death(&delivery.properties),
                body: delivery.data,
                handle: JobHandle::Amqp { acker: delivery.acker, queue: Some(queue.to_owned()) },
            })),
        }
    }

    async fn ack(&self, job: Job) -> Result<(), QueueError> {
        let JobHandle::Amqp { acker, .. } = job.handle else { return Ok(()) };
        acker.ack(BasicAckOptions::default()).await.map_err(broker)?;
        Ok(())
    }

    async fn retry(&self, job: Job) -> Result<(), QueueError> {
        let JobHandle::Amqp { acker, .. } = job.handle else { return Ok(()) };
        acker.nack(BasicNackOptions { requeue: true, ..Default::default() }).await.map_err(broker)?;
        Ok(())
    }

    async fn give_back(&self, job: Job) -> Result<(), QueueError> {
        let JobHandle::Amqp { acker, queue } = job.handle else { return Ok(()) };
        let Some(queue) = queue else {
            acker.nack(BasicNackOptions { requeue: true, ..Default::default() }).await.map_err(broker)?;
            return Ok(());
        };
        // A quorum queue counts every requeue as a delivery, so the job goes back as a fresh copy
        // (confirmed) and the delivery is acked after it. Should the ack fail, the job is there
        // twice; its consumers take only one of them (the task service starts a job once).
        if let Err(e) = self.publish(&queue, &job.id, &job.body).await {
            acker.nack(BasicNackOptions { requeue: true, ..Default::default() }).await.map_err(broker)?;
            return Err(e);
        }
        acker.ack(BasicAckOptions::default()).await.map_err(broker)?;
        Ok(())
    }

    async fn reject(&self, job: Job) -> Result<(), QueueError> {
        let JobHandle::Amqp { acker, .. } = job.handle else { return Ok(()) };
        // The queue's dead-letter exchange takes a message rejected without requeue.
        acker.nack(BasicNackOptions { requeue: false, ..Default::default() }).await.map_err(broker)?;
        Ok(())
    }

    async fn receive_dead(&self, queue: &str) -> Result<Option<Job>, QueueError> {
        let guard = self.link(queue).await?;
        let Some(link) = guard.as_ref() else { return Err(QueueError::Broker("no connection".into())) };
        let dead = dead_queue(queue);
        let got = link.publisher.basic_get(dead.as_str().into(), BasicGetOptions::default()).await.map_err(broker)?;
        Ok(got.map(|msg| Job {
            id: message_id(&msg.delivery.properties),
            attempt: delivery_count(&msg.delivery.properties) + 1,
            death: death(&msg.delivery.properties),
            body: msg.delivery.data,
            handle: JobHandle::Amqp { acker: msg.delivery.acker, queue: None },
        }))
    }

    async fn ping(&self) -> Result<(), QueueError> {
        let mut guard = self.link.lock().await;
        if guard.as_ref().is_some_and(Link::alive) {
            return Ok(());
        }
        *guard = Some(connect_link(&self.url, self.generations.fetch_add(1, Ordering::Relaxed)).await?);
        Ok(())
    }
}
