//! The editor's autosave (spec editor-core §7): the latest editor state per user and task, kept by
//! the task service in the cache. The editor reads these answers without its envelope code handling
//! ("bypass code handling"); they are still envelopes `{code, data, desc}`, so `data` is always the
//! value and a failure (over 2 MB, a task not the caller's) is a 3000 with its reason.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::task as pb;
use serde::Deserialize;

use crate::{ApiError, AppState, body, caller, envelope};

/// Reads a task id as the editor sends it; absent, blank or -1: the caller's unsaved new task.
fn task_id_of<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    let v = serde_json::Value::deserialize(d)?;
    let bad = |what: &str| serde::de::Error::custom(format!("taskId: `{what}` is not a task id"));
    match v {
        serde_json::Value::Null => Ok(-1),
        serde_json::Value::Number(n) => n.as_i64().ok_or_else(|| bad(&n.to_string())),
        serde_json::Value::String(s) if s.trim().is_empty() => Ok(-1),
        serde_json::Value::String(s) => s.trim().parse().map_err(|_| bad(&s)),
        other => Err(bad(&other.to_string())),
    }
}

/// Body of store: the task and the editor state as a JSON string.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct StoreBody {
    #[serde(default = "unsaved", deserialize_with = "task_id_of")]
    task_id: i64,
    history: String,
}

fn unsaved() -> i64 {
    -1
}

/// Query of getStoreTime and getOne.
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct HistoryQuery {
    task_id: Option<String>,
}

fn query_task_id(q: &HistoryQuery) -> Result<i64, ApiError> {
    match q.task_id.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(-1),
        Some(v) => v.parse::<i64>().map_err(|_| ApiError::BadRequest(format!("taskId: `{v}` is not a task id"))),
    }
}

/// Keeps the editor state (at most 2 MB) as the caller's latest for the task; `data` is when, in
/// milliseconds since the epoch.
#[utoipa::path(post, path = "/diyvrbt/redis/history/store", request_body = StoreBody, responses((status = 200, body = i64)))]
pub async fn store(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: StoreBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state
        .clients
        .task
        .clone()
        .store_history(caller.request(pb::StoreHistoryRequest { task_id: b.task_id, history: b.history })?)
        .await?
        .into_inner();
    Ok(envelope::ok(r.stored_ms))
}

async fn kept(req: &HttpRequest, q: &HistoryQuery, state: &AppState) -> Result<pb::HistoryReply, ApiError> {
    let task_id = query_task_id(q)?;
    let caller = caller::caller(req, state).await?;
    Ok(state.clients.task.clone().get_history(caller.request(pb::GetTaskRequest { task_id })?).await?.into_inner())
}

/// When the caller's editor state of the task was stored, in milliseconds since the epoch; 0 when none.
#[utoipa::path(get, path = "/diyvrbt/redis/history/getStoreTime", params(HistoryQuery), responses((status = 200, body = i64)))]
pub async fn store_time(req: HttpRequest, q: web::Query<HistoryQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    Ok(envelope::ok(kept(&req, &q, &state).await?.stored_ms))
}

/// The caller's editor state of the task as the JSON string stored; "" when none.
#[utoipa::path(get, path = "/diyvrbt/redis/history/getOne", params(HistoryQuery), responses((status = 200, body = String)))]
pub async fn get_one(req: HttpRequest, q: web::Query<HistoryQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    Ok(envelope::ok(kept(&req, &q, &state).await?.history))
}
