//! Why a render job did not end in a stored video, and what that means for the job.

use reelforge_kit::BlobError;
use reelforge_render::RenderError;

/// What happens to a job after an error.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Disposition {
    /// Handed back to the queue for another delivery (a passing fault: storage, a service, shutdown).
    Retry,
    /// Sent to the dead letters at once: no delivery can read it.
    DeadLetter,
    /// The task fails with the error as its reason; the job is not tried again (a poison document).
    Fail,
    /// Dropped: the job was cancelled or taken over; nothing is reported.
    Drop,
}

/// Why a job failed.
#[derive(Debug, thiserror::Error)]
pub enum WorkerError {
    /// The message is not a render job.
    #[error("undecodable render job: {0}")]
    Undecodable(String),
    /// The saved rule does not parse.
    #[error("rule: {0}")]
    Rule(String),
    /// The document names a material id the owner's library does not know.
    #[error("material {0} is not in the material library")]
    UnknownMaterial(String),
    /// The document names a material path that storage does not hold.
    #[error("material `{0}` is not in storage")]
    MissingMaterial(String),
    /// The engine refused or failed the document.
    #[error("render: {0}")]
    Render(RenderError),
    /// A tool refused its input or failed; the message names the parameter where one is at fault.
    #[error("{0}")]
    Tool(reelforge_tools::ToolError),
    /// A dubbing's voice failed or has no provider (the HTTP provider has had its retries).
    #[error("text to speech: {0}")]
    Speech(reelforge_ai::AiError),
    /// A video audit's OCR failed or the ability has no provider.
    #[error("video auditing: {0}")]
    Audit(reelforge_ai::AiError),
    /// A recognition's recogniser failed, heard nothing, or has no provider.
    #[error("speech recognition: {0}")]
    Recognition(reelforge_ai::AiError),
    /// A picture run's provider failed, answered no usable picture, or is not configured; or its
    /// source is not a picture.
    #[error("{0}")]
    Picture(PictureFailure),
    /// The user cancelled the render, or the job was taken back from this worker.
    #[error("cancelled")]
    Cancelled,
    /// The render ran past its time limit (seconds) and was stopped.
    #[error("the render took longer than its limit of {0} s")]
    TimedOut(u64),
    /// The worker is stopping.
    #[error("the worker is shutting down")]
    Shutdown,
    /// Storage failed.
    #[error("storage: {0}")]
    Storage(#[from] BlobError),
    /// The task or material service failed.
    #[error("{0} service: {1}")]
    Service(&'static str, tonic::Status),
    /// The scratch directory failed.
    #[error("scratch directory: {0}")]
    Scratch(#[from] std::io::Error),
}

impl WorkerError {
    /// Whether the job is retried, dead-lettered, failed or dropped.
    pub fn disposition(&self) -> Disposition {
        match self {
            Self::Undecodable(_) => Disposition::DeadLetter,
            Self::Rule(_)
            | Self::UnknownMaterial(_)
            | Self::MissingMaterial(_)
            | Self::Render(_)
            | Self::Tool(_)
            | Self::Speech(_)
            | Self::Audit(_)
            | Self::Recognition(_)
            | Self::Picture(_)
            | Self::TimedOut(_) => Disposition::Fail,
            Self::Cancelled => Disposition::Drop,
            Self::Shutdown | Self::Storage(_) | Self::Service(..) | Self::Scratch(_) => {
                Disposition::Retry
            }
        }
    }

    /// Whether the same job may succeed when tried again in a moment, without a new delivery: a
    /// service that failed for a passing reason (see [`crate::retry::passing`]) or storage.
    pub fn passing(&self) -> bool {
        match self {
            Self::Service(_, status) => crate::retry::passing(status),
            Self::Storage(_) => true,
            _ => false,
        }
    }

    /// The metric label of the cause.
    pub fn cause(&self) -> &'static str {
        match self {
            Self::Undecodable(_) => "undecodable",
            Self::Rule(_) => "rule",
            Self::UnknownMaterial(_) | Self::MissingMaterial(_) => "material",
            Self::Render(_) => "render",
            Self::Tool(_) => "tool",
            Self::Speech(_) => "speech",
            Self::Audit(_) => "audit",
            Self::Recognition(_) => "recognition",
            Self::Picture(_) => "picture",
            Self::TimedOut(_) => "time_limit",
            Self::Cancelled => "cancelled",
            Self::Shutdown => "shutdown",
            Self::Storage(_) => "storage",
            Self::Service(..) => "service",
            Self::Scratch(_) => "scratch",
        }
    }
}

impl From<RenderError> for WorkerError {
    fn from(e: RenderError) -> Self {
        match e {
            RenderError::Cancelled => Self::Cancelled,
            other => Self::Render(other),
        }
    }
}

/// Why a picture run failed, worded with its ability (`text to image: …`, `similar image: …`).
#[derive(Debug, thiserror::Error)]
#[error("{ability}: {error}")]
pub struct PictureFailure {
    /// `text to image` or `similar image`.
    pub ability: &'static str,
    /// What failed.
    pub error: reelforge_ai::AiError,
}

impl From<reelforge_ai::AiError> for WorkerError {
    fn from(e: reelforge_ai::AiError) -> Self {
        match e {
            reelforge_ai::AiError::Cancelled => Self::Cancelled,
            other => Self::Speech(other),
        }
    }
}

impl From<reelforge_tools::ToolError> for WorkerError {
    fn from(e: reelforge_tools::ToolError) -> Self {
        match e {
            reelforge_tools::ToolError::Cancelled => Self::Cancelled,
            reelforge_tools::ToolError::Io(io) => Self::Scratch(io),
            other => Self::Tool(other),
        }
    }
}
