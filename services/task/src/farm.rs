//! The task service's side of the render farm, one background loop: the outbox relay publishes
//! committed jobs (publisher confirms + mandatory in the queue), fairly across tenants, and deletes
//! each row once confirmed, retrying with backoff; the reaper takes back jobs whose worker stopped
//! beating; the dead-letter consumer fails the task of a job delivered past the limit before it
//! acks the letter.

use std::sync::Arc;
use std::time::Duration;

use prost::Message;
use reelforge_kit::JobQueue;
use reelforge_kit::db::now_millis;
use tokio::sync::watch;

use crate::domain::{FinishOutcome, JobRef, TaskError};
use crate::store::{Reaped, TaskStore};

/// Lease and retry settings of the farm.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct FarmSettings {
    /// The queue render jobs are published to (`RENDER_QUEUE` in production).
    pub queue: String,
    /// A running job whose heartbeat is older than this is taken back.
    pub stale: Duration,
    /// Attempts a job gets before its task fails.
    pub max_attempts: u32,
    /// Jobs of one tenant published and not yet started at most (at least 1).
    pub tenant_in_queue: u32,
}

impl FarmSettings {
    /// The stale limit in milliseconds.
    pub fn stale_ms(&self) -> i64 {
        i64::try_from(self.stale.as_millis()).unwrap_or(i64::MAX / 2)
    }
}

/// Outbox rows published per pass.
const BATCH: u64 = 50;
/// How often the loop looks without being woken (other processes' runs, postponed rows).
const IDLE: Duration = Duration::from_secs(1);
/// Longest wait between publishes of a row the broker keeps refusing.
const MAX_BACKOFF_MS: i64 = 30_000;

/// How often the reaper looks for jobs whose worker went silent.
fn reap_every(stale: Duration) -> Duration {
    (stale / 3).clamp(Duration::from_millis(200), Duration::from_secs(10))
}

fn backoff_ms(tries: u32) -> i64 {
    (250_i64 << tries.min(10)).min(MAX_BACKOFF_MS)
}

/// Runs the relay, reaper and dead-letter consumer until `shutdown` turns true.
pub async fn run(
    store: TaskStore,
    queue: Arc<dyn JobQueue>,
    settings: FarmSettings,
    mut shutdown: watch::Receiver<bool>,
) {
    let signal = store.outbox_signal();
    let mut reap = tokio::time::interval(reap_every(settings.stale));
    loop {
        if *shutdown.borrow() {
            return;
        }
        if let Err(e) = relay(&store, queue.as_ref(), &settings).await {
            tracing::warn!(error = %e, "outbox relay pass failed");
        }
        if let Err(e) = dead_letters(&store, queue.as_ref(), &settings.queue).await {
            tracing::warn!(error = %e, "dead-letter pass failed");
        }
        if let Err(e) = gauges(&store).await {
            tracing::warn!(error = %e, "queue gauges not read");
        }
        tokio::select! {
            _ = signal.notified() => {}
            _ = tokio::time::sleep(IDLE) => {}
            _ = shutdown.changed() => {}
            _ = reap.tick() => match store.reap(settings.stale_ms(), settings.max_attempts).await {
                Ok(reaped) => reaped.iter().for_each(|r| match r {
                    Reaped::Requeued(j) => tracing::warn!(job_id = %j.job_id, attempt = j.attempt, "silent worker: job queued again"),
                    Reaped::Failed(j) => tracing::error!(job_id = %j.job_id, attempt = j.attempt, "silent worker, out of attempts: task failed"),
                }),
                Err(e) => tracing::warn!(error = %e, "reaper pass failed"),
            },
        }
    }
}

/// Sets the queue depth and the oldest queued job's age (0 when none waits).
pub async fn gauges(store: &TaskStore) -> Result<(), TaskError> {
    use reelforge_kit::metrics::{RENDER_OLDEST_JOB_AGE, RENDER_QUEUE_DEPTH};
    let depth = store.queued_jobs().await?;
    RENDER_QUEUE_DEPTH.set(i64::try_from(depth).unwrap_or(i64::MAX));
    let age_ms = match store.oldest_queued_ms().await? {
        Some(queued) => (now_millis() - queued).max(0),
        None => 0,
    };
    RENDER_OLDEST_JOB_AGE.set(age_ms / 1000);
    Ok(())
}

async fn relay(
    store: &TaskStore,
    queue: &dyn JobQueue,
    settings: &FarmSettings,
) -> Result<(), TaskError> {
    let cap = settings.tenant_in_queue.max(1);
    for entry in store.outbox_fair(cap, BATCH).await? {
        // Another replica's relay may have chosen the same row: one claim wins, so the row is
        // published once and its tenant's cap holds.
        if !store.outbox_claim(&entry).await? {
            continue;
        }
        match queue.publish(&settings.queue, &entry.id, &entry.body).await {
            Ok(()) => store.outbox_sent(&entry.id).await?,
            Err(e) => {
                let tries = entry.tries + 1;
                tracing::warn!(error = %e, outbox = %entry.id, tries, "publish not confirmed; retrying later");
                store
                    .outbox_postpone(&entry.id, tries, now_millis() + backoff_ms(tries))
                    .await?;
                // The broker is likely down; the rest of the batch would fail the same way.
                return Ok(());
            }
        }
    }
    Ok(())
}

async fn dead_letters(
    store: &TaskStore,
    queue: &dyn JobQueue,
    name: &str,
) -> Result<(), TaskError> {
    while let Some(letter) = queue.receive_dead(name).await? {
        let Ok(job) = reelforge_proto::render::RenderJob::decode(letter.body.as_slice()) else {
            tracing::error!(id = %letter.id, "undecodable dead letter dropped");
            queue.ack(letter).await?;
            continue;
        };
        // Where and why the broker gave the job up, for the operator reading the log.
        let (died_in, why) = letter.death.as_ref().map_or(("", ""), |d| (d.queue.as_str(), d.reason.as_str()));
        tracing::error!(job_id = %job.job_id, task_id = job.task_id, died_in, why, "render job dead-lettered after repeated deliveries");
        let reference = JobRef {
            tenant: job.tenant,
            task_id: job.task_id,
            job_id: job.job_id,
            attempt: job.attempt,
        };
        let reason = "task composition failed: the render was given back too many times".to_owned();
        match store
            .finish(&reference, true, FinishOutcome::Failed { reason })
            .await
        {
            Ok(_) => queue.ack(letter).await?,
            Err(e) => {
                queue.retry(letter).await?;
                return Err(e);
            }
        }
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Catalogue Q3: with the shipped settings a killed worker's render is queued again within
    /// 30 s of its last heartbeat: the stale limit, then at most one reaper period before a pass
    /// takes it back, then one idle turn of the loop before the outbox relay publishes it.
    #[test]
    fn the_shipped_settings_requeue_a_killed_workers_render_within_30_s() {
        let worker = reelforge_kit::config::Config::default().worker;
        let stale = Duration::from_secs(worker.stale_seconds);
        let bound = stale + reap_every(stale) + IDLE;
        assert!(bound <= Duration::from_secs(30), "{bound:?}");
        assert!(worker.stale_seconds >= 3 * worker.heartbeat_seconds, "three beats may be missed before a job is taken back");
    }

    /// Catalogue Q8: once a restarted broker answers again, a row saved while it was away is
    /// published within 60 s: the relay's longest backoff, then one connection attempt.
    #[test]
    fn the_outbox_publishes_again_within_60_s_of_the_brokers_return() {
        let longest = (0..64).map(backoff_ms).max().unwrap_or(0);
        let bound = Duration::from_millis(u64::try_from(longest).unwrap_or(u64::MAX)) + reelforge_kit::queue::BROKER_ANSWER + IDLE;
        assert!(bound <= Duration::from_secs(60), "{bound:?}");
    }
}
