//! Video tasks and their rules, free of transport and SQL types.

use std::collections::BTreeSet;

use reelforge_kit::status::{ErrorKind, ServiceError};
use reelforge_timeline::source::{Access, Grant};
use reelforge_timeline::{MaterialRef, MaterialRefKind};

/// Where a task is in its life: the one definition, in the document crate's catalogue.
pub use reelforge_timeline::catalogue::codes::TaskStatus;

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
    /// The rule as the browser wrote it; it parses and has no error problem.
    pub task_info: String,
    /// Size category.
    pub size_category_id: i32,
    /// Use (e.g. IVVR), may be empty.
    pub used_for: String,
    /// The version the edit was based on; `None` overwrites whatever is stored.
    pub version: Option<i64>,
    /// The document's length, milliseconds.
    pub duration_ms: i64,
    /// The document's warnings, shown to the user; they do not stop the save.
    pub warnings: Vec<String>,
    /// The template a new task is made from (0: none), whose materials it may name; an overwrite
    /// keeps the stored one.
    pub template_id: i64,
}

/// Name given to a task saved without one.
pub const DEFAULT_NAME: &str = "未命名";
/// Longest task name, in characters.
pub const MAX_NAME_CHARS: usize = 64;
/// Suffix of a duplicated task's name.
pub const COPY_SUFFIX: &str = " 副本";
/// The answer to a save over a newer version of the task (another tab or device saved since).
pub const STALE_MESSAGE: &str = "该作品已在别处修改，请刷新后再保存";

/// Checks a task name: trimmed, 未命名 when blank, at most [`MAX_NAME_CHARS`] characters.
pub fn check_name(name: &str) -> Result<String, TaskError> {
    let name = name.trim();
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(TaskError::Invalid(format!("taskName: longer than {MAX_NAME_CHARS} characters")));
    }
    Ok(if name.is_empty() { DEFAULT_NAME.to_owned() } else { name.to_owned() })
}

/// What a save names, as the caller sent it.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct SaveInput<'a> {
    /// The task, or -1 / 0 for a new one.
    pub task_id: i64,
    /// Its name.
    pub name: &'a str,
    /// The rule text.
    pub task_info: &'a str,
    /// Size category.
    pub size_category_id: i32,
    /// Use.
    pub used_for: &'a str,
    /// The version the edit was based on, 0 when not given.
    pub version: i64,
}

impl Owner {
    /// The sources the owner's documents may name, made from no template.
    pub fn access(&self) -> Access {
        Access::of(&self.tenant, &self.user_id)
    }
}

/// Checks a save request of `owner`, whose task is made from no template: see [`parse_draft_for`].
pub fn parse_draft(owner: &Owner, input: SaveInput<'_>) -> Result<TaskDraft, TaskError> {
    Ok(parse_draft_for(&owner.access(), input)?.0)
}

/// Checks a save request of the owner of `access`: the name, and the rule parsed and validated
/// once, its keys confined to what `access` allows. Returns the draft and the materials it names
/// by address that the template does not lend, for the material library to confirm.
pub fn parse_draft_for(access: &Access, input: SaveInput<'_>) -> Result<(TaskDraft, Vec<MaterialRef>), TaskError> {
    let name = check_name(input.name)?;
    let checked = check_rule_for(input.task_info, access)?;
    let draft = TaskDraft {
        task_id: (input.task_id > 0).then_some(input.task_id),
        name,
        task_info: input.task_info.to_owned(),
        size_category_id: input.size_category_id,
        used_for: input.used_for.trim().to_owned(),
        version: (input.version > 0).then_some(input.version),
        duration_ms: checked.duration_ms,
        warnings: checked.warnings,
        template_id: 0,
    };
    Ok((draft, checked.materials))
}

/// A rule that parsed and has no error problem.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CheckedRule {
    /// Its length, milliseconds.
    pub duration_ms: i64,
    /// Its warnings as `path: message`.
    pub warnings: Vec<String>,
    /// The materials it names by address that the template does not lend: each must be the
    /// owner's own or a system material, which only the material library can say.
    pub materials: Vec<MaterialRef>,
}

/// Parses and validates a document of no user (the starters), which may name the tenant's system
/// materials only: see [`check_rule_for`].
pub fn check_rule(task_info: &str, tenant: &str) -> Result<CheckedRule, TaskError> {
    check_rule_for(task_info, &Access::of(tenant, ""))
}

/// Parses and validates a rule whose keys must be ones `access` allows (the owner's, the tenant's
/// system materials, the template's); the error lists every error problem as `path: message; …`,
/// a refused source named with its field.
pub fn check_rule_for(task_info: &str, access: &Access) -> Result<CheckedRule, TaskError> {
    let rule = reelforge_timeline::Rule::parse(task_info).map_err(|e| TaskError::Invalid(format!("taskInfo: {e}")))?;
    let options = reelforge_timeline::ValidateOptions {
        access: Some(access.clone()),
        ..reelforge_timeline::ValidateOptions::from_env()
    };
    let report = reelforge_timeline::check(&rule, &options);
    let errors: Vec<String> = report.errors().map(ToString::to_string).collect();
    if !errors.is_empty() {
        return Err(TaskError::Invalid(errors.join("; ")));
    }
    let materials = reelforge_timeline::material_refs(&rule)
        .into_iter()
        .filter(|m| m.kind == MaterialRefKind::Address && !access.grants_material(&m.id))
        .collect();
    Ok(CheckedRule {
        // Bounded by validation (at most the deployment's longest document).
        duration_ms: (rule.duration() * 1000.0).round() as i64,
        warnings: report.warnings().map(ToString::to_string).collect(),
        materials,
    })
}

/// What a template's document lends the tasks made from it: every key and material id it names,
/// the ids to be looked up in its creator's library.
pub fn template_grant(creator_id: &str, task_info: &str) -> Grant {
    let Ok(rule) = reelforge_timeline::Rule::parse(task_info) else { return Grant::default() };
    Grant {
        owner: creator_id.to_owned(),
        keys: reelforge_timeline::source_keys(&rule).into_iter().collect(),
        materials: reelforge_timeline::material_refs(&rule).into_iter().map(|m| m.id).collect(),
    }
}

/// What the material library's probe found of a material an owner may use.
#[derive(Debug, Clone, PartialEq)]
pub struct MaterialFacts {
    /// The material id.
    pub id: String,
    /// Its kind: `video`, `audio`, `picture`, `gif`, `pptx`.
    pub kind: String,
    /// `processing`, `ready` or `failed`.
    pub state: String,
    /// Its length, milliseconds (0 for a still, and before probing ends).
    pub duration_ms: u64,
}

/// The material library as the task service asks it: which materials an owner may name.
#[async_trait::async_trait]
pub trait Library: Send + Sync {
    /// Returns which of `ids` `owner` may use: their own materials and the tenant's system ones.
    async fn usable(&self, owner: &Owner, ids: &[String]) -> Result<BTreeSet<String>, TaskError>;

    /// Returns the probe's facts of those of `ids` that `owner` may use; the others are left out.
    /// A library that only answers use (none configured) knows no facts, so every id is left out.
    async fn facts(&self, _owner: &Owner, _ids: &[String]) -> Result<Vec<MaterialFacts>, TaskError> {
        Ok(Vec::new())
    }

    /// Material `id` when it is `owner`'s own (not a system one, not deleted), for sharing it with
    /// their enterprise. A library that only answers use knows none.
    async fn own_material(&self, _owner: &Owner, _id: &str) -> Result<Option<crate::enterprise::OwnMaterial>, TaskError> {
        Ok(None)
    }
}

/// A task service without a material library: no material named by address is confirmed.
pub struct NoLibrary;

#[async_trait::async_trait]
impl Library for NoLibrary {
    async fn usable(&self, _owner: &Owner, _ids: &[String]) -> Result<BTreeSet<String>, TaskError> {
        Ok(BTreeSet::new())
    }
}

/// Refuses, naming the field, the first material the owner may not use (neither theirs, a system
/// material, nor one the template lends).
pub async fn confirm_materials(library: &dyn Library, owner: &Owner, refs: &[MaterialRef]) -> Result<(), TaskError> {
    if refs.is_empty() {
        return Ok(());
    }
    let mut ids: Vec<String> = refs.iter().map(|m| m.id.clone()).collect();
    ids.sort();
    ids.dedup();
    let usable = library.usable(owner, &ids).await?;
    match refs.iter().find(|m| !usable.contains(&m.id)) {
        Some(m) => Err(TaskError::Invalid(format!(
            "{}: material {} is not one of your materials (nor a system material or one of the template's), or was deleted",
            m.path, m.id
        ))),
        None => Ok(()),
    }
}

/// Returns `task_info` reset to one blank scene (its frame size kept; its sounds kept only for an
/// IVVR task, whose audio the platform sets), as the editor's clear does.
pub fn blank_rule(task_info: &str, used_for: &str) -> String {
    let mut rule = reelforge_timeline::Rule::parse(task_info).unwrap_or_default();
    rule.scenes = vec![reelforge_timeline::Scene::default()];
    if !used_for.eq_ignore_ascii_case("ivvr") {
        rule.audio.clear();
    }
    serde_json::to_string(&rule).unwrap_or_default()
}

/// How a task list is ordered.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Order {
    /// Last changed first (orderType 1, the default).
    #[default]
    Newest,
    /// First made first (orderType 2).
    Oldest,
}

impl Order {
    /// Reads an orderType: 2 is oldest first, anything else newest.
    pub fn from_type(order_type: i32) -> Self {
        if order_type == 2 { Self::Oldest } else { Self::Newest }
    }
}

/// Which of the owner's tasks a list shows.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct TaskFilter {
    /// Status codes; empty: every state.
    pub states: Vec<i32>,
    /// Size categories; empty: every size.
    pub size_category_ids: Vec<i32>,
    /// Part of the name; empty: any.
    pub name: String,
    /// The use (`usedFor`, '' for a plain work); none: every use.
    pub used_for: Option<String>,
    /// The order.
    pub order: Order,
}

/// The editor state kept for a task (autosave).
#[derive(Debug, Clone, PartialEq, Eq, Default)]
pub struct History {
    /// When it was stored, milliseconds since the epoch; 0 when none is kept.
    pub stored_ms: i64,
    /// The editor state as the browser wrote it.
    pub history: String,
}

/// Largest editor state kept, bytes.
pub const MAX_HISTORY_BYTES: usize = 2 * 1024 * 1024;

/// A stored task.
#[derive(Debug, Clone, PartialEq)]
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
    /// Incremented by every save.
    pub version: i64,
    /// The document's length, milliseconds.
    pub duration_ms: i64,
    /// The last render's loudness (EBU R128 integrated), LUFS; None before a render with sound.
    pub loudness: Option<f64>,
    /// A tool run's type and inputs; `None` for an editor work.
    pub tool: Option<ToolRun>,
}

/// What a tool run is: its toolbox type, validated parameters and input materials, and once it
/// succeeded its outputs (docs/toolbox.md).
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct ToolRun {
    /// The toolbox type's wire name (`VIDEO_SPEEDUP`).
    pub tool_type: String,
    /// The parameters as the tools crate wrote them back (JSON).
    pub params: String,
    /// The input materials, the owner's own or system ones.
    pub material_ids: Vec<String>,
    /// The outputs, empty until it succeeds.
    pub outputs: Vec<ToolOutput>,
}

/// One output of a finished tool run; its key stays server-side.
#[derive(Debug, Clone, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct ToolOutput {
    /// Storage key, under the job's keys.
    pub key: String,
    /// `video`, `audio`, `gif` or `picture`.
    pub kind: String,
    /// File name for the user.
    pub name: String,
    /// Size, bytes.
    pub size: u64,
    /// Length, milliseconds.
    pub duration_ms: u64,
    /// Width, pixels (0 for sound).
    pub width: u32,
    /// Height, pixels (0 for sound).
    pub height: u32,
    /// The stretches of the input it was made of, in its order (a split's clip, the scenes an
    /// intelligent cut kept); empty where it is made of all of it.
    #[serde(default)]
    pub ranges: Vec<SourceRange>,
}

/// A stretch of a tool run's input, milliseconds, end excluded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, serde::Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct SourceRange {
    /// Start.
    pub start_ms: u64,
    /// End (excluded).
    pub end_ms: u64,
}

/// Checks a tool run's request: a type that runs, its parameters validated by the tools crate
/// (written back in their own words), one input material. Refusals name the field (`type`,
/// `params.speed`, `materialIds`).
pub fn parse_tool_run(tool_type: &str, params: &str, material_ids: &[String]) -> Result<ToolRun, TaskError> {
    use reelforge_tools::{Params, ToolType};
    if tool_type.trim() == reelforge_tools::ring_fix::RING_FIX {
        return Err(TaskError::Invalid("type: RING_FIX runs from the ringtone's check (/ring/fix), not the toolbox".to_owned()));
    }
    let tool = ToolType::parse(tool_type.trim()).ok_or_else(|| TaskError::Invalid(format!("type: unknown toolbox type `{tool_type}`")))?;
    if let Some(reason) = tool.unavailable() {
        return Err(TaskError::Invalid(format!("type: {} is not available: {reason}", tool.name())));
    }
    if !tool.runs() {
        return Err(TaskError::Invalid(format!("type: {} runs from its own page, /tools/{}", tool.name(), tool.path())));
    }
    let value: serde_json::Value = if params.trim().is_empty() {
        serde_json::Value::Object(serde_json::Map::new())
    } else {
        serde_json::from_str(params).map_err(|e| TaskError::Invalid(format!("params: not JSON ({e})")))?
    };
    let params = Params::parse(tool, &value).map_err(|e| TaskError::Invalid(e.to_string()))?;
    let wanted = params.inputs().len();
    if material_ids.len() != wanted {
        let what = if wanted == 1 { "exactly one material".to_owned() } else { format!("{wanted} materials, in order: {}", input_roles(&params)) };
        return Err(TaskError::Invalid(format!("materialIds: {} takes {what}", tool.name())));
    }
    let mut ids = Vec::with_capacity(wanted);
    for (i, id) in material_ids.iter().enumerate() {
        let id = id.trim();
        if id.is_empty() || id.len() > 64 {
            return Err(TaskError::Invalid(format!("{}: `{id}` is not a material id", params.input_field(i))));
        }
        ids.push(id.to_owned());
    }
    Ok(ToolRun { tool_type: tool.name().to_owned(), params: params.to_json().to_string(), material_ids: ids, outputs: Vec::new() })
}

/// The inputs a tool takes, in words (`the video, then the sound`).
fn input_roles(params: &reelforge_tools::Params) -> String {
    use reelforge_tools::Input;
    let words: Vec<&str> = params
        .inputs()
        .into_iter()
        .map(|r| match r {
            Input::Video => "the video",
            Input::Sound => "the sound",
            Input::Picture => "the picture",
            Input::Presentation => "the presentation",
        })
        .collect();
    words.join(", then ")
}

/// Checks a RING_FIX run's request (docs/ringtone.md, the one-click fix): the profile its
/// parameters carry, and a source work. The source itself is confirmed by the store.
pub fn parse_ring_fix(params: &str, source_task_id: i64) -> Result<ToolRun, TaskError> {
    use reelforge_tools::ring_fix::{FixParams, RING_FIX};
    if source_task_id <= 0 {
        return Err(TaskError::Invalid("sourceTaskId: a RING_FIX run needs the finished work to fix".to_owned()));
    }
    let value: serde_json::Value = serde_json::from_str(params).map_err(|e| TaskError::Invalid(format!("params: not JSON ({e})")))?;
    let fix = FixParams::parse(&value).map_err(|e| TaskError::Invalid(e.to_string()))?;
    let params = serde_json::json!({"profile": fix.profile, "sourceTaskId": source_task_id});
    Ok(ToolRun { tool_type: RING_FIX.to_owned(), params: params.to_string(), material_ids: Vec::new(), outputs: Vec::new() })
}

/// Checks a dubbing's request (docs/ai.md, "Text to speech"): its text, voice, rate and pitch,
/// validated by the ai crate and written back in its words; it takes no material. Refusals name
/// the field (`text`, `voice`, `rate`, `pitch`).
pub fn parse_speech(params: &str, material_ids: &[String]) -> Result<ToolRun, TaskError> {
    use reelforge_ai::speech::{Speech, TEXT_TO_VOICE};
    if !material_ids.is_empty() {
        return Err(TaskError::Invalid(format!("materialIds: {TEXT_TO_VOICE} takes no material")));
    }
    let value: serde_json::Value = serde_json::from_str(params).map_err(|e| TaskError::Invalid(format!("params: not JSON ({e})")))?;
    let speech = Speech::parse(&value).map_err(|e| TaskError::Invalid(e.to_string()))?;
    Ok(ToolRun { tool_type: TEXT_TO_VOICE.to_owned(), params: speech.to_json().to_string(), material_ids: Vec::new(), outputs: Vec::new() })
}

/// Checks a video audit's request (docs/ai.md, "Video auditing"): one material or one of the
/// caller's works, validated by the ai crate; refusals name `materialId`, `taskId` or the key.
pub fn parse_audit(params: &str, material_ids: &[String], source_task_id: i64) -> Result<ToolRun, TaskError> {
    use reelforge_ai::audit::{Target, VIDEO_AUDIT};
    let value: serde_json::Value = if params.trim().is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_str(params).map_err(|e| TaskError::Invalid(format!("params: not JSON ({e})")))?
    };
    let target = Target::parse(&value, material_ids, source_task_id).map_err(|e| TaskError::Invalid(e.to_string()))?;
    Ok(ToolRun { tool_type: VIDEO_AUDIT.to_owned(), params: target.to_json().to_string(), material_ids: material_ids.to_vec(), outputs: Vec::new() })
}

/// Checks a speech recognition's request (docs/ai.md, "Speech recognition"): one material and the
/// sound's language, validated by the ai crate; refusals name `materialId`, `language` or the key.
pub fn parse_recognition(params: &str, material_ids: &[String]) -> Result<ToolRun, TaskError> {
    use reelforge_ai::asr::{Recognition, VOICE_TO_TEXT};
    let value: serde_json::Value = if params.trim().is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_str(params).map_err(|e| TaskError::Invalid(format!("params: not JSON ({e})")))?
    };
    let ask = Recognition::parse(&value, material_ids).map_err(|e| TaskError::Invalid(e.to_string()))?;
    Ok(ToolRun { tool_type: VOICE_TO_TEXT.to_owned(), params: ask.to_json().to_string(), material_ids: material_ids.to_vec(), outputs: Vec::new() })
}

/// Checks a picture run's request (docs/ai.md, "Pictures"): a prompt (text to image) or one source
/// material (similar image), a size and a count, validated by the ai crate; refusals name
/// `prompt`, `size`, `count`, `materialId` or the key.
pub fn parse_picture(tool_type: &str, params: &str, material_ids: &[String]) -> Result<ToolRun, TaskError> {
    use reelforge_ai::picture::ImageAsk;
    let value: serde_json::Value = if params.trim().is_empty() {
        serde_json::Value::Null
    } else {
        serde_json::from_str(params).map_err(|e| TaskError::Invalid(format!("params: not JSON ({e})")))?
    };
    let ask = ImageAsk::parse(tool_type, &value, material_ids).map_err(|e| TaskError::Invalid(e.to_string()))?;
    Ok(ToolRun { tool_type: ask.tool_type.to_owned(), params: ask.to_json().to_string(), material_ids: material_ids.to_vec(), outputs: Vec::new() })
}

/// Refuses, naming `materialIds` (`materialIds[1]` where a tool takes several), an input material
/// the owner may not use (neither theirs nor a system material).
pub async fn confirm_inputs(library: &dyn Library, owner: &Owner, ids: &[String]) -> Result<(), TaskError> {
    let usable = library.usable(owner, ids).await?;
    match ids.iter().position(|id| !usable.contains(id)) {
        Some(i) => {
            let field = if ids.len() == 1 { "materialIds".to_owned() } else { format!("materialIds[{i}]") };
            Err(TaskError::Invalid(format!("{field}: material {} does not exist among your materials or the system's", ids[i])))
        }
        None => Ok(()),
    }
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
#[derive(Debug, Clone, PartialEq)]
pub enum FinishOutcome {
    /// The video and cover are stored under these keys.
    Done {
        /// Video storage key.
        video_key: String,
        /// Cover storage key.
        cover_key: String,
        /// The mix's loudness, LUFS (None: silent).
        loudness: Option<f64>,
    },
    /// A tool run's outputs are stored under the job's keys.
    Tool {
        /// The outputs, in order.
        outputs: Vec<ToolOutput>,
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
    /// The material library did not answer.
    #[error("material library: {0}")]
    Library(String),
    /// The auth service did not say who is a service provider.
    #[error("service providers: {0}")]
    Providers(String),
    /// A worker's call names a job with another task or tenant than the job was published with.
    #[error("job {0} does not belong to that task and tenant")]
    JobMismatch(String),
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
    /// The save was based on an older version than the stored one.
    #[error("{STALE_MESSAGE}")]
    Stale,
    /// The task is being rendered; the call must wait or cancel first.
    #[error("task {0} is being rendered; cancel the render first")]
    Rendering(i64),
    /// An editor call (run, save, clear, duplicate, rename, autosave) named a toolbox run.
    #[error("taskId: task {0} is a toolbox run, not an editor work")]
    NotAWork(i64),
    /// Blob storage failed.
    #[error("task storage")]
    Blob(#[from] reelforge_kit::BlobError),
    /// The cache failed.
    #[error("task cache")]
    Cache(#[from] reelforge_kit::cache::CacheError),
    /// No such template the caller may see (another tenant's, or another user's not approved).
    #[error("template {0} does not exist")]
    TemplateNotFound(i64),
    /// No such collection the caller may see (another tenant's, or unpublished for a user).
    #[error("collection {0} does not exist")]
    CollectionNotFound(i64),
    /// The caller's role may not do this; names the role required.
    #[error("this needs the {0} role")]
    Forbidden(&'static str),
    /// The tenant's farm is in maintenance: new renders and tool runs wait until it ends.
    #[error("the render farm is in maintenance: new renders and tool runs are refused until it ends")]
    Maintenance,
}

impl TaskError {
    /// The stable reason clients word themselves, for the refusal they resolve (a stale save).
    pub fn reason(&self) -> Option<&'static str> {
        matches!(self, Self::Stale).then_some("stale_version")
    }
}

impl ServiceError for TaskError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Invalid(_) | Self::NotAWork(_) => ErrorKind::Invalid,
            Self::NotFound(_) | Self::TemplateNotFound(_) | Self::CollectionNotFound(_) => ErrorKind::NotFound,
            Self::Forbidden(_) | Self::JobMismatch(_) => ErrorKind::Forbidden,
            Self::Stale | Self::Rendering(_) => ErrorKind::Conflict,
            Self::Maintenance => ErrorKind::Unavailable,
            Self::Store(_) | Self::Queue(_) | Self::Blob(_) | Self::Cache(_) | Self::Library(_) | Self::Providers(_) => ErrorKind::Internal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn owner() -> Owner {
        Owner { tenant: "qs".into(), user_id: "u1".into() }
    }

    #[test]
    fn status_codes_round_trip() {
        for s in TaskStatus::ALL {
            assert_eq!(TaskStatus::from_code(s.code()), Some(s));
        }
        assert_eq!(TaskStatus::Cancelled.code(), 11);
    }

    #[test]
    fn blank_name_becomes_default() -> Result<(), TaskError> {
        // The fixture's materials are user 2's: here they are the owner's.
        let info = include_str!("../../timeline/tests/fixtures/video_edit_every_layer.json");
        let info = info.replace("t/qs/u/2/", &format!("t/qs/u/{}/", owner().user_id)).replace("t/qs/fx/", "t/qs/sys/materials/fx/");
        let draft = parse_draft(&owner(), SaveInput { task_id: -1, name: "  ", task_info: &info, size_category_id: 1, ..SaveInput::default() })?;
        assert_eq!((draft.name.as_str(), draft.task_id, draft.version), (DEFAULT_NAME, None, None));
        Ok(())
    }

    #[test]
    fn a_tool_run_is_refused_naming_its_field_and_keeps_its_parameters_in_their_own_words() -> Result<(), TaskError> {
        let field = |t: &str, p: &str, ids: &[&str]| {
            let ids: Vec<String> = ids.iter().map(|s| (*s).to_owned()).collect();
            match parse_tool_run(t, p, &ids) {
                Err(TaskError::Invalid(m)) => m.split(':').next().unwrap_or_default().to_owned(),
                other => format!("{other:?}"),
            }
        };
        assert_eq!(field("NO_SUCH_TOOL", "{}", &["m"]), "type");
        assert_eq!(field("EXTRACT_PORTRAIT", "{}", &["m"]), "type");
        assert_eq!(field("BUSINESS_CARD", "{}", &["m"]), "type");
        assert_eq!(field("VIDEO_SPEEDUP", r#"{"speed": 9}"#, &["m"]), "params.speed");
        assert_eq!(field("VIDEO_SPEEDUP", "not json", &["m"]), "params");
        assert_eq!(field("VIDEO_SPEEDUP", r#"{"speed": 2}"#, &[]), "materialIds");
        assert_eq!(field("VIDEO_SPEEDUP", r#"{"speed": 2}"#, &["a", "b"]), "materialIds");
        assert_eq!(field("VIDEO_SPEEDUP", r#"{"speed": 2}"#, &[" "]), "materialIds");
        // Two inputs where the mode takes them, one where it does not; each named by its place.
        assert_eq!(field("VIDEO_REPLACE_AUDIO", r#"{"mode": "replace"}"#, &["v"]), "materialIds");
        assert_eq!(field("VIDEO_REPLACE_AUDIO", r#"{"mode": "replace"}"#, &["v", " "]), "materialIds[1]");
        assert_eq!(field("VIDEO_REPLACE_AUDIO", r#"{"mode": "gain", "gainDb": 3}"#, &["v", "a"]), "materialIds");
        assert_eq!(field("PRE_PICTURE_VIDEO", r#"{"visual": "picture"}"#, &["a"]), "materialIds");
        let two = parse_tool_run("VIDEO_REPLACE_AUDIO", r#"{"mode": "mix"}"#, &["v".to_owned(), "a".to_owned()])?;
        assert_eq!(two.material_ids, ["v", "a"]);
        let run = parse_tool_run(" EXTRACT_AUDIO ", r#"{"format": "wav"}"#, &[" m-1 ".to_owned()])?;
        assert_eq!((run.tool_type.as_str(), run.params.as_str(), run.material_ids), ("EXTRACT_AUDIO", r#"{"format":"wav"}"#, vec!["m-1".to_owned()]));
        Ok(())
    }

    #[test]
    fn a_dubbing_is_refused_naming_its_field_and_takes_no_material() -> Result<(), TaskError> {
        let field = |p: &str, ids: &[String]| match parse_speech(p, ids) {
            Err(TaskError::Invalid(m)) => m.split(':').next().unwrap_or_default().to_owned(),
            other => format!("{other:?}"),
        };
        assert_eq!(field(r#"{"text": "", "voice": "cmn"}"#, &[]), "text");
        assert_eq!(field(r#"{"text": "你好", "voice": "xx"}"#, &[]), "voice");
        assert_eq!(field(r#"{"text": "你好", "voice": "cmn", "rate": 3}"#, &[]), "rate");
        assert_eq!(field(r#"{"text": "你好", "voice": "cmn"}"#, &["m".to_owned()]), "materialIds");
        assert_eq!(field("not json", &[]), "params");
        let run = parse_speech(r#"{"text": " 你好 ", "voice": "cmn"}"#, &[])?;
        assert_eq!((run.tool_type.as_str(), run.params.as_str()), ("TEXT_TO_VOICE", r#"{"text":"你好","voice":"cmn","rate":1.0,"pitch":50}"#));
        Ok(())
    }

    #[test]
    fn not_json_is_invalid() {
        assert!(matches!(check_rule("{\"scenes\": [", "qs"), Err(TaskError::Invalid(m)) if m.starts_with("taskInfo: ")));
    }

    #[test]
    fn a_blank_rule_keeps_its_frame_and_has_one_scene() -> Result<(), TaskError> {
        let info = include_str!("../../timeline/tests/fixtures/video_edit_every_layer.json");
        let before = reelforge_timeline::Rule::parse(info).map_err(|e| TaskError::Invalid(e.to_string()))?;
        let blank = blank_rule(info, "");
        let after = reelforge_timeline::Rule::parse(&blank).map_err(|e| TaskError::Invalid(e.to_string()))?;
        assert_eq!(after.scenes.len(), 1);
        assert!(after.scenes[0].layers.is_empty() && after.audio.is_empty());
        assert_eq!(after.resolution_ratio, before.resolution_ratio);
        check_rule(&blank, "qs")?;
        Ok(())
    }
}
