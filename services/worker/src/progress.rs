//! Progress of one job, from the engine's callback to the event bus: the latest report replaces
//! the previous one and at most one is published every 250 ms (the first at once).

use std::sync::Arc;
use std::time::{Duration, Instant};

use prost::Message;
use reelforge_kit::EventBus;
use reelforge_kit::bus::progress_topic;
use reelforge_kit::db::now_millis;
use reelforge_proto::render::{RenderJob, RenderProgress};
use reelforge_render::{Progress, Stage};
use tokio::sync::watch;

/// Shortest time between two published reports of a job.
const EVERY: Duration = Duration::from_millis(250);

/// Where the worker reports a job's progress.
#[derive(Clone)]
pub struct Reporter {
    tx: Arc<watch::Sender<Option<RenderProgress>>>,
    base: RenderProgress,
}

/// The stage names and percentages the browser shows, for the engine's stages.
fn shown(p: &Progress) -> (&'static str, u32) {
    let part = |done: u64, total: u64| {
        (done.min(total) * 100)
            .checked_div(total)
            .map_or(0, |p| p as u32)
    };
    match p.stage {
        Stage::Fetch => ("fetching", 2),
        Stage::Decode => ("fetching", 5),
        Stage::Compose => ("rendering", 5 + part(p.done, p.total) * 85 / 100),
        Stage::Encode => ("encoding", 90),
        Stage::Mux => ("encoding", 93),
        Stage::Upload => ("encoding", 95),
    }
}

impl Reporter {
    /// Starts publishing the reports of `job` on `bus` until every copy of the reporter is gone.
    pub fn start(bus: Arc<dyn EventBus>, job: &RenderJob) -> Self {
        let (tx, mut rx) = watch::channel(None::<RenderProgress>);
        let topic = progress_topic(job.task_id);
        tokio::spawn(async move {
            while rx.changed().await.is_ok() {
                let latest = rx.borrow_and_update().clone();
                if let Some(p) = latest
                    && let Err(e) = bus.publish(&topic, &p.encode_to_vec()).await
                {
                    tracing::warn!(error = %e, "progress not published");
                }
                tokio::time::sleep(EVERY).await;
            }
        });
        let base = RenderProgress {
            job_id: job.job_id.clone(),
            task_id: job.task_id,
            tenant: job.tenant.clone(),
            eta_seconds: -1,
            ..Default::default()
        };
        Self {
            tx: Arc::new(tx),
            base,
        }
    }

    /// Reports a stage of the worker's own (fetching, uploading).
    pub fn stage(&self, stage: &str, percent: u32) {
        self.send(RenderProgress {
            stage: stage.to_owned(),
            percent,
            ..self.base.clone()
        });
    }

    fn send(&self, mut p: RenderProgress) {
        p.seq = now_millis();
        self.tx.send_replace(Some(p));
    }

    /// A tool's progress callback: its output's milliseconds done as the rendering stage, with an
    /// ETA from the rate so far.
    pub fn tool_callback(&self) -> impl FnMut(reelforge_tools::Progress) + Send + use<> {
        let me = self.clone();
        let since = Instant::now();
        move |p: reelforge_tools::Progress| {
            let done = p.done_ms.min(p.total_ms);
            let part = (done * 100).checked_div(p.total_ms).map_or(0, |x| x as u32);
            let eta = if done > 0 {
                (since.elapsed().as_secs_f64() / done as f64 * (p.total_ms - done) as f64).ceil() as i64
            } else {
                -1
            };
            me.send(RenderProgress {
                stage: "rendering".to_owned(),
                percent: 5 + part * 85 / 100,
                eta_seconds: eta,
                ..me.base.clone()
            });
        }
    }

    /// The engine's progress callback: frames and an ETA from the drawing rate.
    pub fn engine_callback(&self) -> impl FnMut(Progress) + Send + use<> {
        let me = self.clone();
        let mut drawing_since: Option<Instant> = None;
        move |p: Progress| {
            let (stage, percent) = shown(&p);
            let mut eta = -1;
            if p.stage == Stage::Compose {
                let since = *drawing_since.get_or_insert_with(Instant::now);
                if p.done > 0 && p.total >= p.done {
                    let per_frame = since.elapsed().as_secs_f64() / p.done as f64;
                    eta = (per_frame * (p.total - p.done) as f64).ceil() as i64;
                }
            }
            me.send(RenderProgress {
                stage: stage.to_owned(),
                percent,
                frames_done: p.done,
                frames_total: p.total,
                eta_seconds: eta,
                ..me.base.clone()
            });
        }
    }
}
