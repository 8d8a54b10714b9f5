//! Video tasks: save, fetch, run and state.

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
    #[serde(default)]
    name: String,
    task_info: String,
    #[serde(default = "landscape", deserialize_with = "num_or_default")]
    size_category_id: i64,
    #[serde(default)]
    used_for: String,
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
    let caller = caller::caller(&req, &state).await?;
    let size = i32::try_from(b.size_category_id).map_err(|_| ApiError::BadRequest("sizeCategoryId: out of range".into()))?;
    let r = state
        .clients
        .task
        .clone()
        .save(pb::SaveTaskRequest {
            caller: Some(caller),
            task_id: b.task_id,
            task_name: b.name,
            task_info: b.task_info,
            size_category_id: size,
            used_for: b.used_for,
        })
        .await?
        .into_inner();
    Ok(envelope::ok_with(r.task_id, "保存成功"))
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
}

/// One of the caller's tasks.
#[utoipa::path(get, path = "/diyvrbt/videotask/ofone/{id}", responses((status = 200, body = TaskDto)))]
pub async fn get(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let task_id = id.parse::<i64>().map_err(|_| ApiError::BadRequest(format!("id: `{id}` is not a task id")))?;
    let caller = caller::caller(&req, &state).await?;
    let t = state.clients.task.clone().get(pb::GetTaskRequest { caller: Some(caller), task_id }).await?.into_inner();
    Ok(envelope::ok(TaskDto {
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
    }))
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
    let r = state.clients.task.clone().run(pb::RunTaskRequest { caller: Some(caller), task_id: b.task_id }).await?.into_inner();
    Ok(envelope::ok_with(RunAnswer { job_id: r.job_id, status: r.status }, "任务已在后台运行，预计3-5分钟完成"))
}

/// Query of state.
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct StateQuery {
    task_id: String,
}

/// A task's state as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StateDto {
    task_id: i64,
    status: i32,
    percent: u32,
    video_relative_path: String,
    reason: String,
}

/// The state of one of the caller's tasks.
#[utoipa::path(get, path = "/diyvrbt/videotask/state", params(StateQuery), responses((status = 200, body = StateDto)))]
pub async fn state(req: HttpRequest, q: web::Query<StateQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let task_id = q.task_id.parse::<i64>().map_err(|_| ApiError::BadRequest(format!("taskId: `{}` is not a task id", q.task_id)))?;
    let caller = caller::caller(&req, &state).await?;
    let s = state.clients.task.clone().state(pb::GetTaskRequest { caller: Some(caller), task_id }).await?.into_inner();
    Ok(envelope::ok(StateDto {
        task_id: s.task_id,
        status: s.status,
        percent: s.percent,
        video_relative_path: s.video_relative_path,
        reason: s.reason,
    }))
}
