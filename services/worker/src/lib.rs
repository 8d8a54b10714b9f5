//! The render worker: takes render jobs from the queue (`concurrency` at once), asks the task
//! service whether this delivery may render (a cancelled, ended or superseded job is dropped),
//! fetches the materials through the blob store into a scratch directory of the job, renders with
//! `reelforge-render`, uploads the MP4 and cover under keys derived from the job id, reports the end
//! to the task service and acks only after that report committed. While it renders it beats a
//! heartbeat; a job the task service no longer leases to it is stopped. A service or storage that
//! fails for a passing reason is tried again in place with backoff ([`retry`]) before the job is
//! handed back, and a hand-back waits longer with each delivery, so a restart of a service does not
//! spend a job's delivery limit.

mod asr;
mod audit;
pub mod cache;
mod clients;
mod error;
pub mod fetch;
mod picture;
mod progress;
pub mod retry;
mod speech;
mod stages;

use std::collections::HashMap;
use std::path::{Path, PathBuf};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::{Arc, Mutex};
use std::time::Duration;

use prost::Message;
use reelforge_kit::bus::CANCEL_TOPICS;
use reelforge_kit::{BlobStore, EventBus, Job, JobQueue};
use reelforge_proto::render::RenderJob;
use reelforge_proto::task::FinishRenderRequest;
use tokio::sync::watch;
use tracing::Instrument;

pub use cache::MaterialCache;
pub use clients::Clients;
pub use error::{Disposition, WorkerError};

pub use reelforge_kit::queue::RENDER_QUEUE;

/// How a worker runs.
#[derive(Debug, Clone)]
pub struct WorkerSettings {
    /// The queue to take jobs from (`RENDER_QUEUE` in production).
    pub queue: String,
    /// Scratch directory for jobs in progress (one sub-directory per job).
    pub scratch: PathBuf,
    /// Jobs rendered at once.
    pub concurrency: usize,
    /// Time between heartbeats of a rendering job.
    pub heartbeat: Duration,
    /// Materials kept between jobs.
    pub material_cache: MaterialCache,
    /// How long one render may take.
    pub time_limit: RenderTimeLimit,
    /// The nice value renders start from (`RenderOptions::nice`); 0 keeps the default priority.
    pub render_nice: i32,
    /// What each toolbox tool takes at most.
    pub tools: reelforge_tools::Limits,
    /// The AI providers (`[ai]`): who speaks a dubbing (`TEXT_TO_VOICE`) for each tenant.
    pub ai: reelforge_kit::config::AiConfig,
}

/// How long a render may take: a floor plus an allowance per second of video. A render past it is
/// stopped and its task fails, so an engine fault that never finishes cannot hold a worker.
#[derive(Debug, Clone, Copy)]
pub struct RenderTimeLimit {
    /// Time any render may take.
    pub floor: Duration,
    /// Time added per second of video.
    pub per_video_second: Duration,
}

impl RenderTimeLimit {
    /// The limit of a video of `seconds`; a length no render could reach gives no limit beyond
    /// the largest duration, never a panic.
    pub fn of(&self, seconds: f64) -> Duration {
        let extra = Duration::try_from_secs_f64(self.per_video_second.as_secs_f64() * seconds.max(0.0))
            .unwrap_or(Duration::MAX);
        self.floor.saturating_add(extra)
    }
}

/// Time a render stopped at its limit has to return before the worker gives up on it.
const STOP_GRACE: Duration = Duration::from_secs(30);
/// How long one receive waits for a job before the slot looks at its stop signal again.
const RECEIVE_WAIT: Duration = Duration::from_secs(2);
/// Pause after a failed receive (the broker is away) before the next, which connects again.
const RECEIVE_RETRY: Duration = Duration::from_secs(1);

/// A render worker.
pub struct Worker {
    queue: Arc<dyn JobQueue>,
    bus: Arc<dyn EventBus>,
    blob: BlobStore,
    clients: Clients,
    settings: WorkerSettings,
    /// The AI providers of `settings.ai`.
    providers: Arc<reelforge_ai::Providers>,
    /// The cancel flags of the jobs rendering here, by job id.
    running: Mutex<HashMap<String, Arc<AtomicBool>>>,
}

/// What a finished render hands to the task service.
struct Rendered {
    video_key: String,
    cover_key: String,
    /// The mix's loudness, LUFS (None: silent).
    loudness: Option<f64>,
    /// A tool run's outputs (empty for a render).
    outputs: Vec<reelforge_proto::task::ToolOutput>,
}

/// The storage prefix of a tool job's outputs: `t/{tenant}/tasks/{taskId}/renders/{jobId}/`, under
/// which the task service accepts them.
pub fn tool_prefix(tenant: &str, task_id: i64, job_id: &str) -> String {
    format!("t/{tenant}/tasks/{task_id}/renders/{job_id}/")
}

/// The storage keys of a job's video and cover.
pub fn output_keys(tenant: &str, task_id: i64, job_id: &str) -> (String, String) {
    let base = format!("t/{tenant}/tasks/{task_id}/renders/{job_id}");
    (format!("{base}.mp4"), format!("{base}.jpg"))
}

impl Worker {
    /// A worker over the queue, the event bus, the blob store and the services.
    pub fn new(
        queue: Arc<dyn JobQueue>,
        bus: Arc<dyn EventBus>,
        blob: BlobStore,
        clients: Clients,
        settings: WorkerSettings,
    ) -> Self {
        Self {
            queue,
            bus,
            blob,
            clients,
            providers: Arc::new(reelforge_ai::Providers::new(settings.ai.clone())),
            settings,
            running: Mutex::new(HashMap::new()),
        }
    }

    fn running(&self) -> std::sync::MutexGuard<'_, HashMap<String, Arc<AtomicBool>>> {
        self.running.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// Stops the jobs cancelled on the bus, within the engine's next frame.
    async fn listen_for_cancels(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) {
        let mut sub = match self.bus.subscribe(CANCEL_TOPICS).await {
            Ok(s) => s,
            Err(e) => {
                tracing::error!(error = %e, "cancel events unavailable; cancels reach renders at their heartbeat");
                return;
            }
        };
        loop {
            tokio::select! {
                _ = shutdown.changed() => return,
                got = sub.next() => match got {
                    Some(e) => {
                        let job_id = String::from_utf8_lossy(&e.body).into_owned();
                        if let Some(flag) = self.running().get(&job_id) {
                            tracing::info!(%job_id, "render cancelled");
                            flag.store(true, Ordering::Relaxed);
                        }
                    }
                    None => return,
                },
            }
        }
    }

    /// Runs until `shutdown` turns true; a render in progress is cancelled and handed back.
    pub async fn run(self, shutdown: watch::Receiver<bool>) {
        if let Err(e) = std::fs::create_dir_all(&self.settings.scratch) {
            tracing::error!(error = %e, dir = %self.settings.scratch.display(), "worker scratch directory");
            return;
        }
        let slots = self.settings.concurrency.max(1);
        tracing::info!(queue = %self.settings.queue, slots, "render worker started");
        let me = Arc::new(self);
        tokio::spawn(me.clone().listen_for_cancels(shutdown.clone()));
        let mut set = tokio::task::JoinSet::new();
        for _ in 0..slots {
            set.spawn(me.clone().slot(shutdown.clone()));
        }
        while set.join_next().await.is_some() {}
        tracing::info!("render worker stopped");
    }

    async fn slot(self: Arc<Self>, mut shutdown: watch::Receiver<bool>) {
        loop {
            if *shutdown.borrow() {
                return;
            }
            tokio::select! {
                _ = shutdown.changed() => {}
                got = self.queue.receive(&self.settings.queue, RECEIVE_WAIT) => match got {
                    Ok(Some(job)) => self.handle(job, shutdown.clone()).await,
                    Ok(None) => {}
                    Err(e) => {
                        tracing::warn!(error = %e, "render queue receive failed");
                        tokio::time::sleep(RECEIVE_RETRY).await;
                    }
                },
            }
        }
    }

    async fn handle(&self, job: Job, shutdown: watch::Receiver<bool>) {
        let msg = match RenderJob::decode(job.body.as_slice()) {
            Ok(m) => m,
            Err(e) => {
                let e = WorkerError::Undecodable(e.to_string());
                tracing::error!(id = %job.id, error = %e, "render job rejected");
                if let Err(q) = self.queue.reject(job).await {
                    tracing::warn!(error = %q, "reject failed; the job will be delivered again");
                }
                return;
            }
        };
        let span = tracing::info_span!("render_job", job_id = %msg.job_id, task_id = msg.task_id, tenant = %msg.tenant, attempt = msg.attempt, delivery = job.attempt);
        self.render_job(job, msg, shutdown).instrument(span).await;
    }

    async fn render_job(&self, job: Job, msg: RenderJob, shutdown: watch::Receiver<bool>) {
        let mut stages = stages::Stages::start();
        let mut stop = shutdown.clone();
        let start = retry::call(
            "start",
            retry::Backoff::service(retry::BUDGET),
            Some(&mut stop),
            || self.clients.start(&msg),
        )
        .await;
        match start {
            Ok(r) if r.start => {}
            Ok(_) => {
                tracing::info!("job cancelled, ended or rendered elsewhere: delivery dropped");
                return self.ack(job).await;
            }
            Err(s) => {
                tracing::warn!(error = %s.message(), "task service unreachable: job handed back");
                return self.hand_back(job, None, shutdown).await;
            }
        }
        stages.lap("start");
        let dir = self
            .settings
            .scratch
            .join(format!("{}-{}", msg.job_id, msg.attempt));
        let cancel = Arc::new(AtomicBool::new(false));
        self.running().insert(msg.job_id.clone(), cancel.clone());
        let started = std::time::Instant::now();
        reelforge_kit::metrics::RENDER_IN_FLIGHT.inc();
        let beat = tokio::spawn(heartbeat(
            self.clients.clone(),
            msg.clone(),
            self.settings.heartbeat,
            cancel.clone(),
        ));
        let mut result = self
            .process(&msg, &dir, cancel.clone(), shutdown.clone(), &mut stages)
            .await;
        // A passing fault (a service restarting, storage away) is tried again in place while the
        // heartbeat keeps the job this worker's; only then is it handed back.
        let mut backoff = retry::Backoff::service(retry::BUDGET);
        while let Err(e) = &result
            && e.passing()
            && !cancel.load(Ordering::Relaxed)
        {
            let Some(delay) = backoff.next_delay() else {
                break;
            };
            tracing::warn!(
                error = %e,
                retry_in_ms = delay.as_millis() as u64,
                "render job failed for a passing reason: trying again"
            );
            if retry::sleep_unless_stopping(delay, &mut stop).await {
                break;
            }
            if let Err(e) = tokio::fs::remove_dir_all(&dir).await
                && e.kind() != std::io::ErrorKind::NotFound
            {
                tracing::warn!(error = %e, dir = %dir.display(), "scratch directory not emptied");
            }
            result = self
                .process(&msg, &dir, cancel.clone(), shutdown.clone(), &mut stages)
                .await;
        }
        beat.abort();
        reelforge_kit::metrics::RENDER_IN_FLIGHT.dec();
        self.running().remove(&msg.job_id);
        if cancel.load(Ordering::Relaxed) && result.is_ok() {
            // Cancelled after the last frame: what was uploaded goes too.
            self.delete_output(&msg).await;
            result = Err(WorkerError::Cancelled);
        } else if let Err(e) = &result
            && !msg.tool_type.is_empty()
            && e.disposition() == Disposition::Fail
        {
            // A tool that failed during its uploads leaves none of its outputs.
            self.delete_output(&msg).await;
        }
        match &result {
            Ok(_) => {
                reelforge_kit::metrics::RENDER_SECONDS.observe(started.elapsed().as_secs_f64())
            }
            Err(e) => reelforge_kit::metrics::RENDER_FAILURES
                .with_label_values(&[e.cause()])
                .inc(),
        }
        if let Err(e) = tokio::fs::remove_dir_all(&dir).await
            && e.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!(error = %e, dir = %dir.display(), "scratch directory not removed");
        }
        stages.lap("clean-up");
        self.conclude(job, &msg, result, shutdown).await;
        stages.lap("finish");
        tracing::info!(total_ms = stages.total().as_millis() as u64, stages = %stages, "job ended");
    }

    /// Removes what a job stored: a render's video and cover, a tool's outputs (all under its
    /// prefix, so a tool that failed part way through its uploads leaves none).
    async fn delete_output(&self, msg: &RenderJob) {
        let (video, cover) = output_keys(&msg.tenant, msg.task_id, &msg.job_id);
        let mut keys = vec![video, cover];
        if !msg.tool_type.is_empty() {
            match self.blob.list(&tool_prefix(&msg.tenant, msg.task_id, &msg.job_id)).await {
                Ok(found) => keys.extend(found),
                Err(e) => tracing::warn!(error = %e, "outputs of a tool job not listed"),
            }
        }
        for key in keys {
            if let Err(e) = self.blob.delete(&key).await {
                tracing::warn!(error = %e, key, "output of a cancelled render not deleted");
            }
        }
    }

    async fn ack(&self, job: Job) {
        if let Err(e) = self.queue.ack(job).await {
            tracing::warn!(error = %e, "ack failed; a later delivery finds the job ended and is dropped");
        }
    }

    /// Releases the job row (when this worker started it) and gives the delivery back, after a
    /// wait that grows with the job's deliveries ([`retry::hand_back_delay`]): an immediate
    /// redelivery would meet the same fault. A stopping worker hands back at once and without
    /// counting the delivery: a rolling restart is not the job's fault.
    async fn hand_back(
        &self,
        job: Job,
        started: Option<&RenderJob>,
        mut shutdown: watch::Receiver<bool>,
    ) {
        let delay = retry::hand_back_delay(job.attempt);
        let stopping = retry::sleep_unless_stopping(delay, &mut shutdown).await;
        if !stopping {
            tracing::info!(waited_ms = delay.as_millis() as u64, "handing the job back");
        }
        if let Some(msg) = started
            && let Err(s) = retry::call(
                "release",
                retry::Backoff::service(retry::RELEASE_BUDGET),
                None,
                || self.clients.release(msg),
            )
            .await
        {
            tracing::warn!(error = %s.message(), "release failed; the reaper takes the job back");
        }
        let given = if stopping { self.queue.give_back(job).await } else { self.queue.retry(job).await };
        if let Err(e) = given {
            tracing::warn!(error = %e, "hand back failed; the job is delivered again when its lease or channel ends");
        }
    }

    async fn process(
        &self,
        msg: &RenderJob,
        dir: &Path,
        cancel: Arc<AtomicBool>,
        mut shutdown: watch::Receiver<bool>,
        stages: &mut stages::Stages,
    ) -> Result<Rendered, WorkerError> {
        if !msg.tool_type.is_empty() {
            let done = self.process_other(msg, dir, cancel, shutdown).await;
            stages.lap("work");
            return done;
        }
        let rule = reelforge_timeline::Rule::parse(&msg.task_info)
            .map_err(|e| WorkerError::Rule(e.to_string()))?;
        let reporter = progress::Reporter::start(self.bus.clone(), msg);
        reporter.stage("fetching", 0);
        tokio::fs::create_dir_all(dir).await?;
        let materials = fetch::materials(
            &self.clients,
            &self.blob,
            &self.settings.material_cache,
            msg,
            &rule,
            &dir.join("materials"),
        )
        .await?;
        stages.lap("fetch");
        let out = dir.join("out.mp4");
        let cover = dir.join("cover.jpg");
        let limit = self.settings.time_limit.of(rule.duration());
        let (out2, cover2, cancel2, nice) = (out.clone(), cover.clone(), cancel.clone(), self.settings.render_nice);
        let mut on_progress = reporter.engine_callback();
        let render = tokio::task::spawn_blocking(move || {
            let opts = reelforge_render::RenderOptions {
                cover: Some(cover2),
                nice,
                ..Default::default()
            };
            reelforge_render::render(&rule, &materials, &out2, &opts, &mut on_progress, &cancel2)
        });
        let (rendered, stopping) = supervise(render, &cancel, &mut shutdown, limit).await?;
        stages.lap("render");
        let report = match rendered {
            Err(reelforge_render::RenderError::Cancelled) if stopping => {
                return Err(WorkerError::Shutdown);
            }
            r => r?,
        };
        let loudness = report.loudness;
        if cancel.load(Ordering::Relaxed) {
            return Err(WorkerError::Cancelled);
        }
        reporter.stage("uploading", 97);
        let (video_key, cover_key) = output_keys(&msg.tenant, msg.task_id, &msg.job_id);
        self.blob.upload_file(&video_key, &out).await?;
        let cover_key = match tokio::fs::read(&cover).await {
            Ok(jpg) => {
                self.blob.put(&cover_key, jpg).await?;
                cover_key
            }
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => String::new(),
            Err(e) => return Err(e.into()),
        };
        stages.lap("upload");
        Ok(Rendered { video_key, cover_key, loudness, outputs: Vec::new() })
    }

    /// Runs a job that is not a render: a dubbing, a recognition, an audit, a picture or a tool.
    async fn process_other(
        &self,
        msg: &RenderJob,
        dir: &Path,
        cancel: Arc<AtomicBool>,
        shutdown: watch::Receiver<bool>,
    ) -> Result<Rendered, WorkerError> {
        if msg.tool_type == reelforge_ai::speech::TEXT_TO_VOICE {
            return self.process_speech(msg, dir, cancel, shutdown).await;
        }
        if msg.tool_type == reelforge_ai::asr::VOICE_TO_TEXT {
            return self.process_asr(msg, dir, cancel, shutdown).await;
        }
        if msg.tool_type == reelforge_ai::audit::VIDEO_AUDIT {
            return self.process_audit(msg, dir, cancel, shutdown).await;
        }
        if msg.tool_type == reelforge_ai::picture::TEXT_TO_IMAGE || msg.tool_type == reelforge_ai::picture::SIMILAR_IMAGE {
            return self.process_picture(msg, dir, cancel, shutdown).await;
        }
        self.process_tool(msg, dir, cancel, shutdown).await
    }

    /// Runs a tool job (docs/toolbox.md): its inputs fetched as the owner's materials, checked
    /// against the tool's limits, the tool run in the scratch directory, and each output uploaded
    /// under the job's prefix.
    async fn process_tool(
        &self,
        msg: &RenderJob,
        dir: &Path,
        cancel: Arc<AtomicBool>,
        mut shutdown: watch::Receiver<bool>,
    ) -> Result<Rendered, WorkerError> {
        let value: serde_json::Value =
            serde_json::from_str(&msg.tool_params).map_err(|e| WorkerError::Rule(format!("params: {e}")))?;
        let reporter = progress::Reporter::start(self.bus.clone(), msg);
        reporter.stage("fetching", 0);
        let out = dir.join("out");
        let (out2, cancel2) = (out.clone(), cancel.clone());
        let mut on_progress = reporter.tool_callback();
        let (run, limit) = if msg.tool_type == reelforge_tools::ring_fix::RING_FIX {
            // The ringtone's one-click fix: its input is the owner's finished render, whose key
            // the task service wrote into the parameters; it must lie under the job's tenant.
            let params = reelforge_tools::ring_fix::FixParams::parse(&value).map_err(|e| WorkerError::Rule(e.to_string()))?;
            let key = value.get("sourceKey").and_then(serde_json::Value::as_str).unwrap_or_default();
            if !key.starts_with(&format!("t/{}/tasks/", msg.tenant)) || key.contains("..") {
                return Err(WorkerError::Rule(format!("RING_FIX source `{key}` is not a render of the job's tenant")));
            }
            let input = dir.join("source.mp4");
            tokio::fs::create_dir_all(dir).await?;
            self.blob.download_to(key, &input).await?;
            let facts = {
                let input = input.clone();
                tokio::task::spawn_blocking(move || reelforge_tools::probe(&input))
                    .await
                    .map_err(|e| WorkerError::Scratch(std::io::Error::other(e.to_string())))??
            };
            let limit = self.settings.time_limit.of(facts.duration_ms as f64 / 1000.0);
            let run = tokio::task::spawn_blocking(move || {
                reelforge_tools::ring_fix::run(&params, &input, &out2, &mut on_progress, &cancel2)
            });
            (run, limit)
        } else {
            let tool = reelforge_tools::ToolType::parse(&msg.tool_type)
                .ok_or_else(|| WorkerError::Rule(format!("unknown toolbox type {}", msg.tool_type)))?;
            let params = reelforge_tools::Params::parse(tool, &value).map_err(|e| WorkerError::Rule(e.to_string()))?;
            let inputs = fetch::inputs(&self.clients, &self.blob, &self.settings.material_cache, msg, &dir.join("materials")).await?;
            let roles = params.inputs();
            if inputs.len() != roles.len() {
                return Err(WorkerError::Rule(format!("{} takes {} input(s), the job has {}", tool.name(), roles.len(), inputs.len())));
            }
            // Each media input within the tool's limits (a picture is checked by the tool); the
            // time limit follows the longest.
            let mut longest_ms = 0;
            for (i, (input, role)) in inputs.iter().zip(&roles).enumerate() {
                if *role == reelforge_tools::Input::Picture {
                    continue;
                }
                // A presentation is not media: its size is what the limits bound.
                let facts = if *role == reelforge_tools::Input::Presentation {
                    let bytes = tokio::fs::metadata(input).await?.len();
                    reelforge_tools::Facts { duration_ms: 0, bytes, audio: false, video: None, orientation: Default::default(), coding: Default::default() }
                } else {
                    let input = input.clone();
                    tokio::task::spawn_blocking(move || reelforge_tools::probe(&input))
                        .await
                        .map_err(|e| WorkerError::Scratch(std::io::Error::other(e.to_string())))??
                };
                self.settings.tools.check(tool, &facts).map_err(|mut e| {
                    e.field = params.input_field(i);
                    WorkerError::Tool(e.into())
                })?;
                longest_ms = longest_ms.max(facts.duration_ms);
            }
            let limit = self.settings.time_limit.of(longest_ms as f64 / 1000.0);
            let run = tokio::task::spawn_blocking(move || reelforge_tools::run(&params, &inputs, &out2, &mut on_progress, &cancel2));
            (run, limit)
        };
        let (ran, stopping) = supervise(run, &cancel, &mut shutdown, limit).await?;
        let outputs = match ran {
            Err(reelforge_tools::ToolError::Cancelled) if stopping => return Err(WorkerError::Shutdown),
            r => r?,
        };
        if cancel.load(Ordering::Relaxed) {
            return Err(WorkerError::Cancelled);
        }
        reporter.stage("uploading", 97);
        let stored = self.upload_outputs(msg, outputs).await?;
        Ok(Rendered { video_key: String::new(), cover_key: String::new(), loudness: None, outputs: stored })
    }

    /// Uploads a tool job's outputs under its prefix, each as `{prefix}{index}-{name}`.
    async fn upload_outputs(&self, msg: &RenderJob, outputs: Vec<reelforge_tools::Output>) -> Result<Vec<reelforge_proto::task::ToolOutput>, WorkerError> {
        let prefix = tool_prefix(&msg.tenant, msg.task_id, &msg.job_id);
        let mut stored = Vec::with_capacity(outputs.len());
        for (i, o) in outputs.into_iter().enumerate() {
            let key = format!("{prefix}{i}-{}", o.name);
            self.blob.upload_file(&key, &o.path).await?;
            stored.push(reelforge_proto::task::ToolOutput {
                key,
                kind: o.kind.name().to_owned(),
                name: o.name,
                size: o.size,
                duration_ms: o.duration_ms,
                width: o.width,
                height: o.height,
                ranges: o.ranges.iter().map(|r| reelforge_proto::task::SourceRange { start_ms: r.start_ms, end_ms: r.end_ms }).collect(),
            });
        }
        Ok(stored)
    }

    /// Reports the end and acks after the report committed; what cannot be reported is handed back.
    async fn conclude(
        &self,
        job: Job,
        msg: &RenderJob,
        result: Result<Rendered, WorkerError>,
        shutdown: watch::Receiver<bool>,
    ) {
        let mut report = FinishRenderRequest {
            task_id: msg.task_id,
            job_id: msg.job_id.clone(),
            attempt: msg.attempt,
            ..Default::default()
        };
        match result {
            Ok(done) => {
                report.ok = true;
                report.video_key = done.video_key;
                report.cover_key = done.cover_key;
                report.loudness = done.loudness;
                report.outputs = done.outputs;
            }
            Err(e) => match e.disposition() {
                Disposition::Fail => {
                    tracing::warn!(error = %e, "render failed");
                    report.reason = format!("task composition failed: {e}");
                }
                Disposition::Drop => {
                    tracing::info!("render stopped: the job was cancelled or taken back");
                    return self.ack(job).await;
                }
                Disposition::Retry => {
                    tracing::warn!(error = %e, "job handed back");
                    return self.hand_back(job, Some(msg), shutdown).await;
                }
                Disposition::DeadLetter => {
                    if let Err(q) = self.queue.reject(job).await {
                        tracing::warn!(error = %q, "reject failed");
                    }
                    return;
                }
            },
        }
        // Finish is a compare-and-set on (job, attempt, running): trying it again is safe.
        let mut stop = shutdown.clone();
        let finished = retry::call(
            "finish",
            retry::Backoff::service(retry::BUDGET),
            Some(&mut stop),
            || self.clients.finish(msg, report.clone()),
        )
        .await;
        match finished {
            Ok(r) => {
                if !r.applied {
                    tracing::info!("the job had already ended: report ignored");
                }
                self.ack(job).await;
            }
            Err(s) => {
                tracing::warn!(error = %s.message(), "finish not recorded: job handed back");
                self.hand_back(job, Some(msg), shutdown).await;
            }
        }
    }
}

/// Waits for a job's blocking work, stopping it through `cancel` when the worker shuts down or
/// the work runs past `limit`. Returns the work's result and whether the worker is stopping.
async fn supervise<T>(
    work: tokio::task::JoinHandle<T>,
    cancel: &AtomicBool,
    shutdown: &mut watch::Receiver<bool>,
    limit: Duration,
) -> Result<(T, bool), WorkerError> {
    tokio::pin!(work);
    let mut stopping = false;
    let over = tokio::time::sleep(limit);
    tokio::pin!(over);
    let mut timed_out = false;
    let done = loop {
        tokio::select! {
            r = &mut work => break r,
            _ = shutdown.changed(), if !stopping => {
                stopping = true;
                cancel.store(true, Ordering::Relaxed);
            }
            () = &mut over => {
                if timed_out {
                    // Stuck inside one frame, where the cancel is not looked at: the task
                    // fails and the slot is freed; the thread is left behind, as the log says.
                    tracing::error!("a render stopped at its time limit did not return: restart this worker");
                    return Err(WorkerError::TimedOut(limit.as_secs()));
                }
                timed_out = true;
                cancel.store(true, Ordering::Relaxed);
                tracing::error!(limit_s = limit.as_secs(), "render past its time limit: stopped");
                over.as_mut().reset(tokio::time::Instant::now() + STOP_GRACE);
            }
        }
    };
    match done {
        Err(join) => Err(WorkerError::Scratch(std::io::Error::other(join.to_string()))),
        Ok(_) if timed_out => Err(WorkerError::TimedOut(limit.as_secs())),
        Ok(r) => Ok((r, stopping)),
    }
}

/// Beats the job's heartbeat until aborted; a job no longer leased to this worker is cancelled.
async fn heartbeat(clients: Clients, job: RenderJob, every: Duration, cancel: Arc<AtomicBool>) {
    let mut tick = tokio::time::interval(every.max(Duration::from_millis(100)));
    tick.tick().await;
    loop {
        tick.tick().await;
        match clients.heartbeat(&job).await {
            Ok(r) if r.keep => {}
            Ok(_) => {
                tracing::info!("job no longer leased to this worker: render cancelled");
                cancel.store(true, Ordering::Relaxed);
                return;
            }
            Err(s) => tracing::warn!(error = %s.message(), "heartbeat failed"),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_time_limit_grows_with_the_video_and_never_overflows() {
        let limit = RenderTimeLimit { floor: Duration::from_secs(300), per_video_second: Duration::from_secs(10) };
        assert_eq!(limit.of(10.0), Duration::from_secs(400));
        assert_eq!(limit.of(-5.0), Duration::from_secs(300));
        assert_eq!(limit.of(f64::NAN), Duration::from_secs(300));
        assert_eq!(limit.of(1e300), Duration::MAX);
        assert_eq!(limit.of(f64::INFINITY), Duration::MAX);
    }

    /// Catalogue Q8: once a restarted broker answers again, a slot consumes within 60 s: at most
    /// one pause after the last failed receive, one connection attempt (bounded by the queue
    /// client's answer limit) and one receive's wait. The restart itself is tested on RabbitMQ
    /// (`tests/farm.rs`, `distributed_survives_a_broker_restart`).
    #[test]
    fn a_slot_consumes_again_within_60_s_of_the_brokers_return() {
        let bound = RECEIVE_RETRY + reelforge_kit::queue::BROKER_ANSWER + RECEIVE_WAIT;
        assert!(bound <= Duration::from_secs(60), "{bound:?}");
    }
}
