//! The render worker: takes render jobs from the queue, renders the rule snapshot in the job with
//! `reelforge-render`, stores the MP4 and cover under keys derived from the job id, reports the end
//! to the task service, then acks. A job handed back (shutdown, storage or reporting failure) is
//! delivered again; one past the delivery limit is dead-lettered and its task marked failed.

use std::path::PathBuf;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use prost::Message;
use reelforge_kit::{BlobStore, Job, JobQueue};
use reelforge_proto::common::Caller;
use reelforge_proto::material::GetMaterialRequest;
use reelforge_proto::material::material_service_client::MaterialServiceClient;
use reelforge_proto::render::RenderJob;
use reelforge_proto::task::FinishRenderRequest;
use reelforge_proto::task::task_service_client::TaskServiceClient;
use tokio::sync::watch;
use tonic::transport::Channel;

/// The queue render jobs travel on.
pub const RENDER_QUEUE: &str = reelforge_task::RENDER_QUEUE;

/// What a worker needs.
pub struct Worker {
    /// The job queue.
    pub queue: Arc<dyn JobQueue>,
    /// Where renders are stored.
    pub blob: BlobStore,
    /// The task service.
    pub tasks: TaskServiceClient<Channel>,
    /// The material service, for the materials a rule names by id (backgrounds, masks).
    pub library: MaterialServiceClient<Channel>,
    /// Directory the rules' material paths are looked up in.
    pub materials: PathBuf,
    /// Scratch directory for renders in progress.
    pub scratch: PathBuf,
}

enum Outcome {
    Done,
    HandBack(String),
}

impl Worker {
    /// Runs until `shutdown` turns true; a render in progress is cancelled and handed back.
    pub async fn run(self, mut shutdown: watch::Receiver<bool>) {
        if let Err(e) = std::fs::create_dir_all(&self.scratch) {
            tracing::error!(error = %e, dir = %self.scratch.display(), "worker scratch directory");
            return;
        }
        tracing::info!(queue = RENDER_QUEUE, "render worker started");
        let mut dead_check = tokio::time::interval(Duration::from_secs(30));
        loop {
            if *shutdown.borrow() {
                break;
            }
            tokio::select! {
                _ = shutdown.changed() => continue,
                _ = dead_check.tick() => self.fail_dead_letters().await,
                got = self.queue.receive(RENDER_QUEUE, Duration::from_secs(2)) => match got {
                    Ok(Some(job)) => self.handle(job, shutdown.clone()).await,
                    Ok(None) => {}
                    Err(e) => {
                        tracing::warn!(error = %e, "render queue receive failed");
                        tokio::time::sleep(Duration::from_secs(1)).await;
                    }
                },
            }
        }
        tracing::info!("render worker stopped");
    }

    async fn handle(&self, job: Job, shutdown: watch::Receiver<bool>) {
        let Ok(msg) = RenderJob::decode(job.body.as_slice()) else {
            tracing::error!(job_id = %job.id, "undecodable render job dropped");
            let _ = self.queue.ack(job).await;
            return;
        };
        let span = tracing::info_span!("render_job", job_id = %msg.job_id, task_id = msg.task_id, tenant = %msg.tenant, attempt = job.attempt);
        let _enter = span.enter();
        match self.render_and_store(&msg, shutdown).await {
            Outcome::Done => {
                if let Err(e) = self.queue.ack(job).await {
                    tracing::warn!(error = %e, "ack failed; the job may be delivered again and re-rendered to the same key");
                }
            }
            Outcome::HandBack(why) => {
                tracing::warn!(reason = %why, "render job handed back");
                let _ = self.queue.retry(job).await;
            }
        }
    }

    async fn render_and_store(
        &self,
        msg: &RenderJob,
        mut shutdown: watch::Receiver<bool>,
    ) -> Outcome {
        let rule = match reelforge_timeline::Rule::parse(&msg.task_info) {
            Ok(r) => r,
            Err(e) => return self.finish(msg, Err(format!("rule: {e}"))).await,
        };
        let out = self.scratch.join(format!("{}.mp4", msg.job_id));
        let cover = self.scratch.join(format!("{}.jpg", msg.job_id));
        let cancel = Arc::new(AtomicBool::new(false));
        let materials = match self.materials_for(&rule, &msg.tenant).await {
            Ok(m) => m,
            Err(why) => return Outcome::HandBack(why),
        };
        let (out2, cover2, cancel2) = (out.clone(), cover.clone(), cancel.clone());
        let render = tokio::task::spawn_blocking(move || {
            let opts = reelforge_render::RenderOptions {
                cover: Some(cover2),
                ..Default::default()
            };
            reelforge_render::render(&rule, &materials, &out2, &opts, &mut |_| {}, &cancel2)
        });
        tokio::pin!(render);
        let result = loop {
            tokio::select! {
                r = &mut render => break r,
                _ = shutdown.changed() => cancel.store(true, Ordering::Relaxed),
            }
        };
        let outcome = match result {
            Err(join) => Outcome::HandBack(format!("render task: {join}")),
            Ok(Err(reelforge_render::RenderError::Cancelled)) => {
                Outcome::HandBack("cancelled by shutdown".into())
            }
            Ok(Err(e)) => self.finish(msg, Err(e.to_string())).await,
            Ok(Ok(_)) => match self.store(msg, &out, &cover).await {
                Ok((video_key, cover_key)) => self.finish(msg, Ok((video_key, cover_key))).await,
                Err(e) => Outcome::HandBack(format!("storage: {e}")),
            },
        };
        let _ = std::fs::remove_file(&out);
        let _ = std::fs::remove_file(&cover);
        outcome
    }

    /// Looks up the materials the rule names by id in the caller's tenant; an id the library
    /// does not know stays unknown (a plain canvas; a mask then fails the render, naming it).
    async fn materials_for(
        &self,
        rule: &reelforge_timeline::Rule,
        tenant: &str,
    ) -> Result<reelforge_render::Materials, String> {
        let mut m = reelforge_render::Materials::new(self.materials.clone());
        for id in reelforge_render::material_ids(rule) {
            let req = GetMaterialRequest {
                caller: Some(Caller {
                    tenant: tenant.to_owned(),
                    ..Caller::default()
                }),
                material_id: id.clone(),
            };
            match self.library.clone().get(req).await {
                Ok(found) => {
                    let found = found.into_inner();
                    if !found.relative_path.is_empty() {
                        m.by_id.insert(id, found.relative_path);
                    }
                }
                Err(s)
                    if matches!(
                        s.code(),
                        tonic::Code::NotFound | tonic::Code::InvalidArgument
                    ) => {}
                Err(s) => return Err(format!("material service: {}", s.message())),
            }
        }
        Ok(m)
    }

    async fn store(
        &self,
        msg: &RenderJob,
        out: &std::path::Path,
        cover: &std::path::Path,
    ) -> Result<(String, String), String> {
        let base = format!(
            "t/{}/tasks/{}/renders/{}",
            msg.tenant, msg.task_id, msg.job_id
        );
        let video_key = format!("{base}.mp4");
        let cover_key = format!("{base}.jpg");
        let video = tokio::fs::read(out).await.map_err(|e| e.to_string())?;
        self.blob
            .put(&video_key, video)
            .await
            .map_err(|e| e.to_string())?;
        if let Ok(jpg) = tokio::fs::read(cover).await {
            self.blob
                .put(&cover_key, jpg)
                .await
                .map_err(|e| e.to_string())?;
            Ok((video_key, cover_key))
        } else {
            Ok((video_key, String::new()))
        }
    }

    async fn finish(&self, msg: &RenderJob, result: Result<(String, String), String>) -> Outcome {
        let (ok, video_key, cover_key, reason) = match result {
            Ok((v, c)) => (true, v, c, String::new()),
            Err(r) => {
                tracing::warn!(reason = %r, "render failed");
                (false, String::new(), String::new(), r)
            }
        };
        let req = FinishRenderRequest {
            tenant: msg.tenant.clone(),
            task_id: msg.task_id,
            job_id: msg.job_id.clone(),
            ok,
            video_key,
            cover_key,
            reason,
        };
        match self.tasks.clone().finish(req).await {
            Ok(_) => Outcome::Done,
            Err(s) => Outcome::HandBack(format!("task service: {}", s.message())),
        }
    }

    async fn fail_dead_letters(&self) {
        let Ok(dead) = self.queue.drain_dead_letters(RENDER_QUEUE, 50).await else {
            return;
        };
        for letter in dead {
            let Ok(msg) = RenderJob::decode(letter.body.as_slice()) else {
                continue;
            };
            tracing::error!(job_id = %msg.job_id, task_id = msg.task_id, "render job dead-lettered after repeated failures");
            let _ = self
                .finish(&msg, Err("render failed after repeated attempts".into()))
                .await;
        }
    }
}
