//! Video tasks: save, fetch, list with filters, rename and update, store, clear, duplicate, delete,
//! run, state and cancel.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::task as pb;
use serde::{Deserialize, Serialize};

use crate::{ApiError, AppState, body, caller, envelope};

fn num_or_default<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    let v = serde_json::Value::deserialize(d)?;
    Ok(match v {
        serde_json::Value::Number(n) => n.as_i64().unwrap_or(-1),
        serde_json::Value::String(s) => s.trim().parse().unwrap_or(-1),
        _ => -1,
    })
}

/// Body of save (spec editor-core §7): `taskInfo` is the rule as a JSON string.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SaveBody {
    #[serde(default = "new_task", deserialize_with = "num_or_default")]
    task_id: i64,
    #[serde(default, alias = "taskName")]
    name: String,
    #[serde(alias = "videoCreateInfo")]
    task_info: String,
    #[serde(default = "landscape", deserialize_with = "num_or_default")]
    size_category_id: i64,
    #[serde(default)]
    used_for: String,
    /// The task version the edit was based on (from ofone or the list); absent: no stale check.
    #[serde(default, deserialize_with = "num_or_zero")]
    version: i64,
}

fn num_or_zero<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    num_or_default(d).map(|n| n.max(0))
}

/// The save message, with the document's warnings when it has any (the save went through).
fn saved_desc(warnings: &[String]) -> String {
    if warnings.is_empty() {
        "保存成功".to_owned()
    } else {
        format!("保存成功；提示：{}", warnings.join("; "))
    }
}

fn size_of(b: &SaveBody) -> Result<i32, ApiError> {
    i32::try_from(b.size_category_id).map_err(|_| ApiError::BadRequest("sizeCategoryId: out of range".into()))
}

/// Saves `b` as the caller (a new task when its id is -1 or 0); answers the id and the warnings.
async fn save_body(req: &HttpRequest, state: &AppState, b: SaveBody) -> Result<pb::SaveTaskReply, ApiError> {
    let size = size_of(&b)?;
    let caller = caller::caller(req, state).await?;
    Ok(state
        .clients
        .task
        .clone()
        .save(caller.request(pb::SaveTaskRequest {
            task_id: b.task_id,
            task_name: b.name,
            task_info: b.task_info,
            size_category_id: size,
            used_for: b.used_for,
            version: b.version,
        })?)
        .await?
        .into_inner())
}

fn new_task() -> i64 {
    -1
}
fn landscape() -> i64 {
    41
}

/// Saves a task; `data` is its id.
#[utoipa::path(post, path = "/diyvrbt/videotask/save", request_body = SaveBody, responses((status = 200, body = i64)))]
pub async fn save(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: SaveBody = body::parse(&req, &bytes)?;
    let r = save_body(&req, &state, b).await?;
    Ok(envelope::ok_with(r.task_id, &saved_desc(&r.warnings)))
}

/// A task as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskDto {
    id: i64,
    task_name: String,
    video_create_info: String,
    status: i32,
    video_relative_path: String,
    brief_picture: String,
    create_time: String,
    update_time: String,
    size_category_id: i32,
    used_for: String,
    reason: String,
    /// The video's download path when the task succeeded, else ''.
    video_url: String,
    /// The cover's path when the task succeeded, else ''.
    cover_url: String,
    /// Incremented by every save; a save sends the version it was based on.
    version: i64,
    /// The document's length, seconds.
    duration: f64,
    /// The last render's loudness (EBU R128 integrated), LUFS; null before a render with sound.
    loudness: Option<f64>,
}

/// Status code of a task that rendered successfully.
const SUCCESS: i32 = 10;

fn task_dto(t: pb::Task) -> TaskDto {
    let done = t.status == SUCCESS;
    TaskDto {
        video_url: if done { format!("{}/videotask/download?taskId={}", crate::BASE, t.id) } else { String::new() },
        cover_url: if done { format!("{}/videotask/cover?taskId={}", crate::BASE, t.id) } else { String::new() },
        id: t.id,
        task_name: t.task_name,
        video_create_info: t.task_info,
        status: t.status,
        video_relative_path: t.video_relative_path,
        brief_picture: t.brief_picture,
        create_time: t.create_time,
        update_time: t.update_time,
        size_category_id: t.size_category_id,
        used_for: t.used_for,
        reason: t.reason,
        version: t.version,
        duration: t.duration,
        loudness: t.loudness,
    }
}

/// One of the caller's tasks.
#[utoipa::path(get, path = "/diyvrbt/videotask/ofone/{id}", responses((status = 200, body = TaskDto)))]
pub async fn get(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let task_id = id.parse::<i64>().map_err(|_| ApiError::BadRequest(format!("id: `{id}` is not a task id")))?;
    let caller = caller::caller(&req, &state).await?;
    let mut t = state.clients.task.clone().get(caller.request(pb::GetTaskRequest { task_id })?).await?.into_inner();
    t.task_info = complete_document(t.task_info);
    Ok(envelope::ok(task_dto(t)))
}

/// The document with every field the model knows and the document leaves out written in, with its
/// default: the editor that opens a task reads it as the generated types describe it, and a
/// document saved through the API (a starter template's work, a business card, another client) may
/// leave optional fields out. What the document has is answered as it was written (the model reads
/// some fields leniently, so its own writing of them is not used); a document that does not parse
/// is answered as stored.
fn complete_document(task_info: String) -> String {
    let Ok(rule) = reelforge_timeline::Rule::parse(&task_info) else { return task_info };
    let (Ok(mut doc), Ok(full)) = (serde_json::from_str::<serde_json::Value>(&task_info), serde_json::to_value(&rule)) else {
        return task_info;
    };
    fill_missing(&mut doc, &full);
    doc.to_string()
}

/// Adds to `doc` the fields of `full` it lacks, object by object and, where both lists are as long,
/// item by item (scenes and layers keep their order when the model reads them).
fn fill_missing(doc: &mut serde_json::Value, full: &serde_json::Value) {
    use serde_json::Value;
    match (doc, full) {
        (Value::Object(d), Value::Object(f)) => {
            for (k, v) in f {
                match d.get_mut(k) {
                    Some(mine) => fill_missing(mine, v),
                    None => {
                        d.insert(k.clone(), v.clone());
                    }
                }
            }
        }
        (Value::Array(d), Value::Array(f)) if d.len() == f.len() => d.iter_mut().zip(f).for_each(|(d, f)| fill_missing(d, f)),
        _ => {}
    }
}

/// Query of mine: 1-based page, default 1 of 10; `taskState` and `sizeCategoryId` comma-joined
/// codes (absent or empty: all); `orderType` 1 last changed first (default), 2 oldest first;
/// `name` part of the task name; `usedFor` one use (present and empty: plain works).
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct MineQuery {
    page_num: Option<String>,
    page_size: Option<String>,
    task_state: Option<String>,
    size_category_id: Option<String>,
    order_type: Option<String>,
    name: Option<String>,
    /// Absent: every use; present (even empty, a plain work): that use only.
    used_for: Option<String>,
}

/// Reads a comma-joined list of numbers (`name` for the error); absent or blank: empty.
fn number_list<T: std::str::FromStr>(name: &str, value: Option<&str>) -> Result<Vec<T>, ApiError> {
    value
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| p.parse::<T>().map_err(|_| ApiError::BadRequest(format!("{name}: `{p}` is not a number"))))
        .collect()
}

/// One page of the caller's tasks.
#[derive(Serialize, utoipa::ToSchema)]
pub struct TaskPage {
    total: u64,
    list: Vec<TaskDto>,
}

fn page_number(name: &str, value: Option<&str>, default: u32) -> Result<u32, ApiError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(default),
        Some(v) => match v.parse::<u32>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(ApiError::BadRequest(format!("{name}: `{v}` is not a positive number"))),
        },
    }
}

/// The caller's tasks, newest first.
#[utoipa::path(get, path = "/diyvrbt/videotask/mine", params(MineQuery), responses((status = 200, body = TaskPage)))]
pub async fn mine(req: HttpRequest, q: web::Query<MineQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let page = reelforge_proto::common::Page {
        page_num: page_number("pageNum", q.page_num.as_deref(), 1)?,
        page_size: page_number("pageSize", q.page_size.as_deref(), 10)?.min(100),
    };
    let order_type = match q.order_type.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        None => 1,
        Some(v) => v.parse::<i32>().map_err(|_| ApiError::BadRequest(format!("orderType: `{v}` is not a number")))?,
    };
    let list = pb::ListTasksRequest {
        page: Some(page),
        states: number_list("taskState", q.task_state.as_deref())?,
        size_category_ids: number_list("sizeCategoryId", q.size_category_id.as_deref())?,
        order_type,
        name: q.name.clone().unwrap_or_default(),
        used_for: q.used_for.clone(),
    };
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().mine(caller.request(list)?).await?.into_inner();
    Ok(envelope::ok(TaskPage { total: r.total, list: r.items.into_iter().map(task_dto).collect() }))
}

/// The caller's tasks of the comma-joined ids, in that order; any id not the caller's fails.
#[utoipa::path(get, path = "/diyvrbt/videotask/ofids/{ids}", responses((status = 200, body = Vec<TaskDto>)))]
pub async fn of_ids(req: HttpRequest, ids: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let task_ids = task_ids(&serde_json::Value::String(ids.into_inner()))?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().of_ids(caller.request(pb::TaskIdsRequest { task_ids })?).await?.into_inner();
    Ok(envelope::ok(r.items.into_iter().map(task_dto).collect::<Vec<_>>()))
}

/// Body of updateOneTask: `{id, name}` renames; a full task (with `taskInfo` or
/// `videoCreateInfo`) is saved like save, its absent fields kept from the stored task.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UpdateBody {
    #[serde(alias = "taskId", deserialize_with = "num_or_default")]
    id: i64,
    #[serde(default, alias = "taskName")]
    name: Option<String>,
    #[serde(default, alias = "videoCreateInfo")]
    task_info: Option<String>,
    #[serde(default, deserialize_with = "opt_num")]
    size_category_id: Option<i64>,
    #[serde(default)]
    used_for: Option<String>,
    #[serde(default, deserialize_with = "num_or_zero")]
    version: i64,
}

fn opt_num<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Option<i64>, D::Error> {
    let v = serde_json::Value::deserialize(d)?;
    Ok(match v {
        serde_json::Value::Number(n) => n.as_i64(),
        serde_json::Value::String(s) => s.trim().parse().ok(),
        _ => None,
    })
}

/// Renames one of the caller's tasks, or updates it whole; answers the task.
#[utoipa::path(post, path = "/diyvrbt/videotask/updateOneTask", request_body = UpdateBody, responses((status = 200, body = TaskDto)))]
pub async fn update_one(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: UpdateBody = body::parse(&req, &bytes)?;
    if b.id <= 0 {
        return Err(ApiError::BadRequest(format!("id: `{}` is not a task id", b.id)));
    }
    let caller = caller::caller(&req, &state).await?;
    let mut tasks = state.clients.task.clone();
    let Some(task_info) = b.task_info else {
        let name = b.name.ok_or_else(|| ApiError::BadRequest("name: required to rename".into()))?;
        let t = tasks.rename(caller.request(pb::RenameTaskRequest { task_id: b.id, task_name: name })?).await?.into_inner();
        return Ok(envelope::ok_with(task_dto(t), "修改成功"));
    };
    let stored = tasks.get(caller.request(pb::GetTaskRequest { task_id: b.id })?).await?.into_inner();
    let size = b.size_category_id.map_or(Ok(stored.size_category_id), |s| {
        i32::try_from(s).map_err(|_| ApiError::BadRequest("sizeCategoryId: out of range".into()))
    })?;
    let saved = tasks
        .save(caller.request(pb::SaveTaskRequest {
            task_id: b.id,
            task_name: b.name.unwrap_or(stored.task_name),
            task_info,
            size_category_id: size,
            used_for: b.used_for.unwrap_or(stored.used_for),
            version: b.version,
        })?)
        .await?
        .into_inner();
    let t = tasks.get(caller.request(pb::GetTaskRequest { task_id: saved.task_id })?).await?.into_inner();
    Ok(envelope::ok_with(task_dto(t), &saved_desc(&saved.warnings)))
}

/// Stores a task given whole (`id` -1 or absent: a new one), as save does; `data` is its id.
#[utoipa::path(post, path = "/diyvrbt/videotask/store", request_body = SaveBody, responses((status = 200, body = i64)))]
pub async fn store(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let mut v: serde_json::Value = body::parse(&req, &bytes)?;
    // A stored task names itself `id`, as the task summary does.
    if let Some(map) = v.as_object_mut()
        && !map.contains_key("taskId")
        && let Some(id) = map.remove("id")
    {
        map.insert("taskId".into(), id);
    }
    let b: SaveBody = serde_json::from_value(v).map_err(|e| ApiError::BadRequest(e.to_string()))?;
    let r = save_body(&req, &state, b).await?;
    Ok(envelope::ok_with(r.task_id, &saved_desc(&r.warnings)))
}

/// Deletes one of the caller's tasks with its render and cover.
#[utoipa::path(post, path = "/diyvrbt/videotask/delete", request_body = RunBody, responses((status = 200, body = Vec<i64>)))]
pub async fn delete(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: RunBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().delete(caller.request(pb::TaskIdsRequest { task_ids: vec![b.task_id] })?).await?.into_inner();
    Ok(envelope::ok_with(r.deleted, "删除成功"))
}

/// Deletes the caller's tasks (`taskIds` "1,2" or [1, 2]), all or none, with their renders and covers.
#[utoipa::path(post, path = "/diyvrbt/videotask/batchDelete", request_body = CancelBody, responses((status = 200, body = Vec<i64>)))]
pub async fn batch_delete(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: CancelBody = body::parse(&req, &bytes)?;
    let task_ids = task_ids(&b.task_ids)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().delete(caller.request(pb::TaskIdsRequest { task_ids })?).await?.into_inner();
    Ok(envelope::ok_with(r.deleted, "删除成功"))
}

/// Copies one of the caller's tasks as a new task named "{name} 副本"; `data` is the new id.
#[utoipa::path(post, path = "/diyvrbt/videotask/duplicate", request_body = RunBody, responses((status = 200, body = i64)))]
pub async fn duplicate(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: RunBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().duplicate(caller.request(pb::GetTaskRequest { task_id: b.task_id })?).await?.into_inner();
    Ok(envelope::ok_with(r.task_id, "复制成功"))
}

/// Resets one of the caller's tasks to one blank scene named 未命名, status new; answers the task.
#[utoipa::path(post, path = "/diyvrbt/videotask/clear", request_body = RunBody, responses((status = 200, body = TaskDto)))]
pub async fn clear(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: RunBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let t = state.clients.task.clone().clear(caller.request(pb::GetTaskRequest { task_id: b.task_id })?).await?.into_inner();
    Ok(envelope::ok(task_dto(t)))
}

/// Body of run.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunBody {
    #[serde(deserialize_with = "num_or_default")]
    task_id: i64,
}

/// Answer of run.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunAnswer {
    job_id: String,
    status: i32,
}

/// Queues a render of the task.
#[utoipa::path(post, path = "/diyvrbt/videotask/runtask", request_body = RunBody, responses((status = 200, body = RunAnswer)))]
pub async fn run(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: RunBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().run(caller.request(pb::RunTaskRequest { task_id: b.task_id })?).await?.into_inner();
    Ok(envelope::ok_with(RunAnswer { job_id: r.job_id, status: r.status }, "任务已在后台运行，预计3-5分钟完成"))
}

/// Query of state.
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct StateQuery {
    task_id: String,
}

/// A task's state as the browser reads it (status: -1 new, 0 wait, 1 executing, 9 error,
/// 10 success, 11 cancelled; stage: queued, fetching, rendering, encoding, uploading, done, error,
/// cancelled).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StateDto {
    task_id: i64,
    status: i32,
    percent: u32,
    stage: String,
    frames_done: u64,
    frames_total: u64,
    /// Seconds left, null when unknown.
    eta_seconds: Option<i64>,
    video_relative_path: String,
    reason: String,
}

impl From<pb::TaskState> for StateDto {
    fn from(s: pb::TaskState) -> Self {
        Self {
            task_id: s.task_id,
            status: s.status,
            percent: s.percent,
            stage: s.stage,
            frames_done: s.frames_done,
            frames_total: s.frames_total,
            eta_seconds: (s.eta_seconds >= 0).then_some(s.eta_seconds),
            video_relative_path: s.video_relative_path,
            reason: s.reason,
        }
    }
}

fn task_id_param(name: &str, value: &str) -> Result<i64, ApiError> {
    value.trim().parse::<i64>().map_err(|_| ApiError::BadRequest(format!("{name}: `{value}` is not a task id")))
}

/// The state of one of the caller's tasks.
#[utoipa::path(get, path = "/diyvrbt/videotask/state", params(StateQuery), responses((status = 200, body = StateDto)))]
pub async fn state(req: HttpRequest, q: web::Query<StateQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let task_id = task_id_param("taskId", &q.task_id)?;
    let caller = caller::caller(&req, &state).await?;
    let s = state.clients.task.clone().state(caller.request(pb::GetTaskRequest { task_id })?).await?.into_inner();
    Ok(envelope::ok(StateDto::from(s)))
}

/// Time between `: keep-alive` comments of an event stream, so proxies keep it open.
const KEEP_ALIVE: std::time::Duration = std::time::Duration::from_secs(15);

fn sse_frame(e: pb::TaskEvent) -> String {
    let data = e.state.map(StateDto::from).and_then(|s| serde_json::to_string(&s).ok()).unwrap_or_else(|| "null".into());
    format!("id: {}\nevent: {}\ndata: {}\n\n", e.seq, e.kind, data)
}

/// The task's state now, then every change until the render ends, as server-sent events
/// (`id:` the event's sequence number, `event:` progress, done, error or cancelled, `data:` the
/// state JSON); resumes after the `Last-Event-ID` header; a `: keep-alive` comment every 15 s.
#[utoipa::path(get, path = "/diyvrbt/videotask/events", params(StateQuery), responses((status = 200, content_type = "text/event-stream", body = String)))]
pub async fn events(req: HttpRequest, q: web::Query<StateQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let task_id = task_id_param("taskId", &q.task_id)?;
    let after_seq = req
        .headers()
        .get("last-event-id")
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.trim().parse::<i64>().ok())
        .unwrap_or(0);
    let caller = caller::caller(&req, &state).await?;
    let mut stream =
        state.clients.task.clone().watch(caller.request(pb::WatchRequest { task_id, after_seq })?).await?.into_inner();
    let (tx, rx) = tokio::sync::mpsc::channel::<web::Bytes>(16);
    tokio::spawn(async move {
        let mut keep_alive = tokio::time::interval(KEEP_ALIVE);
        keep_alive.tick().await;
        loop {
            let frame = tokio::select! {
                _ = keep_alive.tick() => ": keep-alive\n\n".to_owned(),
                got = stream.message() => match got {
                    Ok(Some(e)) => sse_frame(e),
                    Ok(None) => return,
                    Err(s) => {
                        tracing::warn!(status = ?s.code(), message = %s.message(), "task event stream failed");
                        return;
                    }
                },
            };
            if tx.send(web::Bytes::from(frame)).await.is_err() {
                return;
            }
        }
    });
    let body = futures::stream::unfold(rx, |mut rx| async move {
        rx.recv().await.map(|b| (Ok::<_, std::convert::Infallible>(b), rx))
    });
    Ok(HttpResponse::Ok()
        .content_type("text/event-stream")
        .insert_header(("Cache-Control", "no-cache"))
        .insert_header(("X-Accel-Buffering", "no"))
        .streaming(body))
}

/// Query of download and cover: the task, and a media ticket when the request has no auth headers.
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct MediaQuery {
    task_id: String,
    ticket: Option<String>,
}

fn media(state: &AppState) -> Result<&crate::media::Media, ApiError> {
    state.media.as_ref().ok_or(ApiError::NotAvailable("downloading renders from this gateway"))
}

/// A finished task the caller owns, by auth headers or by a ticket for this task.
async fn finished_task(req: &HttpRequest, q: &MediaQuery, state: &AppState) -> Result<pb::Task, ApiError> {
    let task_id = task_id_param("taskId", &q.task_id)?;
    let caller = match q.ticket.as_deref().filter(|t| !t.is_empty()) {
        Some(ticket) => {
            let user = media(state)?.ticket_user(ticket, &caller::tenant(req)?, task_id)?;
            caller::acting_for(req, state, &user)?
        }
        None => caller::caller(req, state).await?,
    };
    let t = state.clients.task.clone().get(caller.request(pb::GetTaskRequest { task_id })?).await?.into_inner();
    if t.status != SUCCESS || t.video_relative_path.is_empty() {
        return Err(ApiError::BadRequest(format!("task {task_id} has no finished video")));
    }
    Ok(t)
}

/// The task's MP4 as an attachment named after the task; HTTP ranges answer 206.
#[utoipa::path(get, path = "/diyvrbt/videotask/download", params(MediaQuery), responses((status = 200, content_type = "video/mp4", body = Vec<u8>), (status = 206, description = "the requested byte range")))]
pub async fn download(req: HttpRequest, q: web::Query<MediaQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let t = finished_task(&req, &q, &state).await?;
    let disposition = crate::media::attachment(&t.task_name, "mp4");
    media(&state)?.serve(&req, &t.video_relative_path, "video/mp4", Some(disposition)).await
}

/// The task's cover picture.
#[utoipa::path(get, path = "/diyvrbt/videotask/cover", params(MediaQuery), responses((status = 200, content_type = "image/jpeg", body = Vec<u8>)))]
pub async fn cover(req: HttpRequest, q: web::Query<MediaQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let t = finished_task(&req, &q, &state).await?;
    if t.brief_picture.is_empty() {
        return Err(ApiError::BadRequest(format!("task {} has no cover", t.id)));
    }
    media(&state)?.serve(&req, &t.brief_picture, "image/jpeg", None).await
}

/// Answer of mediaTicket.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TicketAnswer {
    ticket: String,
    expires_in_seconds: u64,
}

/// A short-lived ticket for the download and cover of one of the caller's tasks (`&ticket=`).
#[utoipa::path(post, path = "/diyvrbt/videotask/mediaTicket", request_body = RunBody, responses((status = 200, body = TicketAnswer)))]
pub async fn media_ticket(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: RunBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    state.clients.task.clone().get(caller.request(pb::GetTaskRequest { task_id: b.task_id })?).await?;
    let ticket = media(&state)?.ticket(&caller.tenant, &caller.user()?.user_id, b.task_id)?;
    Ok(envelope::ok(TicketAnswer { ticket, expires_in_seconds: crate::media::TICKET_SECONDS }))
}

/// Body of cancel: `taskIds` as "1,2" or [1, 2].
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CancelBody {
    #[schema(value_type = Object)]
    task_ids: serde_json::Value,
}

/// Answer of cancel: the tasks whose render was queued or running.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CancelAnswer {
    cancelled: Vec<i64>,
}

fn task_ids(v: &serde_json::Value) -> Result<Vec<i64>, ApiError> {
    let bad = |what: &str| ApiError::BadRequest(format!("taskIds: `{what}` is not a task id"));
    let ids = match v {
        serde_json::Value::String(s) => s
            .split(',')
            .map(str::trim)
            .filter(|p| !p.is_empty())
            .map(|p| p.parse::<i64>().map_err(|_| bad(p)))
            .collect::<Result<Vec<_>, _>>()?,
        serde_json::Value::Array(items) => items
            .iter()
            .map(|i| match i {
                serde_json::Value::Number(n) => n.as_i64().ok_or_else(|| bad(&n.to_string())),
                serde_json::Value::String(s) => s.trim().parse::<i64>().map_err(|_| bad(s)),
                other => Err(bad(&other.to_string())),
            })
            .collect::<Result<Vec<_>, _>>()?,
        serde_json::Value::Number(n) => vec![n.as_i64().ok_or_else(|| bad(&n.to_string()))?],
        other => return Err(bad(&other.to_string())),
    };
    if ids.is_empty() {
        return Err(ApiError::BadRequest("taskIds: no task id given".into()));
    }
    Ok(ids)
}

/// Cancels the caller's queued or running renders.
#[utoipa::path(post, path = "/diyvrbt/v2/videotask/cancelTask", request_body = CancelBody, responses((status = 200, body = CancelAnswer)))]
pub async fn cancel(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: CancelBody = body::parse(&req, &bytes)?;
    let task_ids = task_ids(&b.task_ids)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().cancel(caller.request(pb::CancelTasksRequest { task_ids })?).await?.into_inner();
    Ok(envelope::ok(CancelAnswer { cancelled: r.cancelled }))
}

#[cfg(test)]
mod tests {
    use super::task_ids;

    #[test]
    fn task_ids_read_both_shapes() -> Result<(), crate::ApiError> {
        assert_eq!(task_ids(&serde_json::json!("1, 2"))?, vec![1, 2]);
        assert_eq!(task_ids(&serde_json::json!([3, "4"]))?, vec![3, 4]);
        assert!(task_ids(&serde_json::json!("1,x")).is_err());
        assert!(task_ids(&serde_json::json!([])).is_err());
        Ok(())
    }
}
