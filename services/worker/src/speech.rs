//! A dubbing (`TEXT_TO_VOICE`, docs/ai.md "Text to speech") on the farm: the text spoken by the
//! provider `[ai]` configures for the job's tenant, the WAV written under a partial name and
//! renamed once whole, then uploaded as the run's one output. Progress is the sound made so far
//! against the estimate of its length; cancel, shutdown and the time limit are a render's.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use reelforge_ai::speech::Speech;
use reelforge_proto::render::RenderJob;
use tokio::sync::watch;

use crate::{Rendered, Worker, WorkerError, progress, supervise};

impl Worker {
    /// Runs a dubbing job.
    pub(crate) async fn process_speech(
        &self,
        msg: &RenderJob,
        dir: &Path,
        cancel: Arc<AtomicBool>,
        mut shutdown: watch::Receiver<bool>,
    ) -> Result<Rendered, WorkerError> {
        let value: serde_json::Value =
            serde_json::from_str(&msg.tool_params).map_err(|e| WorkerError::Rule(format!("params: {e}")))?;
        let speech = Speech::parse(&value).map_err(|e| WorkerError::Rule(e.to_string()))?;
        let reporter = progress::Reporter::start(self.bus.clone(), msg);
        reporter.stage("rendering", 5);
        let total_ms = speech.estimated_ms();
        let limit = self.settings.time_limit.of(total_ms as f64 / 1000.0);
        let mut on_progress = reporter.tool_callback();
        // The estimate is rough: the bar stops short of the end until the sound is whole.
        let progress = move |done_ms: u64| on_progress(reelforge_tools::Progress { done_ms: done_ms.min(total_ms * 19 / 20), total_ms });
        let voice = speech.voice.name();
        let (providers, tenant, cancel2) = (self.providers.clone(), msg.tenant.clone(), cancel.clone());
        let work = tokio::spawn(async move { reelforge_ai::speech::synthesise(&providers, &tenant, speech, cancel2, progress).await });
        let (said, stopping) = supervise(work, &cancel, &mut shutdown, limit).await?;
        let wav = match said {
            Err(reelforge_ai::AiError::Cancelled) if stopping => return Err(WorkerError::Shutdown),
            r => r?,
        };
        if cancel.load(Ordering::Relaxed) {
            return Err(WorkerError::Cancelled);
        }
        tokio::fs::create_dir_all(dir).await?;
        let name = format!("dubbing-{voice}.wav");
        let (partial, path) = (dir.join(format!("partial-{name}")), dir.join(&name));
        tokio::fs::write(&partial, wav.bytes()).await?;
        tokio::fs::rename(&partial, &path).await?;
        reporter.stage("uploading", 97);
        let output = reelforge_tools::Output {
            path,
            kind: reelforge_tools::OutputKind::Audio,
            name,
            size: wav.bytes().len() as u64,
            duration_ms: wav.duration_ms(),
            width: 0,
            height: 0,
            ranges: Vec::new(),
        };
        let outputs = self.upload_outputs(msg, vec![output]).await?;
        Ok(Rendered { video_key: String::new(), cover_key: String::new(), loudness: None, outputs })
    }
}
