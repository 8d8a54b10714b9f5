//! The video toolbox (docs/toolbox.md): the catalogue of toolbox types, tool runs on the render
//! farm, "my tools", a run's output files and "use", which makes an output the caller's material.
//! Parameters are validated once, by the tools crate inside the task service; what the material
//! library's probe already knows of the input (its length, size, sound and picture) is checked here
//! against the same crate's rules and the `[tools]` limits. A refusal answers 3000 with `data.field`
//! naming the parameter, before anything is queued or stored.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::material as mpb;
use reelforge_proto::task as pb;
use reelforge_tools::orientation::Orientation;
use reelforge_tools::{Facts, Input, Limits, ParamError, Params, ToolType, Unavailable};
use serde::{Deserialize, Serialize};

use crate::{ApiError, AppState, body, caller, envelope};

/// A finished task's status code.
const SUCCESS: i32 = 10;

/// The toolbox limits of the gateway's configuration (the defaults where none is given).
fn limits(req: &HttpRequest) -> Limits {
    req.app_data::<web::Data<Limits>>().map(|l| l.get_ref().clone()).unwrap_or_else(|| Limits::new(&Default::default()))
}

/// A toolbox type as the catalogue shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToolTypeDto {
    /// The wire name (`VIDEO_COMPRESS`).
    #[serde(rename = "type")]
    kind: String,
    /// The page under `/tools/` (empty: none).
    path: String,
    /// Shown in the catalogue (§9; hidden types by configuration).
    shown: bool,
    /// Whether its page works.
    available: bool,
    /// Why not, when it does not (English words).
    reason: String,
    /// Why not as a stable code the interface words in its language (`no_model`, `not_built`); empty when available.
    reason_code: String,
    /// Largest input, bytes.
    max_input_bytes: u64,
    /// Longest input, seconds.
    max_input_seconds: u64,
}

/// A list in the envelope's `dataList`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TypeList {
    data_list: Vec<ToolTypeDto>,
}

/// Every toolbox type of §9, with whether it is shown and available, and its input limits.
#[utoipa::path(get, path = "/diyvrbt/toolbox/types", responses((status = 200, body = TypeList)))]
pub async fn types(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    caller::caller(&req, &state).await?;
    let limits = limits(&req);
    let data_list = ToolType::ALL
        .into_iter()
        .map(|t| {
            let limit = limits.of(t);
            ToolTypeDto {
                kind: t.name().to_owned(),
                path: t.path().to_owned(),
                shown: limits.shown(t),
                available: t.why_unavailable().is_none(),
                reason: t.why_unavailable().map(Unavailable::reason).unwrap_or_default().to_owned(),
                reason_code: t.why_unavailable().map(Unavailable::code).unwrap_or_default().to_owned(),
                max_input_bytes: limit.max_input_bytes,
                max_input_seconds: limit.max_input_seconds,
            }
        })
        .collect();
    Ok(envelope::ok(TypeList { data_list }))
}

/// Body of run.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunBody {
    /// The toolbox type.
    #[serde(rename = "type")]
    kind: String,
    /// The input materials in the tool's order (docs/toolbox.md; two for replace / mix and for a picture video): the library's ids (numbers are read as ids too).
    #[serde(default)]
    #[schema(value_type = Vec<Object>)]
    material_ids: Vec<serde_json::Value>,
    /// The tool's parameters (docs/toolbox.md).
    #[serde(default)]
    #[schema(value_type = Object)]
    params: serde_json::Value,
}

/// Answer of run.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunAnswer {
    pub(crate) task_id: i64,
    pub(crate) job_id: String,
}

/// Answers a refused parameter in the envelope with `data.field`: the task service's message
/// starts with the field (`params.speed: …`).
pub(crate) fn refusal(e: ApiError) -> Result<HttpResponse, ApiError> {
    match &e {
        ApiError::Service(s) if s.code() == tonic::Code::InvalidArgument => {
            let field = s.message().split_once(": ").map(|(f, _)| f).filter(|f| !f.contains(' ')).unwrap_or_default();
            Ok(envelope::refused(StatusCode::OK, serde_json::json!({ "field": field }), s.message()))
        }
        _ => Err(e),
    }
}

/// Reads material ids given as strings (the library's ids) or numbers; `None` when one is neither.
pub(crate) fn material_ids(values: &[serde_json::Value]) -> Option<Vec<String>> {
    values
        .iter()
        .map(|v| match v {
            serde_json::Value::Number(n) => Some(n.to_string()),
            serde_json::Value::String(s) if !s.trim().is_empty() => Some(s.trim().to_owned()),
            _ => None,
        })
        .collect()
}

/// The facts the library's probe found of a material, once it is ready (`None` while it is
/// processing, when probing failed, or when the row lacks a length or size, as a row recorded
/// without a probe does: the worker probes the file itself before the tool starts).
fn facts_of(m: &mpb::Material) -> Option<Facts> {
    if m.state != "ready" || m.file_size == 0 || !(m.time_length.is_finite() && m.time_length > 0.0) {
        return None;
    }
    let (width, height) = (u32::try_from(m.width).unwrap_or(0), u32::try_from(m.height).unwrap_or(0));
    // The library keeps the stored size and the turn; tools take boxes on the pictures as shown.
    let orientation = Orientation::from_tag(&format!("rotate-{}", m.rotation));
    let (width, height) = if orientation.on_side() { (height, width) } else { (width, height) };
    let video = (m.r#type == "video" && width > 0 && height > 0).then_some((width, height, m.frame_rate));
    Some(Facts { duration_ms: (m.time_length * 1000.0).round() as u64, bytes: m.file_size, audio: m.has_audio, video, orientation, coding: Default::default() })
}

/// Checks a run against the library's facts of its inputs: each input's role (a picture where the
/// tool wants one), the tool's input limits, then the parameters against the input (a range past the
/// clip's end, no sound to extract, a target size not below the input's). Whatever the task service
/// refuses anyway (an unknown type, bad parameters, the wrong number of inputs, a material the caller
/// may not use) passes here, so that its refusal keeps its words.
async fn check_against_the_library(
    req: &HttpRequest,
    state: &AppState,
    caller: &caller::Caller,
    body: &RunBody,
    ids: &[String],
) -> Result<Option<ParamError>, ApiError> {
    let Some(tool) = ToolType::parse(body.kind.trim()) else { return Ok(None) };
    let empty = serde_json::Value::Object(serde_json::Map::new());
    let Ok(params) = Params::parse(tool, if body.params.is_null() { &empty } else { &body.params }) else { return Ok(None) };
    let roles = params.inputs();
    if ids.len() != roles.len() {
        return Ok(None);
    }
    let ask = mpb::GetManyRequest { ids: ids.to_vec() };
    let list = match state.clients.material.clone().get_many(caller.request(ask)?).await {
        Ok(r) => r.into_inner(),
        Err(s) if matches!(s.code(), tonic::Code::NotFound | tonic::Code::InvalidArgument) => return Ok(None),
        Err(s) => return Err(s.into()),
    };
    let limits = limits(req);
    for (i, (id, role)) in ids.iter().zip(&roles).enumerate() {
        let Some(m) = list.items.iter().find(|m| m.material_id == *id) else { continue };
        if *role == Input::Picture {
            if m.state == "ready" && m.r#type != "picture" {
                return Ok(Some(ParamError::new(params.input_field(i), format!("the material is a {}: choose a picture", m.r#type))));
            }
            continue;
        }
        if *role == Input::Presentation {
            if m.state == "ready" && m.r#type != "pptx" {
                return Ok(Some(ParamError::new(params.input_field(i), format!("the material is a {}: choose a pptx presentation", m.r#type))));
            }
            let file = Facts { duration_ms: 0, bytes: m.file_size, audio: false, video: None, orientation: Default::default(), coding: Default::default() };
            if let Err(mut e) = limits.check(tool, &file) {
                e.field = params.input_field(i);
                return Ok(Some(e));
            }
            continue;
        }
        let Some(facts) = facts_of(m) else { continue };
        if let Err(mut e) = limits.check(tool, &facts) {
            e.field = params.input_field(i);
            return Ok(Some(e));
        }
        if let Err(e) = params.check_input_at(i, &facts) {
            return Ok(Some(e));
        }
    }
    Ok(None)
}

/// Queues a tool run of the caller on the render farm.
#[utoipa::path(post, path = "/diyvrbt/toolbox/run", request_body = RunBody, responses((status = 200, body = RunAnswer)))]
pub async fn run(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: RunBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    if b.kind.trim() == reelforge_ai::speech::TEXT_TO_VOICE {
        // A dubbing is a run of the same job model, asked for where its ability's provider is checked.
        let field = serde_json::json!({ "field": "type" });
        return Ok(envelope::refused(StatusCode::OK, field, "type: TEXT_TO_VOICE runs from /tts/textToVoice, not the toolbox"));
    }
    if b.kind.trim() == reelforge_ai::asr::VOICE_TO_TEXT {
        let field = serde_json::json!({ "field": "type" });
        return Ok(envelope::refused(StatusCode::OK, field, "type: VOICE_TO_TEXT runs from /ASR/voiceToText, not the toolbox"));
    }
    if [reelforge_ai::picture::TEXT_TO_IMAGE, reelforge_ai::picture::SIMILAR_IMAGE].contains(&b.kind.trim()) {
        let field = serde_json::json!({ "field": "type" });
        return Ok(envelope::refused(StatusCode::OK, field, "type: picture runs start from /ai/textToImage and /ai/similarImage, not the toolbox"));
    }
    if let Some(key) = reelforge_ai::media::ability_of(b.kind.trim()) {
        // An AI ability's run (docs/ai.md, "Media abilities") is offered where the tenant's provider is.
        let ask = reelforge_proto::ai::GetAbilityRequest { key: key.to_owned() };
        let ability = state.clients.ai.clone().get_ability(caller.request(ask)?).await?.into_inner();
        if !ability.available {
            let why = format!("type: {key} is {}: {}", ability.reason_code, ability.reason);
            return Ok(envelope::refused(StatusCode::OK, serde_json::json!({ "field": "type", "reason": ability.reason_code }), &why));
        }
    }
    let Some(ids) = material_ids(&b.material_ids) else {
        let field = serde_json::json!({ "field": "materialIds" });
        return Ok(envelope::refused(StatusCode::OK, field, "materialIds: not a list of material ids"));
    };
    match queue(&req, &state, &caller, b, ids).await? {
        Ok(answer) => Ok(envelope::ok(answer)),
        Err(refused) => Ok(refused),
    }
}

/// A refused run: the field it names and the message, which starts with the field.
pub(crate) struct Refusal {
    pub(crate) field: String,
    pub(crate) message: String,
}

impl Refusal {
    /// The envelope that answers it (3000 with `data.field`).
    pub(crate) fn answer(&self) -> HttpResponse {
        envelope::refused(StatusCode::OK, serde_json::json!({ "field": self.field }), &self.message)
    }
}

/// Queues a run of the caller once the library's facts of its inputs pass; a refusal comes back as
/// the envelope to answer (3000 with `data.field`), nothing queued.
async fn queue(req: &HttpRequest, state: &AppState, caller: &caller::Caller, b: RunBody, ids: Vec<String>) -> Result<Result<RunAnswer, HttpResponse>, ApiError> {
    Ok(checked_queue(req, state, caller, b, ids).await?.map_err(|r| r.answer()))
}

/// [`queue`], a refusal answered as its field and message.
async fn checked_queue(req: &HttpRequest, state: &AppState, caller: &caller::Caller, b: RunBody, ids: Vec<String>) -> Result<Result<RunAnswer, Refusal>, ApiError> {
    if let Some(e) = check_against_the_library(req, state, caller, &b, &ids).await? {
        return Ok(Err(Refusal { field: e.field.clone(), message: e.to_string() }));
    }
    let params = if b.params.is_null() { "{}".to_owned() } else { b.params.to_string() };
    let ask = pb::RunToolRequest { tool_type: b.kind, params, material_ids: ids, source_task_id: 0 };
    match state.clients.task.clone().run_tool(caller.request(ask)?).await {
        Ok(r) => {
            let r = r.into_inner();
            Ok(Ok(RunAnswer { task_id: r.task_id, job_id: r.job_id }))
        }
        Err(s) if s.code() == tonic::Code::InvalidArgument => {
            let field = s.message().split_once(": ").map(|(f, _)| f).filter(|f| !f.contains(' ')).unwrap_or_default();
            Ok(Err(Refusal { field: field.to_owned(), message: s.message().to_owned() }))
        }
        Err(s) => Err(s.into()),
    }
}

/// Queues a run of `kind` with `params` on the materials `ids` for the caller, as `POST /toolbox/run` does.
pub(crate) async fn queue_run(
    req: &HttpRequest,
    state: &AppState,
    caller: &caller::Caller,
    kind: ToolType,
    params: serde_json::Value,
    ids: Vec<String>,
) -> Result<Result<RunAnswer, HttpResponse>, ApiError> {
    let material_ids = ids.iter().map(|id| serde_json::Value::String(id.clone())).collect();
    queue(req, state, caller, RunBody { kind: kind.name().to_owned(), material_ids, params }, ids).await
}

/// [`queue_run`], a refusal answered as its field and message, for a route that names its own
/// fields (`/material/videoClip`'s `startTime` for the run's `params.ranges[0].startMs`).
pub(crate) async fn queue_checked_run(
    req: &HttpRequest,
    state: &AppState,
    caller: &caller::Caller,
    kind: ToolType,
    params: serde_json::Value,
    ids: Vec<String>,
) -> Result<Result<RunAnswer, Refusal>, ApiError> {
    let material_ids = ids.iter().map(|id| serde_json::Value::String(id.clone())).collect();
    checked_queue(req, state, caller, RunBody { kind: kind.name().to_owned(), material_ids, params }, ids).await
}

/// One output of a tool run (its storage key is never shown).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OutputDto {
    index: usize,
    /// `video`, `audio`, `gif` or `picture`.
    kind: String,
    name: String,
    size: u64,
    duration_ms: u64,
    width: u32,
    height: u32,
    /// The stretches of the input it was made of, in its order; empty where it is all of it.
    ranges: Vec<RangeDto>,
}

/// A stretch of a tool run's input, ms, end excluded.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RangeDto {
    start_ms: u64,
    end_ms: u64,
}

/// A tool run as "my tools" shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ToolRunDto {
    id: i64,
    #[serde(rename = "type")]
    kind: String,
    name: String,
    /// As `/videotask/state`: -1 new, 0 wait, 1 executing, 9 error, 10 success, 11 cancelled.
    status: i32,
    percent: u32,
    /// As `/videotask/state`: queued, fetching, rendering, encoding, uploading, done, error, cancelled.
    stage: String,
    reason: String,
    #[schema(value_type = Object)]
    params: serde_json::Value,
    material_ids: Vec<String>,
    outputs: Vec<OutputDto>,
    created_ms: i64,
    updated_ms: i64,
}

/// Whether `status` is an end: error, success or cancelled.
fn ended(status: i32) -> bool {
    matches!(status, 9..=11)
}

/// The stage a run at rest in `status` shows.
fn stage_of(status: i32) -> &'static str {
    match status {
        0 => "queued",
        1 => "fetching",
        9 => "error",
        10 => "done",
        11 => "cancelled",
        _ => "",
    }
}

fn run_dto(t: pb::Task, live: Option<pb::TaskState>) -> ToolRunDto {
    let (status, percent, stage, reason) = match live {
        Some(s) => (s.status, s.percent, s.stage, s.reason),
        None => (t.status, if t.status == SUCCESS { 100 } else { 0 }, stage_of(t.status).to_owned(), t.reason),
    };
    ToolRunDto {
        id: t.id,
        kind: t.tool_type,
        name: t.task_name,
        status,
        percent,
        stage,
        reason,
        params: serde_json::from_str(&t.tool_params).unwrap_or(serde_json::Value::Null),
        material_ids: t.material_ids,
        outputs: t
            .outputs
            .into_iter()
            .enumerate()
            .map(|(index, o)| OutputDto {
                index,
                kind: o.kind,
                name: o.name,
                size: o.size,
                duration_ms: o.duration_ms,
                width: o.width,
                height: o.height,
                ranges: o.ranges.into_iter().map(|r| RangeDto { start_ms: r.start_ms, end_ms: r.end_ms }).collect(),
            })
            .collect(),
        created_ms: t.created_ms,
        updated_ms: t.updated_ms,
    }
}

/// Query of mine.
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct MineQuery {
    page_num: Option<u32>,
    page_size: Option<u32>,
    /// One toolbox type only.
    #[serde(rename = "type")]
    kind: Option<String>,
}

/// A page of runs.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunPage {
    data_list: Vec<ToolRunDto>,
    total: u64,
}

/// The caller's tool runs, newest first.
#[utoipa::path(get, path = "/diyvrbt/toolbox/mine", params(MineQuery), responses((status = 200, body = RunPage)))]
pub async fn mine(req: HttpRequest, q: web::Query<MineQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let tool_type = q.kind.clone().unwrap_or_default();
    if !tool_type.trim().is_empty() && ToolType::parse(tool_type.trim()).is_none() {
        return Err(ApiError::BadRequest(format!("type: unknown toolbox type `{tool_type}`")));
    }
    let page = reelforge_proto::common::Page { page_num: q.page_num.unwrap_or(1).max(1), page_size: q.page_size.unwrap_or(20).min(100) };
    let ask = pb::MineToolsRequest { page: Some(page), tool_type };
    let p = state.clients.task.clone().mine_tools(caller.request(ask)?).await?.into_inner();
    Ok(envelope::ok(RunPage { data_list: p.items.into_iter().map(|t| run_dto(t, None)).collect(), total: p.total }))
}

/// One of the caller's tool runs (an editor work is not found here).
pub(crate) async fn tool_run(caller: &caller::Caller, state: &AppState, task_id: i64) -> Result<pb::Task, ApiError> {
    let t = state.clients.task.clone().get(caller.request(pb::GetTaskRequest { task_id })?).await?.into_inner();
    if t.tool_type.is_empty() {
        return Err(ApiError::BadRequest(format!("id: task {task_id} is not a tool run")));
    }
    Ok(t)
}

fn id_param(name: &str, value: &str) -> Result<i64, ApiError> {
    value.trim().parse::<i64>().map_err(|_| ApiError::BadRequest(format!("{name}: `{value}` is not an id")))
}

/// One of the caller's tool runs with its live progress.
#[utoipa::path(get, path = "/diyvrbt/toolbox/run/{id}", params(("id" = i64, Path, description = "the run's task id")), responses((status = 200, body = ToolRunDto)))]
pub async fn get(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let task_id = id_param("id", &id)?;
    let caller = caller::caller(&req, &state).await?;
    // The live state first, then the row: an end is announced only after its row (with the
    // outputs) is stored, so a row read second is never older than the state. Read the other way
    // round, a row read just before the end's commit met a state read just after it: "done" with
    // no outputs, which a page showing outputs once done then kept.
    let live = state.clients.task.clone().state(caller.request(pb::GetTaskRequest { task_id })?).await;
    let t = tool_run(&caller, &state, task_id).await?;
    let live = live?.into_inner();
    // A row that ended since the state was read is newer than it.
    let live = Some(live).filter(|s| s.status == t.status || !ended(t.status));
    Ok(envelope::ok(run_dto(t, live)))
}

/// Query of file.
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct FileQuery {
    /// The media ticket of `/videotask/mediaTicket` for this run, when the request has no auth headers.
    ticket: Option<String>,
    /// `1`: as an attachment.
    download: Option<String>,
}

/// The content type of an output.
fn content_type(kind: &str, name: &str) -> &'static str {
    match (kind, name.rsplit('.').next().unwrap_or_default()) {
        ("gif", _) => "image/gif",
        ("audio", "mp3") => "audio/mpeg",
        ("audio", "wav") => "audio/wav",
        ("audio", _) => "audio/mp4",
        ("picture", "png") => "image/png",
        ("picture", "webp") => "image/webp",
        ("picture", _) => "image/jpeg",
        ("report", _) => "application/json",
        _ => "video/mp4",
    }
}

/// A finished run's output `index` of the caller (by auth headers or a ticket for this run).
async fn output(req: &HttpRequest, state: &AppState, task_id: i64, index: &str, ticket: Option<&str>) -> Result<(caller::Caller, pb::ToolOutput), ApiError> {
    let caller = match ticket.filter(|t| !t.is_empty()) {
        Some(ticket) => {
            let media = state.media.as_ref().ok_or(ApiError::NotAvailable("tool outputs from this gateway"))?;
            let user = media.ticket_user(ticket, &caller::tenant(req)?, task_id)?;
            caller::acting_for(req, state, &user)?
        }
        None => caller::caller(req, state).await?,
    };
    let t = tool_run(&caller, state, task_id).await?;
    if t.status != SUCCESS {
        return Err(ApiError::BadRequest(format!("id: tool run {task_id} has not finished")));
    }
    let i = index.trim().parse::<usize>().map_err(|_| ApiError::BadRequest(format!("index: `{index}` is not an output index")))?;
    let o = t.outputs.into_iter().nth(i).ok_or_else(|| ApiError::BadRequest(format!("index: tool run {task_id} has no output {i}")))?;
    Ok((caller, o))
}

/// The bytes of a finished run's output; HTTP ranges answer 206.
#[utoipa::path(get, path = "/diyvrbt/toolbox/file/{id}/{index}", params(("id" = i64, Path, description = "the run's task id"), ("index" = usize, Path, description = "the output's index"), FileQuery), responses((status = 200, content_type = "application/octet-stream", body = Vec<u8>), (status = 206, description = "the requested byte range")))]
pub async fn file(req: HttpRequest, path: web::Path<(String, String)>, q: web::Query<FileQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let task_id = id_param("id", &path.0)?;
    let (_, o) = output(&req, &state, task_id, &path.1, q.ticket.as_deref()).await?;
    let media = state.media.as_ref().ok_or(ApiError::NotAvailable("tool outputs from this gateway"))?;
    let disposition = (q.download.as_deref() == Some("1")).then(|| {
        let (stem, ext) = o.name.rsplit_once('.').unwrap_or((o.name.as_str(), ""));
        crate::media::attachment(stem, ext)
    });
    let mut res = media.serve(&req, &o.key, content_type(&o.kind, &o.name), disposition).await?;
    res.headers_mut().insert(
        actix_web::http::header::X_CONTENT_TYPE_OPTIONS,
        actix_web::http::header::HeaderValue::from_static("nosniff"),
    );
    Ok(res)
}

/// Body of use.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UseBody {
    task_id: i64,
    #[serde(default)]
    index: usize,
}

/// Answer of use.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UseAnswer {
    material_id: String,
}

/// Makes a finished run's output the caller's material: copied under the caller's own prefix and
/// recorded by the material service, which holds it to the caller's quota (a refusal removes the copy).
#[utoipa::path(post, path = "/diyvrbt/toolbox/use", request_body = UseBody, responses((status = 200, body = UseAnswer)))]
pub async fn use_output(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: UseBody = body::parse(&req, &bytes)?;
    let (caller, o) = output(&req, &state, b.task_id, &b.index.to_string(), None).await?;
    if o.kind == "report" {
        // An audit's report is read, not a material.
        return Ok(envelope::refused(StatusCode::OK, serde_json::json!({ "field": "index" }), &format!("index: output {} is a report, not a material", b.index)));
    }
    let material_id = into_material(&state, &caller, &o).await?;
    Ok(envelope::ok(UseAnswer { material_id }))
}

/// Copies a finished run's output `o` into the caller's library and answers its material id. The
/// library knows a file the caller already has by its content: the same output made a material
/// twice answers the same material (the second copy is removed).
pub(crate) async fn into_material(state: &AppState, caller: &caller::Caller, o: &pb::ToolOutput) -> Result<String, ApiError> {
    use futures::StreamExt;
    let media = state.media.as_ref().ok_or(ApiError::NotAvailable("tool outputs from this gateway"))?;
    let blob = media.blob();
    let ext = o.name.rsplit('.').next().unwrap_or("bin").to_ascii_lowercase();
    let prefix = reelforge_kit::blob::user_material_prefix(&caller.tenant, &caller.user()?.user_id);
    let key = format!("{prefix}{}/original.{ext}", uuid::Uuid::new_v4());
    let copy = async {
        let mut from = blob.stream(&o.key, 0..o.size).await.map_err(|e| e.to_string())?;
        let mut to = blob.writer(&key).await.map_err(|e| e.to_string())?;
        while let Some(chunk) = from.next().await {
            let written = match chunk {
                Ok(chunk) => to.write(chunk).await.map_err(|e| e.to_string()),
                Err(e) => Err(e.to_string()),
            };
            if let Err(e) = written {
                let _ = to.abort().await;
                return Err(e);
            }
        }
        to.close().await.map_err(|e| e.to_string())
    };
    if let Err(e) = copy.await {
        tracing::error!(error = %e, "tool output not copied into the library");
        let _ = blob.delete(&key).await;
        return Err(ApiError::NotAvailable("copying the output into your materials"));
    }
    let record = mpb::RecordMaterialRequest {
        key,
        r#type: o.kind.clone(),
        name: o.name.clone(),
        file_size: o.size,
        category_id: -1,
        style_id: -1,
        open_state: 0,
        system: false,
    };
    crate::upload::record_own(state, caller, blob, record).await
}
