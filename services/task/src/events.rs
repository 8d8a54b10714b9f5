//! Render events: the workers' progress and the service's own record of each end, on the event
//! bus (topic `task.progress.{taskId}`); every task-service replica keeps the latest event of a
//! task in the cache (for `State`) and hands events to its `Watch` streams. Cancels travel to the
//! workers as `job.cancel.{jobId}`.

use std::sync::Arc;
use std::time::Duration;

use prost::Message;
use reelforge_kit::bus::{PROGRESS_TOPICS, cancel_topic, progress_topic};
use reelforge_kit::{Cache, EventBus};
use reelforge_proto::render::RenderProgress;
use serde::{Deserialize, Serialize};
use tokio::sync::{broadcast, watch};

/// How long the latest progress of a task is kept.
const KEEP: Duration = Duration::from_secs(24 * 3600);

fn cache_key(task_id: i64) -> String {
    format!("task:progress:{task_id}")
}

/// The cached form of the latest event.
#[derive(Serialize, Deserialize)]
struct Cached {
    job_id: String,
    stage: String,
    frames_done: u64,
    frames_total: u64,
    percent: u32,
    eta_seconds: i64,
    seq: i64,
    reason: String,
    video_key: String,
}

/// The service's view of render events.
pub struct Events {
    bus: Arc<dyn EventBus>,
    cache: Arc<dyn Cache>,
    local: broadcast::Sender<RenderProgress>,
}

impl Events {
    /// Listens to the bus until `shutdown` turns true.
    pub async fn start(
        bus: Arc<dyn EventBus>,
        cache: Arc<dyn Cache>,
        mut shutdown: watch::Receiver<bool>,
    ) -> Result<Arc<Self>, reelforge_kit::BusError> {
        let mut sub = bus.subscribe(PROGRESS_TOPICS).await?;
        let me = Arc::new(Self {
            bus,
            cache,
            local: broadcast::channel(1024).0,
        });
        let listener = me.clone();
        tokio::spawn(async move {
            loop {
                tokio::select! {
                    _ = shutdown.changed() => return,
                    got = sub.next() => match got {
                        Some(e) => match RenderProgress::decode(e.body.as_slice()) {
                            Ok(p) => listener.record(p).await,
                            Err(err) => tracing::warn!(error = %err, topic = %e.topic, "undecodable render event"),
                        },
                        None => return,
                    },
                }
            }
        });
        Ok(me)
    }

    async fn record(&self, p: RenderProgress) {
        let cached = Cached {
            job_id: p.job_id.clone(),
            stage: p.stage.clone(),
            frames_done: p.frames_done,
            frames_total: p.frames_total,
            percent: p.percent,
            eta_seconds: p.eta_seconds,
            seq: p.seq,
            reason: p.reason.clone(),
            video_key: p.video_key.clone(),
        };
        if let Ok(text) = serde_json::to_string(&cached)
            && let Err(e) = self
                .cache
                .set(&cache_key(p.task_id), &text, Some(KEEP))
                .await
        {
            tracing::warn!(error = %e, "render progress not cached");
        }
        let _ = self.local.send(p);
    }

    /// The latest event of a task, when the cache has one.
    pub async fn latest(&self, task_id: i64) -> Option<RenderProgress> {
        let text = self.cache.get(&cache_key(task_id)).await.ok()??;
        let c: Cached = serde_json::from_str(&text).ok()?;
        Some(RenderProgress {
            job_id: c.job_id,
            task_id,
            stage: c.stage,
            frames_done: c.frames_done,
            frames_total: c.frames_total,
            tenant: String::new(),
            percent: c.percent,
            eta_seconds: c.eta_seconds,
            seq: c.seq,
            reason: c.reason,
            video_key: c.video_key,
        })
    }

    /// Publishes an event of this service (a run queued, an end) to every replica's watchers.
    pub async fn announce(&self, p: RenderProgress) {
        if let Err(e) = self
            .bus
            .publish(&progress_topic(p.task_id), &p.encode_to_vec())
            .await
        {
            tracing::warn!(error = %e, "render event not published; recorded here only");
            self.record(p).await;
        }
    }

    /// Tells the worker rendering `job_id` to stop.
    pub async fn cancel_job(&self, job_id: &str) {
        if let Err(e) = self
            .bus
            .publish(&cancel_topic(job_id), job_id.as_bytes())
            .await
        {
            tracing::warn!(error = %e, job_id, "cancel not published; the worker stops at its next heartbeat");
        }
    }

    /// Every render event this replica sees from now on.
    pub fn subscribe(&self) -> broadcast::Receiver<RenderProgress> {
        self.local.subscribe()
    }
}
