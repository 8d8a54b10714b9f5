//! A video audit (`VIDEO_AUDIT`, docs/ai.md "Video auditing") on the farm: the tenant's sensitive
//! words looked for in a work's text layers (no OCR: the document's own text) and in the text the
//! OCR program reads off the video's frames (a material, or the work's finished render), one frame
//! a second plus scene changes. The run's outputs: the report (`audit.json`, kind `report`) first,
//! then a JPEG of each frame with a hit, which the report's hits name by index.

use std::path::{Path, PathBuf};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};
use std::time::Duration;

use reelforge_ai::audit::{self, Hit, Report, Target};
use reelforge_proto::render::RenderJob;
use reelforge_proto::task::ToolOutput;
use tokio::sync::watch;

use crate::{Rendered, Worker, WorkerError, fetch, progress, supervise, tool_prefix};

/// A frame is kept every this many milliseconds (scene changes add more).
const EVERY_MS: u64 = 1000;
/// Frames are read at most this wide: captions stay legible, OCR stays quick.
const MAX_WIDTH: u32 = 960;
/// One frame's OCR may take this long before the program is killed and the run fails.
const OCR_TIMEOUT: Duration = Duration::from_secs(60);
/// Frames with hits whose picture is kept as an output, at most; later hits are listed without one.
const MAX_PICTURES: usize = 50;

/// What the blocking part hands back: the frame hits, the pictures, frames read and their size.
struct Read {
    hits: Vec<Hit>,
    pictures: Vec<PathBuf>,
    frames: u64,
    size: (u32, u32),
}

impl Worker {
    /// Runs an audit job.
    pub(crate) async fn process_audit(
        &self,
        msg: &RenderJob,
        dir: &Path,
        cancel: Arc<AtomicBool>,
        mut shutdown: watch::Receiver<bool>,
    ) -> Result<Rendered, WorkerError> {
        let value: serde_json::Value =
            serde_json::from_str(&msg.tool_params).map_err(|e| WorkerError::Rule(format!("params: {e}")))?;
        let source_task = value.get("sourceTaskId").and_then(serde_json::Value::as_i64).unwrap_or_default();
        // The source's key is the task service's addition, never the caller's.
        let mut asked = value.clone();
        if let Some(m) = asked.as_object_mut() {
            m.remove("sourceKey");
        }
        let target = Target::parse(&asked, &msg.material_ids, source_task).map_err(|e| WorkerError::Rule(e.to_string()))?;
        // A provider turned off since the call fails the run with its reason.
        self.providers.status(&msg.tenant, audit::ABILITY).await.map_err(|u| WorkerError::Audit(reelforge_ai::AiError::Unavailable(u)))?;
        let words = self.providers.audit_words(&msg.tenant);
        let reporter = progress::Reporter::start(self.bus.clone(), msg);
        reporter.stage("fetching", 0);
        tokio::fs::create_dir_all(dir).await?;
        let (video, texts) = match target {
            Target::Material => {
                let inputs = fetch::inputs(&self.clients, &self.blob, &self.settings.material_cache, msg, &dir.join("materials")).await?;
                (inputs.into_iter().next(), Vec::new())
            }
            Target::Work(_) => {
                let texts = audit::document_texts(&msg.task_info).map_err(WorkerError::Rule)?;
                // The work's finished render, whose key the task service wrote; it must lie under
                // the job's tenant. A work never rendered has its text audited only.
                let key = value.get("sourceKey").and_then(serde_json::Value::as_str).unwrap_or_default();
                let video = if key.is_empty() {
                    None
                } else {
                    if !key.starts_with(&format!("t/{}/tasks/", msg.tenant)) || key.contains("..") {
                        return Err(WorkerError::Rule(format!("{} source `{key}` is not a render of the job's tenant", audit::VIDEO_AUDIT)));
                    }
                    let input = dir.join("source.mp4");
                    self.blob.download_to(key, &input).await?;
                    Some(input)
                };
                (video, texts)
            }
        };
        let mut hits = audit::audit_document(&words, &texts);
        let read = match video {
            None => Read { hits: Vec::new(), pictures: Vec::new(), frames: 0, size: (0, 0) },
            Some(video) => {
                reporter.stage("rendering", 2);
                let facts = {
                    let video = video.clone();
                    tokio::task::spawn_blocking(move || reelforge_tools::probe(&video))
                        .await
                        .map_err(|e| WorkerError::Scratch(std::io::Error::other(e.to_string())))??
                };
                let limit = self.settings.time_limit.of(facts.duration_ms as f64 / 1000.0);
                let total_ms = facts.duration_ms.max(1);
                let mut on_progress = reporter.tool_callback();
                let progress = move |done_ms: u64| on_progress(reelforge_tools::Progress { done_ms: done_ms.min(total_ms), total_ms });
                let (ocr, words, dir, cancel2) = (self.providers.tesseract(), words.clone(), dir.to_owned(), cancel.clone());
                let work = tokio::task::spawn_blocking(move || read_frames(&video, &ocr, &words, &dir, &cancel2, progress));
                let (read, stopping) = supervise(work, &cancel, &mut shutdown, limit).await?;
                match read {
                    Err(WorkerError::Cancelled) if stopping => return Err(WorkerError::Shutdown),
                    r => r?,
                }
            }
        };
        if cancel.load(Ordering::Relaxed) {
            return Err(WorkerError::Cancelled);
        }
        let mut frame_hits = read.hits;
        frame_hits.append(&mut hits);
        let report = Report {
            verdict: Report::verdict_of(&frame_hits).to_owned(),
            source: if matches!(target, Target::Material) { "material" } else { "work" }.to_owned(),
            frames_read: read.frames,
            layers_read: texts.len() as u64,
            frame_width: read.size.0,
            frame_height: read.size.1,
            hits: frame_hits,
        };
        reporter.stage("uploading", 97);
        let outputs = self.upload_audit(msg, &report, &read.pictures, dir).await?;
        Ok(Rendered { video_key: String::new(), cover_key: String::new(), loudness: None, outputs })
    }

    /// Uploads the report and the frames' pictures under the job's prefix.
    async fn upload_audit(&self, msg: &RenderJob, report: &Report, pictures: &[PathBuf], dir: &Path) -> Result<Vec<ToolOutput>, WorkerError> {
        let prefix = tool_prefix(&msg.tenant, msg.task_id, &msg.job_id);
        let json = serde_json::to_vec(report).map_err(|e| WorkerError::Scratch(std::io::Error::other(e)))?;
        let (partial, path) = (dir.join("partial-audit.json"), dir.join("audit.json"));
        tokio::fs::write(&partial, &json).await?;
        tokio::fs::rename(&partial, &path).await?;
        let one = |i: usize, name: &str, kind: &str, size: u64, (width, height): (u32, u32)| ToolOutput {
            key: format!("{prefix}{i}-{name}"),
            kind: kind.to_owned(),
            name: name.to_owned(),
            size,
            duration_ms: 0,
            width,
            height,
            ranges: Vec::new(),
        };
        let mut outputs = vec![one(0, "audit.json", "report", json.len() as u64, (0, 0))];
        for (i, p) in pictures.iter().enumerate() {
            let name = p.file_name().map(|n| n.to_string_lossy().into_owned()).unwrap_or_default();
            let size = tokio::fs::metadata(p).await?.len();
            outputs.push(one(i + 1, &name, "picture", size, (report.frame_width, report.frame_height)));
        }
        self.blob.upload_file(&outputs[0].key, &path).await?;
        for (o, p) in outputs[1..].iter().zip(pictures) {
            self.blob.upload_file(&o.key, p).await?;
        }
        Ok(outputs)
    }
}

/// Samples the video's frames, reads each with the OCR program and matches its lines; a frame
/// with a hit is kept as a JPEG in `dir`.
fn read_frames(
    video: &Path,
    ocr: &audit::Tesseract,
    words: &audit::WordList,
    dir: &Path,
    cancel: &AtomicBool,
    mut progress: impl FnMut(u64),
) -> Result<Read, WorkerError> {
    let mut read = Read { hits: Vec::new(), pictures: Vec::new(), frames: 0, size: (0, 0) };
    let mut failed: Option<WorkerError> = None;
    let image = dir.join("frame.ppm");
    let sampled = reelforge_tools::frames::sample(video, EVERY_MS, MAX_WIDTH, cancel, &mut |still| {
        let outcome = (|| {
            std::fs::write(&image, still.ppm())?;
            let lines = ocr.read(&image, OCR_TIMEOUT, cancel).map_err(|e| match e {
                reelforge_ai::AiError::Cancelled => WorkerError::Cancelled,
                other => WorkerError::Audit(other),
            })?;
            read.frames += 1;
            read.size = (still.width, still.height);
            let mut hits = audit::audit_frame(words, &lines, still.time_ms);
            if !hits.is_empty() && read.pictures.len() < MAX_PICTURES {
                let path = dir.join(format!("frame-{}.jpg", still.time_ms));
                let file = std::fs::File::create(&path)?;
                image::codecs::jpeg::JpegEncoder::new_with_quality(std::io::BufWriter::new(file), 85)
                    .encode(&still.rgb, still.width, still.height, image::ExtendedColorType::Rgb8)
                    .map_err(|e| WorkerError::Scratch(std::io::Error::other(e.to_string())))?;
                read.pictures.push(path);
                for h in &mut hits {
                    h.frame_output = Some(read.pictures.len());
                }
            }
            read.hits.append(&mut hits);
            progress(still.time_ms);
            Ok::<(), WorkerError>(())
        })();
        outcome.map_err(|e| {
            let cancelled = matches!(e, WorkerError::Cancelled);
            failed = Some(e);
            if cancelled { reelforge_tools::ToolError::Cancelled } else { reelforge_tools::ToolError::Failed("reading a frame".to_owned()) }
        })
    });
    if let Some(e) = failed {
        return Err(e);
    }
    sampled?;
    Ok(read)
}
