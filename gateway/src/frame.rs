//! The exact-frame still (`POST /videotask/frame`): one frame of an unsaved document, drawn by the
//! render engine's `render_frame`, so the editor can show what the video will show. It lives in the
//! gateway because the gateway holds the blob store in both modes (embedded and distributed), while
//! a worker is reachable only through the job queue; the materials are fetched by the worker's own
//! `fetch::materials`, so a still reads exactly what a render of the same document may read.
//! The music climax cut (`POST /ai/climax`) reads one music material the same way, as its owner.

use std::path::{Path, PathBuf};
use std::sync::Arc;

use reelforge_kit::BlobStore;
use reelforge_proto::render::RenderJob;
use reelforge_timeline::source::Access;
use reelforge_timeline::{Rule, ValidateOptions};
use reelforge_worker::WorkerError;
use tokio::sync::Semaphore;

use crate::ApiError;

/// The largest still, in pixels (1920×1920: every 1080p document in either orientation); a larger
/// document is refused rather than drawn, so one call cannot hold hundreds of MB.
pub const MAX_PIXELS: u64 = 1920 * 1920;

/// Stills drawn at once by one gateway: each takes a core while it draws.
pub const CONCURRENCY: usize = 2;

/// What drawing a still needs: the material lookup, the blob store, a scratch directory and the
/// limit on stills drawn at once.
#[derive(Clone)]
pub struct Frames {
    clients: reelforge_worker::Clients,
    blob: BlobStore,
    cache: reelforge_worker::MaterialCache,
    scratch: PathBuf,
    permits: Arc<Semaphore>,
}

/// Removes a call's scratch directory when the call ends, however it ends.
struct Scratch(PathBuf);

impl Drop for Scratch {
    fn drop(&mut self) {
        if let Err(e) = std::fs::remove_dir_all(&self.0)
            && e.kind() != std::io::ErrorKind::NotFound
        {
            tracing::warn!(dir = %self.0.display(), error = %e, "still scratch not removed");
        }
    }
}

fn refused(e: WorkerError) -> ApiError {
    match e {
        // Someone else's material reads as one that does not exist, as every id-taking route answers.
        WorkerError::UnknownMaterial(id) => ApiError::BadRequest(format!("material {id} does not exist in your library")),
        WorkerError::Rule(_) | WorkerError::MissingMaterial(_) | WorkerError::Render(_) => {
            ApiError::BadRequest(e.to_string())
        }
        WorkerError::Service(_, s) => ApiError::Service(s),
        other => {
            tracing::error!(error = %other, "still");
            ApiError::Service(tonic::Status::internal("internal error, please retry later"))
        }
    }
}

fn internal(what: &str, e: impl std::fmt::Display) -> ApiError {
    tracing::error!(error = %e, "still: {what}");
    ApiError::Service(tonic::Status::internal("internal error, please retry later"))
}

impl Frames {
    /// Stills of documents whose materials are looked up with `clients` and read from `blob`
    /// through `cache` (the worker's), each drawn in its own directory under `scratch`.
    pub fn new(
        clients: reelforge_worker::Clients,
        blob: BlobStore,
        cache: reelforge_worker::MaterialCache,
        scratch: &Path,
    ) -> Self {
        Self { clients, blob, cache, scratch: scratch.to_owned(), permits: Arc::new(Semaphore::new(CONCURRENCY)) }
    }

    /// The PNG of `task_info`'s frame at `t` seconds, for `user_id` of `tenant`: the document is
    /// validated for the user first (every error named by its path; a key must be the user's own
    /// or a system material), its materials fetched as the user, then drawn on a blocking thread.
    pub async fn still(&self, tenant: &str, user_id: &str, task_info: &str, t: f64) -> Result<Vec<u8>, ApiError> {
        if !t.is_finite() || t < 0.0 {
            return Err(ApiError::BadRequest("time: must be a number of seconds, 0 or more".into()));
        }
        let rule = Rule::parse(task_info).map_err(|e| ApiError::BadRequest(format!("taskInfo: {e}")))?;
        let options = ValidateOptions { access: Some(Access::of(tenant, user_id)), ..ValidateOptions::from_env() };
        let report = reelforge_timeline::check(&rule, &options);
        let errors: Vec<String> = report.errors().map(ToString::to_string).collect();
        if !errors.is_empty() {
            return Err(ApiError::BadRequest(errors.join("; ")));
        }
        let (w, h) = rule.resolution_ratio.target_size();
        if u64::from(w) * u64::from(h) > MAX_PIXELS {
            return Err(ApiError::BadRequest(format!(
                "resolutionRatio: a still of {w}×{h} is larger than {MAX_PIXELS} pixels"
            )));
        }
        let permit = self.permits.clone().acquire_owned().await.map_err(|e| internal("permits", e))?;
        let dir = Scratch(self.scratch.join(format!("still-{}", uuid::Uuid::new_v4().simple())));
        let job = RenderJob { tenant: tenant.to_owned(), user_id: user_id.to_owned(), ..Default::default() };
        let materials = reelforge_worker::fetch::materials(&self.clients, &self.blob, &self.cache, &job, &rule, &dir.0.join("materials"))
            .await
            .map_err(refused)?;
        let out = dir.0.join("frame.png");
        // The thread owns the directory and the permit: a call dropped mid-draw still removes the
        // directory, and counts against the limit, until the drawing ends.
        tokio::task::spawn_blocking(move || -> Result<Vec<u8>, ApiError> {
            let (_dir, _permit) = (dir, permit);
            reelforge_render::gst_init().map_err(|e| internal("gstreamer", e))?;
            let t = t.min(rule.duration());
            let bitmap = reelforge_render::render_frame(&rule, &materials, t).map_err(|e| ApiError::BadRequest(format!("render: {e}")))?;
            if let Some(parent) = out.parent() {
                std::fs::create_dir_all(parent).map_err(|e| internal("scratch", e))?;
            }
            reelforge_render::engine::write_png(&bitmap, &out).map_err(|e| internal("png", e))?;
            std::fs::read(&out).map_err(|e| internal("png", e))
        })
        .await
        .map_err(|e| internal("draw thread", e))?
    }
}

/// How long the climax analysis may go without progress, seconds.
const CLIMAX_TIMEOUT_S: u64 = 60;

/// The strongest section of a music material, milliseconds into the track.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Cut {
    /// Where the section starts.
    pub start_ms: u64,
    /// Where it ends: the start plus the asked length.
    pub end_ms: u64,
}

/// Why a climax cut was not answered: a refusal with its stable `data.reason` (docs/ringtone.md:
/// `seconds_invalid`, `seconds_too_long`, `material_not_found`, `not_music`, `no_sound`), or
/// anything else.
#[derive(Debug, thiserror::Error)]
pub enum ClimaxError {
    /// Bad input; `desc` starts with the field.
    #[error("{desc}")]
    Refused {
        /// The stable reason.
        reason: &'static str,
        /// The message.
        desc: String,
    },
    /// Anything else.
    #[error(transparent)]
    Api(#[from] ApiError),
}

impl ClimaxError {
    fn refused(reason: &'static str, desc: String) -> Self {
        Self::Refused { reason, desc }
    }
}

impl actix_web::ResponseError for ClimaxError {
    fn status_code(&self) -> actix_web::http::StatusCode {
        match self {
            Self::Refused { .. } => actix_web::http::StatusCode::OK,
            Self::Api(e) => actix_web::ResponseError::status_code(e),
        }
    }

    fn error_response(&self) -> actix_web::HttpResponse {
        match self {
            Self::Refused { reason, desc } => {
                crate::envelope::refused(actix_web::http::StatusCode::OK, serde_json::json!({ "reason": reason }), desc)
            }
            Self::Api(e) => actix_web::ResponseError::error_response(e),
        }
    }
}

impl Frames {
    /// Where the strongest `seconds` of `material_id` lie, for `user_id` of `tenant`: the material
    /// must be the user's own or a system one (else it "does not exist"), an audio material, and
    /// at least `seconds` long; it is analysed (`reelforge_conform::climax_of_file`) on a blocking
    /// thread, counted against the same limit as stills.
    pub async fn climax(&self, tenant: &str, user_id: &str, material_id: &str, seconds: f64) -> Result<Cut, ClimaxError> {
        if !seconds.is_finite() || seconds <= 0.0 {
            return Err(ClimaxError::refused("seconds_invalid", "seconds: must be a number of seconds above 0".into()));
        }
        let missing = || ClimaxError::refused("material_not_found", format!("materialId: material {material_id} does not exist in your library"));
        if material_id.trim().is_empty() {
            return Err(ClimaxError::refused("material_not_found", "materialId: must name a music material".into()));
        }
        let job = RenderJob { tenant: tenant.to_owned(), user_id: user_id.to_owned(), ..Default::default() };
        let found = match self.clients.material_as(&job, user_id, material_id).await {
            Ok(m) => m,
            Err(s) if matches!(s.code(), tonic::Code::NotFound | tonic::Code::InvalidArgument | tonic::Code::PermissionDenied) => {
                return Err(missing());
            }
            Err(s) => return Err(ApiError::Service(s).into()),
        };
        let key = found.relative_path;
        let own = key.starts_with(&reelforge_timeline::source::user_prefix(tenant, user_id))
            || key.starts_with(&reelforge_timeline::source::system_prefix(tenant));
        if key.is_empty() || !own {
            return Err(missing());
        }
        if found.r#type != "audio" {
            return Err(ClimaxError::refused("not_music", format!("materialId: material {material_id} is not music (it is {})", found.r#type)));
        }
        if found.time_length > 0.0 && seconds > found.time_length + 0.05 {
            return Err(ClimaxError::refused(
                "seconds_too_long",
                format!("seconds: {seconds} s is longer than the track ({:.1} s)", found.time_length),
            ));
        }
        let permit = self.permits.clone().acquire_owned().await.map_err(|e| internal("permits", e))?;
        let dir = Scratch(self.scratch.join(format!("climax-{}", uuid::Uuid::new_v4().simple())));
        let file = dir.0.join("music");
        tokio::fs::create_dir_all(&dir.0).await.map_err(|e| internal("scratch", e))?;
        self.cache.place(&self.blob, &key, &file).await.map_err(|e| match e {
            WorkerError::Storage(_) => missing(),
            other => internal("music", other).into(),
        })?;
        let cut = tokio::task::spawn_blocking(move || {
            let (_dir, _permit) = (dir, permit);
            reelforge_conform::climax_of_file(&file, seconds, CLIMAX_TIMEOUT_S)
        })
        .await
        .map_err(|e| internal("climax thread", e))?
        .map_err(|e| match e {
            reelforge_conform::ConformError::NotMedia(why) => {
                ClimaxError::refused("no_sound", format!("materialId: material {material_id} has no readable sound ({why})"))
            }
            other => internal("climax", other).into(),
        })?;
        if seconds > cut.track_s + 0.05 {
            return Err(ClimaxError::refused("seconds_too_long", format!("seconds: {seconds} s is longer than the track ({:.1} s)", cut.track_s)));
        }
        let start_ms = (cut.start_s * 1000.0).round() as u64;
        Ok(Cut { start_ms, end_ms: start_ms + (seconds * 1000.0).round() as u64 })
    }
}
