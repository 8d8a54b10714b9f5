//! The AI smart task of spec platform §7 "AI and toolbox" (`/aitask/smartClips`, `/aitask/get`,
//! `/aitask/getCategory`) and editor-core's AI state `smartTask`, built on the toolbox's job model
//! (docs/toolbox.md "Smart clips"): a smart task is an INTELLIGENT_TASK run asking for `clips`,
//! the liveliest scenes of the caller's video each cut as its own clip; once done, the clips become
//! the caller's materials (`aiCutedIds`). No second implementation: the run, its progress, cancel
//! and outputs are the toolbox's.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::category as cpb;
use reelforge_proto::material as mpb;
use reelforge_proto::task as pb;
use reelforge_tools::ToolType;
use serde::{Deserialize, Serialize};

use super::category::{CategoryDto, dto as category_dto};
use super::toolbox::{into_material, material_ids, queue_run, tool_run};
use crate::{ApiError, AppState, body, caller, envelope};

/// The categories smart tasks are filed under: the tenant's industries (the AI templates' first dimension).
const DIMENSION: &str = "industry";
/// The clips' total length unless asked otherwise, ms (the one-click templates' usual length).
const DEFAULT_TARGET_MS: u64 = 15_000;
/// A finished run's status.
const SUCCESS: i32 = 10;

/// The list answer: `data.dataList`.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct IndustryList {
    data_list: Vec<CategoryDto>,
}

/// The tenant's industry categories (two levels), which a smart task is filed under.
#[utoipa::path(get, path = "/diyvrbt/aitask/getCategory", responses((status = 200, body = IndustryList)))]
pub async fn categories(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let tree = industries(&state, &caller).await?;
    Ok(envelope::ok(IndustryList { data_list: tree.into_iter().map(category_dto).collect() }))
}

async fn industries(state: &AppState, caller: &caller::Caller) -> Result<Vec<cpb::Category>, ApiError> {
    let ask = cpb::ListCategoriesRequest { dimension: DIMENSION.to_owned() };
    Ok(state.clients.category.clone().list(caller.request(ask)?).await?.into_inner().data_list)
}

/// Body of smartClips.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SmartClipsBody {
    /// The video to clip (one: INTELLIGENT_TASK takes one input), as the library's id: a list, or
    /// ids joined by commas (a form-encoded body, as the spec's clients send them).
    #[serde(default)]
    #[schema(value_type = Object)]
    material_ids: serde_json::Value,
    /// One of the tenant's industry categories (`/aitask/getCategory`); 0 or absent for none.
    #[serde(default)]
    industry_id: i64,
    /// The clips' total length at most, ms (1000–3600000; default 15000).
    target_ms: Option<u64>,
    /// The shortest scene kept, ms (default 1500).
    min_keep_ms: Option<u64>,
    /// Scene detection's sensitivity, 1–99 (default 60).
    sensitivity: Option<u64>,
    /// Scene detection's shortest scene, ms (default 1000).
    min_scene_ms: Option<u64>,
}

/// Answer of smartClips.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SmartClipsAnswer {
    /// The smart task's id (its tool run's task id).
    id: i64,
    /// Its job on the farm.
    job_id: String,
}

fn refused(field: &str, why: &str) -> HttpResponse {
    envelope::refused(StatusCode::OK, serde_json::json!({ "field": field }), &format!("{field}: {why}"))
}

/// Queues a smart task of the caller: the liveliest scenes of their video, each its own clip.
#[utoipa::path(post, path = "/diyvrbt/aitask/smartClips", request_body = SmartClipsBody, responses((status = 200, body = SmartClipsAnswer)))]
pub async fn smart_clips(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: SmartClipsBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let listed = match &b.material_ids {
        serde_json::Value::String(joined) => joined.split(',').filter(|s| !s.trim().is_empty()).map(|s| serde_json::Value::String(s.trim().to_owned())).collect(),
        serde_json::Value::Array(list) => list.clone(),
        serde_json::Value::Null => Vec::new(),
        other => vec![other.clone()],
    };
    let Some(ids) = material_ids(&listed) else {
        return Ok(refused("materialIds", "not a list of material ids"));
    };
    if ids.len() != 1 {
        return Ok(refused("materialIds", &format!("a smart task clips one video, {} given", ids.len())));
    }
    if b.industry_id < 0 {
        return Ok(refused("industryId", "must be a category id, or 0 for none"));
    }
    if b.industry_id > 0 {
        let tree = industries(&state, &caller).await?;
        let known = tree.iter().any(|c| c.category_id == b.industry_id || c.children.iter().any(|k| k.category_id == b.industry_id));
        if !known {
            return Ok(refused("industryId", &format!("category {} does not exist among this tenant's industry categories", b.industry_id)));
        }
    }
    let mut params = serde_json::json!({ "targetMs": b.target_ms.unwrap_or(DEFAULT_TARGET_MS), "clips": true, "industryId": b.industry_id });
    for (key, value) in [("minKeepMs", b.min_keep_ms), ("sensitivity", b.sensitivity), ("minSceneMs", b.min_scene_ms)] {
        if let Some(v) = value {
            params[key] = serde_json::json!(v);
        }
    }
    match queue_run(&req, &state, &caller, ToolType::IntelligentTask, params, ids).await? {
        Ok(run) => Ok(envelope::ok(SmartClipsAnswer { id: run.task_id, job_id: run.job_id })),
        Err(refusal) => Ok(refusal),
    }
}

/// Body of get.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct GetBody {
    /// The smart task's id.
    #[schema(value_type = Object)]
    id: serde_json::Value,
}

/// A smart task as editor-core's AI state holds it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SmartTask {
    id: i64,
    industry_id: u64,
    /// `waiting`, `running`, `done`, `failed` or `cancelled`.
    state: String,
    /// As `/videotask/state`: 0 wait, 1 executing, 9 error, 10 success, 11 cancelled.
    status: i32,
    /// 0–100.
    progress: u32,
    /// Why it failed, when it did.
    reason: String,
    material_ids: Vec<String>,
    /// The clips as the caller's materials, in time order, once done.
    ai_cuted_ids: Vec<String>,
    /// The stretches of the video each clip is, ms, in the same order.
    #[schema(value_type = Vec<Object>)]
    ranges: Vec<serde_json::Value>,
    /// The first clip's address (signed for the caller), once done.
    src: String,
    /// The first clip's cover, once the library has made it.
    cover: String,
}

fn state_word(status: i32) -> &'static str {
    match status {
        9 => "failed",
        10 => "done",
        11 => "cancelled",
        1 => "running",
        _ => "waiting",
    }
}

/// One of the caller's smart tasks: its state and progress, and once done its clips as materials
/// (made on the first read after the end; the library knows them by their content afterwards, so
/// every read answers the same ids).
#[utoipa::path(post, path = "/diyvrbt/aitask/get", request_body = GetBody, responses((status = 200, body = SmartTask)))]
pub async fn get(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: GetBody = body::parse(&req, &bytes)?;
    let id = match &b.id {
        serde_json::Value::Number(n) => n.as_i64(),
        serde_json::Value::String(s) => s.trim().parse().ok(),
        _ => None,
    };
    let Some(task_id) = id.filter(|id| *id > 0) else {
        return Ok(refused("id", "not a smart task id"));
    };
    let caller = caller::caller(&req, &state).await?;
    let live = state.clients.task.clone().state(caller.request(pb::GetTaskRequest { task_id })?).await;
    let t = tool_run(&caller, &state, task_id).await?;
    let params: serde_json::Value = serde_json::from_str(&t.tool_params).unwrap_or_default();
    if t.tool_type != ToolType::IntelligentTask.name() || params["clips"] != serde_json::Value::Bool(true) {
        return Ok(refused("id", &format!("task {task_id} is not a smart task")));
    }
    let live = live?.into_inner();
    // A row that ended since the state was read is newer than it (as `/toolbox/run/{id}`).
    let (status, progress, reason) = if live.status == t.status || !matches!(t.status, 9..=11) {
        (live.status, live.percent, live.reason)
    } else {
        (t.status, if t.status == SUCCESS { 100 } else { 0 }, t.reason.clone())
    };
    let mut ai_cuted_ids = Vec::new();
    let (mut src, mut cover) = (String::new(), String::new());
    if t.status == SUCCESS {
        for o in &t.outputs {
            ai_cuted_ids.push(into_material(&state, &caller, o).await?);
        }
        if let Some(first) = ai_cuted_ids.first() {
            (src, cover) = addresses(&state, &caller, first).await?;
        }
    }
    Ok(envelope::ok(SmartTask {
        id: t.id,
        industry_id: params["industryId"].as_u64().unwrap_or(0),
        state: state_word(status).to_owned(),
        status,
        progress,
        reason,
        material_ids: t.material_ids.clone(),
        ai_cuted_ids,
        ranges: t.outputs.iter().flat_map(|o| o.ranges.iter().map(|r| serde_json::json!({"startMs": r.start_ms, "endMs": r.end_ms}))).collect(),
        src,
        cover,
    }))
}

/// The original's and the cover's addresses of the caller's material `id`, signed for them.
async fn addresses(state: &AppState, caller: &caller::Caller, id: &str) -> Result<(String, String), ApiError> {
    let media = state.media.as_ref().ok_or(ApiError::NotAvailable("materials from this gateway"))?;
    let list = state.clients.material.clone().get_many(caller.request(mpb::GetManyRequest { ids: vec![id.to_owned()] })?).await?.into_inner();
    let Some(m) = list.items.into_iter().next() else { return Ok((String::new(), String::new())) };
    let ticket = media.material_ticket(&caller.tenant, &caller.user()?.user_id, &m.material_id)?;
    let url = |key: &str, part: &str| {
        if key.is_empty() { String::new() } else { format!("{}/material/file/{}/{part}?ticket={ticket}", crate::BASE, m.material_id) }
    };
    Ok((url(&m.relative_path, "original"), url(&m.picture_path, "cover")))
}
