//! Video tasks and their rules, free of transport and SQL types.

use reelforge_kit::status::{ErrorKind, ServiceError};

/// Where a task is in its life.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum TaskStatus {
    /// Saved, never run.
    New,
    /// Queued for rendering.
    Wait,
    /// A worker is rendering it.
    Executing,
    /// The last render failed.
    Error,
    /// The last render succeeded.
    Success,
    /// The user cancelled the last render.
    Cancelled,
}

impl TaskStatus {
    /// The stored and wire code.
    pub fn code(self) -> i32 {
        match self {
            Self::New => -1,
            Self::Wait => 0,
            Self::Executing => 1,
            Self::Error => 9,
            Self::Success => 10,
            Self::Cancelled => 11,
        }
    }

    /// Reads a stored code; unknown codes read as new.
    pub fn from_code(code: i32) -> Self {
        match code {
            0 => Self::Wait,
            1 => Self::Executing,
            9 => Self::Error,
            10 => Self::Success,
            11 => Self::Cancelled,
            _ => Self::New,
        }
    }

    /// Whether a render is queued or running.
    pub fn is_rendering(self) -> bool {
        matches!(self, Self::Wait | Self::Executing)
    }
}

/// Who is asking: tasks are scoped to a tenant and a user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// The tenant (variant key).
    pub tenant: String,
    /// The user's id.
    pub user_id: String,
}

/// A checked save request.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskDraft {
    /// The task to overwrite, or `None` for a new one.
    pub task_id: Option<i64>,
    /// Its name.
    pub name: String,
    /// The rule as the browser wrote it; it parses and validates.
    pub task_info: String,
    /// Size category.
    pub size_category_id: i32,
    /// Use (e.g. IVVR), may be empty.
    pub used_for: String,
}

/// Name given to a task saved without one.
pub const DEFAULT_NAME: &str = "未命名";
/// Longest task name, in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// Problems quoted in an error message at most.
const MAX_PROBLEMS_SHOWN: usize = 20;

/// Checks a save request: the name, and the rule through the timeline's parser and validator.
pub fn parse_draft(
    task_id: i64,
    name: &str,
    task_info: &str,
    size_category_id: i32,
    used_for: &str,
) -> Result<TaskDraft, TaskError> {
    let name = name.trim();
    let name = if name.is_empty() { DEFAULT_NAME.to_owned() } else { name.to_owned() };
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(TaskError::Invalid(format!("taskName: longer than {MAX_NAME_CHARS} characters")));
    }
    check_rule(task_info)?;
    Ok(TaskDraft {
        task_id: (task_id > 0).then_some(task_id),
        name,
        task_info: task_info.to_owned(),
        size_category_id,
        used_for: used_for.trim().to_owned(),
    })
}

/// Parses and validates a rule; the error lists the problems as `path: message; …`.
pub fn check_rule(task_info: &str) -> Result<(), TaskError> {
    let rule = reelforge_timeline::Rule::parse(task_info).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
    let problems = reelforge_timeline::validate_with(&rule, reelforge_timeline::ValidateOptions::from_env());
    if problems.is_empty() {
        return Ok(());
    }
    let mut message =
        problems.iter().take(MAX_PROBLEMS_SHOWN).map(|p| format!("{}: {}", p.path, p.message)).collect::<Vec<_>>().join("; ");
    if problems.len() > MAX_PROBLEMS_SHOWN {
        message.push_str(&format!("; and {} more", problems.len() - MAX_PROBLEMS_SHOWN));
    }
    Err(TaskError::Invalid(message))
}

/// A stored task.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Task {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// The rule text.
    pub task_info: String,
    /// Where it is.
    pub status: TaskStatus,
    /// Size category.
    pub size_category_id: i32,
    /// Use, may be empty.
    pub used_for: String,
    /// Storage key of the rendered video, empty before a success.
    pub video_key: String,
    /// Storage key of the cover picture.
    pub cover_key: String,
    /// Why the last render failed.
    pub reason: String,
    /// Render progress, 0 to 100.
    pub percent: u32,
    /// Creation time, milliseconds since the epoch.
    pub created_ms: i64,
    /// Last change, milliseconds since the epoch.
    pub updated_ms: i64,
}

/// The part of a task the state poll shows.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct TaskState {
    /// Its id.
    pub task_id: i64,
    /// Where it is.
    pub status: TaskStatus,
    /// Render progress, 0 to 100.
    pub percent: u32,
    /// Storage key of the rendered video.
    pub video_key: String,
    /// Why the last render failed.
    pub reason: String,
    /// The stage of the render, from the latest progress.
    pub stage: Stage,
    /// Frames drawn and in all, from the latest progress.
    pub frames: (u64, u64),
    /// Seconds left, when known.
    pub eta_seconds: Option<i64>,
    /// The queued or running job, if any.
    pub job_id: Option<String>,
    /// Last change of the task record, milliseconds since the epoch.
    pub updated_ms: i64,
}

/// Where a render stands, as the browser shows it.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Stage {
    /// Never run.
    None,
    /// Waiting for a worker.
    Queued,
    /// The worker downloads the materials.
    Fetching,
    /// Drawing frames.
    Rendering,
    /// Finishing the MP4.
    Encoding,
    /// Storing the video and cover.
    Uploading,
    /// Finished with a video.
    Done,
    /// Failed.
    Error,
    /// Cancelled by the user.
    Cancelled,
}

impl Stage {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Self::None => "",
            Self::Queued => "queued",
            Self::Fetching => "fetching",
            Self::Rendering => "rendering",
            Self::Encoding => "encoding",
            Self::Uploading => "uploading",
            Self::Done => "done",
            Self::Error => "error",
            Self::Cancelled => "cancelled",
        }
    }

    /// Reads a wire name; unknown names read as none.
    pub fn parse(name: &str) -> Self {
        match name {
            "queued" => Self::Queued,
            "fetching" => Self::Fetching,
            "rendering" => Self::Rendering,
            "encoding" => Self::Encoding,
            "uploading" => Self::Uploading,
            "done" => Self::Done,
            "error" => Self::Error,
            "cancelled" => Self::Cancelled,
            _ => Self::None,
        }
    }

    /// The stage a task at rest in `status` shows.
    pub fn of_status(status: TaskStatus) -> Self {
        match status {
            TaskStatus::New => Self::None,
            TaskStatus::Wait => Self::Queued,
            TaskStatus::Executing => Self::Fetching,
            TaskStatus::Error => Self::Error,
            TaskStatus::Success => Self::Done,
            TaskStatus::Cancelled => Self::Cancelled,
        }
    }
}

/// A run as the caller sees it: the job and the task's status.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Run {
    /// The render job.
    pub job_id: String,
    /// The task's status (wait, or executing for a run already under way).
    pub status: TaskStatus,
}

/// One delivery of a render job, as a worker names it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct JobRef {
    /// The job's tenant.
    pub tenant: String,
    /// Its task.
    pub task_id: i64,
    /// The job id.
    pub job_id: String,
    /// The attempt the delivery carries.
    pub attempt: u32,
}

/// How a render ended, as a worker reports it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum FinishOutcome {
    /// The video and cover are stored under these keys.
    Done {
        /// Video storage key.
        video_key: String,
        /// Cover storage key.
        cover_key: String,
    },
    /// The render failed.
    Failed {
        /// Why, for the user.
        reason: String,
    },
}

/// Why a task call failed.
#[derive(Debug, thiserror::Error)]
pub enum TaskError {
    /// Bad input; the message names the fields.
    #[error("{0}")]
    Invalid(String),
    /// No such task for this tenant and user.
    #[error("task {0} does not exist")]
    NotFound(i64),
    /// The database failed.
    #[error("task store")]
    Store(#[from] sea_orm::DbErr),
    /// The job queue refused the job.
    #[error("render queue")]
    Queue(#[from] reelforge_kit::queue::QueueError),
}

impl ServiceError for TaskError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Invalid(_) => ErrorKind::Invalid,
            Self::NotFound(_) => ErrorKind::NotFound,
            Self::Store(_) | Self::Queue(_) => ErrorKind::Internal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn status_codes_round_trip() {
        for s in [
            TaskStatus::New,
            TaskStatus::Wait,
            TaskStatus::Executing,
            TaskStatus::Error,
            TaskStatus::Success,
            TaskStatus::Cancelled,
        ] {
            assert_eq!(TaskStatus::from_code(s.code()), s);
        }
    }

    #[test]
    fn blank_name_becomes_default() -> Result<(), TaskError> {
        let info = include_str!("../../timeline/tests/fixtures/video_edit_every_layer.json");
        let draft = parse_draft(-1, "  ", info, 1, "")?;
        assert_eq!((draft.name.as_str(), draft.task_id), (DEFAULT_NAME, None));
        Ok(())
    }

    #[test]
    fn not_json_is_invalid() {
        assert!(matches!(check_rule("{\"scenes\": ["), Err(TaskError::Invalid(m)) if m.starts_with("taskInfo: ")));
    }
}
