//! A speech recognition (`VOICE_TO_TEXT`, docs/ai.md "Speech recognition") on the farm: the
//! material's sound decoded and resampled to 16 kHz mono by GStreamer, recognised by the provider
//! `[ai]` configures for the job's tenant (the local PocketSphinx, or an OpenAI-compatible
//! `/audio/transcriptions`), and the transcript with its
//! word timings (`transcript.json`, kind `report`) uploaded as the run's one output.

use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use reelforge_ai::asr::{self, Recognition};
use reelforge_proto::render::RenderJob;
use reelforge_proto::task::ToolOutput;
use tokio::sync::watch;

use crate::{Rendered, Worker, WorkerError, fetch, progress, supervise, tool_prefix};

impl Worker {
    /// Runs a recognition job.
    pub(crate) async fn process_asr(
        &self,
        msg: &RenderJob,
        dir: &Path,
        cancel: Arc<AtomicBool>,
        mut shutdown: watch::Receiver<bool>,
    ) -> Result<Rendered, WorkerError> {
        let value: serde_json::Value =
            serde_json::from_str(&msg.tool_params).map_err(|e| WorkerError::Rule(format!("params: {e}")))?;
        let ask = Recognition::parse(&value, &msg.material_ids).map_err(|e| WorkerError::Rule(e.to_string()))?;
        // A provider turned off since the call, or a language it cannot hear, fails the run with
        // its reason.
        let unavailable = |u| WorkerError::Recognition(reelforge_ai::AiError::Unavailable(u));
        let provider = self.providers.status(&msg.tenant, asr::ABILITY).await.map_err(unavailable)?;
        if let Some(gap) = ask.language.local_gap().filter(|_| provider == "local") {
            return Err(unavailable(gap));
        }
        let reporter = progress::Reporter::start(self.bus.clone(), msg);
        reporter.stage("fetching", 0);
        tokio::fs::create_dir_all(dir).await?;
        let inputs = fetch::inputs(&self.clients, &self.blob, &self.settings.material_cache, msg, &dir.join("materials")).await?;
        let input = inputs.into_iter().next().ok_or_else(|| WorkerError::Rule("a recognition needs its material".to_owned()))?;
        let facts = {
            let input = input.clone();
            tokio::task::spawn_blocking(move || reelforge_tools::probe(&input))
                .await
                .map_err(|e| WorkerError::Scratch(std::io::Error::other(e.to_string())))??
        };
        let limit = self.settings.time_limit.of(facts.duration_ms as f64 / 1000.0);
        reporter.stage("rendering", 2);
        let total_ms = facts.duration_ms.max(1);
        let mut on_progress = reporter.tool_callback();
        // Decoding is the quick part: the bar's first tenth; the recogniser says nothing until done.
        let mut progress = move |done_ms: u64| on_progress(reelforge_tools::Progress { done_ms: done_ms.min(total_ms) / 10, total_ms });
        let (asr, wav, cancel2) = (self.providers.pocketsphinx(), dir.join("speech.wav"), cancel.clone());
        let (providers, tenant, language) = (self.providers.clone(), msg.tenant.clone(), ask.language);
        let heard = |e| match e {
            reelforge_ai::AiError::Cancelled => WorkerError::Cancelled,
            other => WorkerError::Recognition(other),
        };
        let work = tokio::spawn(async move {
            let decode = {
                let (wav, cancel) = (wav.clone(), cancel2.clone());
                tokio::task::spawn_blocking(move || -> Result<u64, WorkerError> {
                    reelforge_tools::speech_sound::speech_wav(&input, &wav, asr::SAMPLE_RATE, &cancel, &mut progress)?;
                    Ok(std::fs::metadata(&wav)?.len().saturating_sub(44) * 1000 / u64::from(asr::SAMPLE_RATE * 2))
                })
            };
            let wav_ms = decode.await.map_err(|e| WorkerError::Scratch(std::io::Error::other(e.to_string())))??;
            if provider == "local" {
                tokio::task::spawn_blocking(move || asr.recognise(&wav, wav_ms, limit, &cancel2).map_err(heard))
                    .await
                    .map_err(|e| WorkerError::Scratch(std::io::Error::other(e.to_string())))?
            } else {
                let bytes = tokio::fs::read(&wav).await?;
                asr::recognise_http(&providers, &tenant, &bytes, language, wav_ms).await.map_err(heard)
            }
        });
        let (heard, stopping) = supervise(work, &cancel, &mut shutdown, limit).await?;
        let transcript = match heard {
            Err(WorkerError::Cancelled) if stopping => return Err(WorkerError::Shutdown),
            r => r?,
        };
        if cancel.load(Ordering::Relaxed) {
            return Err(WorkerError::Cancelled);
        }
        reporter.stage("uploading", 97);
        let json = serde_json::to_vec(&transcript).map_err(|e| WorkerError::Scratch(std::io::Error::other(e)))?;
        let (partial, path) = (dir.join("partial-transcript.json"), dir.join("transcript.json"));
        tokio::fs::write(&partial, &json).await?;
        tokio::fs::rename(&partial, &path).await?;
        let output = ToolOutput {
            key: format!("{}0-transcript.json", tool_prefix(&msg.tenant, msg.task_id, &msg.job_id)),
            kind: "report".to_owned(),
            name: "transcript.json".to_owned(),
            size: json.len() as u64,
            duration_ms: transcript.duration_ms,
            width: 0,
            height: 0,
            ranges: Vec::new(),
        };
        self.blob.upload_file(&output.key, &path).await?;
        Ok(Rendered { video_key: String::new(), cover_key: String::new(), loudness: None, outputs: vec![output] })
    }
}
