//! A picture run (`TEXT_TO_IMAGE`, `SIMILAR_IMAGE`; docs/ai.md "Pictures") on the farm: the
//! provider `[ai]` configures for the job's tenant draws the pictures (a similar image's source
//! material fetched, checked as a picture and squared first), each answered picture sniffed and
//! decoded (`reelforge_ai::picture::check_picture`), written under a partial name, renamed, and
//! uploaded as one of the run's outputs (kind `picture`). Nothing is a material until it is used.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use reelforge_ai::AiError;
use reelforge_ai::picture::{self, ImageAsk, TEXT_TO_IMAGE};
use reelforge_proto::render::RenderJob;
use tokio::sync::watch;

use crate::error::PictureFailure;
use crate::{Rendered, Worker, WorkerError, fetch, progress, supervise};

/// The seconds a picture is given in the time limit (a provider takes 5–30 s for one).
const SECONDS_PER_PICTURE: f64 = 60.0;

impl Worker {
    /// Runs a text-to-image or similar-image job.
    pub(crate) async fn process_picture(
        &self,
        msg: &RenderJob,
        dir: &Path,
        cancel: Arc<AtomicBool>,
        mut shutdown: watch::Receiver<bool>,
    ) -> Result<Rendered, WorkerError> {
        let value: serde_json::Value =
            serde_json::from_str(&msg.tool_params).map_err(|e| WorkerError::Rule(format!("params: {e}")))?;
        let ask = ImageAsk::parse(&msg.tool_type, &value, &msg.material_ids).map_err(|e| WorkerError::Rule(e.to_string()))?;
        let ability = if ask.tool_type == TEXT_TO_IMAGE { "text to image" } else { "similar image" };
        let failed = move |error: AiError| match error {
            AiError::Cancelled => WorkerError::Cancelled,
            error => WorkerError::Picture(PictureFailure { ability, error }),
        };
        // A provider turned off since the call fails the run with its reason.
        self.providers.status(&msg.tenant, ask.ability()).await.map_err(|u| failed(AiError::Unavailable(u)))?;
        let reporter = progress::Reporter::start(self.bus.clone(), msg);
        tokio::fs::create_dir_all(dir).await?;
        let source = if ask.tool_type == TEXT_TO_IMAGE {
            None
        } else {
            reporter.stage("fetching", 0);
            let inputs = fetch::inputs(&self.clients, &self.blob, &self.settings.material_cache, msg, &dir.join("materials")).await?;
            let input = inputs.into_iter().next().ok_or_else(|| WorkerError::Rule("a similar image needs its source picture".to_owned()))?;
            let bytes = tokio::fs::read(&input).await?;
            let size = ask.size;
            let squared = tokio::task::spawn_blocking(move || picture::square_png(bytes, size))
                .await
                .map_err(|e| WorkerError::Scratch(std::io::Error::other(e.to_string())))?;
            Some(squared.map_err(|why| failed(AiError::BadInput(format!("materialId: the source is not a picture we can read: {why}"))))?)
        };
        reporter.stage("rendering", 5);
        let limit = self.settings.time_limit.of(SECONDS_PER_PICTURE * f64::from(ask.count));
        let (providers, tenant, ask2, cancel2) = (self.providers.clone(), msg.tenant.clone(), ask.clone(), cancel.clone());
        let work = tokio::spawn(async move {
            // The provider's call is not a loop that looks at the flag: a cancel ends the wait.
            let stopped = async {
                while !cancel2.load(Ordering::Relaxed) {
                    tokio::time::sleep(Duration::from_millis(100)).await;
                }
            };
            tokio::select! {
                made = picture::generate(&providers, &tenant, &ask2, source.as_deref()) => made,
                () = stopped => Err(AiError::Cancelled),
            }
        });
        let (made, stopping) = supervise(work, &cancel, &mut shutdown, limit).await?;
        let pictures = match made {
            Err(AiError::Cancelled) if stopping => return Err(WorkerError::Shutdown),
            r => r.map_err(failed)?,
        };
        if cancel.load(Ordering::Relaxed) {
            return Err(WorkerError::Cancelled);
        }
        reporter.stage("uploading", 95);
        let stem = if ask.tool_type == TEXT_TO_IMAGE { "text-to-image" } else { "similar-image" };
        let mut outputs = Vec::with_capacity(pictures.len());
        for (i, p) in pictures.into_iter().enumerate() {
            let name = format!("{stem}-{}.{}", i + 1, p.extension);
            let (partial, path) = (dir.join(format!("partial-{name}")), dir.join(&name));
            tokio::fs::write(&partial, &p.bytes).await?;
            tokio::fs::rename(&partial, &path).await?;
            outputs.push(reelforge_tools::Output {
                path,
                kind: reelforge_tools::OutputKind::Picture,
                name,
                size: p.bytes.len() as u64,
                duration_ms: 0,
                width: p.width,
                height: p.height,
                ranges: Vec::new(),
            });
        }
        let outputs = self.upload_outputs(msg, outputs).await?;
        Ok(Rendered { video_key: String::new(), cover_key: String::new(), loudness: None, outputs })
    }
}
