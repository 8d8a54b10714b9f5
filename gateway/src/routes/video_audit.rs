//! Video auditing (`POST /ai/audit`, docs/ai.md "Video auditing"): one of the caller's video
//! materials or works queued on the render farm as a `VIDEO_AUDIT` run; its progress is
//! `/videotask/events?taskId=`, its report `/toolbox/file/{id}/0` and the flagged frames' pictures
//! the outputs the report names.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::ai as pb;
use reelforge_proto::material as mpb;
use serde::Deserialize;

use crate::routes::toolbox::{RunAnswer, refusal};
use crate::{ApiError, AppState, body, caller, envelope};

/// Body of an audit: one of the two.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
// Only the OpenAPI document reads this type: the route reads the fields one by one, by name.
#[allow(dead_code)]
pub struct AuditBody {
    /// One of the caller's video materials: its frames are read by OCR.
    material_id: Option<String>,
    /// One of the caller's works: its text layers, and its finished video's frames when it has one.
    task_id: Option<i64>,
}

fn refused(field: &str, words: &str) -> Result<HttpResponse, ApiError> {
    Ok(envelope::refused(StatusCode::OK, serde_json::json!({ "field": field }), &format!("{field}: {words}")))
}

/// Queues an audit of the caller's video material or work. Refused (3000) before anything is
/// queued: the ability with no working provider for the tenant (`data.reason`: its code), a bad
/// field (`data.field`: `materialId` — not one of the caller's materials, not a video — `taskId`
/// — not one of the caller's works — or an unknown key).
#[utoipa::path(post, path = "/diyvrbt/ai/audit", request_body = AuditBody, responses((status = 200, body = RunAnswer)))]
pub async fn audit(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let fields = body::fields(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    caller.user()?;
    if let Some(k) = fields.keys().find(|k| !["materialId", "taskId"].contains(&k.as_str())) {
        return refused(k, "unknown parameter; give materialId or taskId");
    }
    let material = match fields.get("materialId") {
        None | Some(serde_json::Value::Null) => None,
        Some(serde_json::Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_owned()),
        Some(serde_json::Value::Number(n)) => Some(n.to_string()),
        Some(v) => return refused("materialId", &format!("{v} is not a material id")),
    };
    let task_id = match fields.get("taskId") {
        None | Some(serde_json::Value::Null) => 0,
        Some(v) => match v.as_i64().or_else(|| v.as_str().and_then(|s| s.trim().parse().ok())) {
            Some(id) if id > 0 => id,
            _ => return refused("taskId", &format!("{v} is not a work's id")),
        },
    };
    if let Some(id) = &material {
        // Only the caller's own (or system) materials are listed; a picture or a sound has no frames.
        let ask = mpb::GetManyRequest { ids: vec![id.clone()] };
        let found = match state.clients.material.clone().get_many(caller.request(ask)?).await {
            Ok(r) => r.into_inner().items.into_iter().find(|m| m.material_id == *id),
            Err(s) if matches!(s.code(), tonic::Code::NotFound | tonic::Code::InvalidArgument) => None,
            Err(s) => return Err(s.into()),
        };
        match found {
            None => return refused("materialId", &format!("material {id} does not exist among your materials")),
            Some(m) if m.r#type != "video" => return refused("materialId", &format!("the material is a {}: choose a video", m.r#type)),
            Some(_) => {}
        }
    }
    if task_id != 0 {
        // Only the caller's own editor works are found; another's is the same refusal as none.
        let ask = reelforge_proto::task::GetTaskRequest { task_id };
        match state.clients.task.clone().get(caller.request(ask)?).await {
            Ok(t) if t.get_ref().tool_type.is_empty() => {}
            Ok(_) => return refused("taskId", &format!("work {task_id} does not exist among your works")),
            Err(s) if matches!(s.code(), tonic::Code::NotFound | tonic::Code::InvalidArgument) => {
                return refused("taskId", &format!("work {task_id} does not exist among your works"));
            }
            Err(s) => return Err(s.into()),
        }
    }
    // What is named is looked up first: a stranger's id is not found whether or not the ability is offered.
    let ask = pb::GetAbilityRequest { key: reelforge_ai::audit::ABILITY.to_owned() };
    let ability = state.clients.ai.clone().get_ability(caller.request(ask)?).await?.into_inner();
    if !ability.available {
        let why = format!("{}: {}", ability.reason_code, ability.reason);
        return Ok(envelope::refused(StatusCode::OK, serde_json::json!({ "reason": ability.reason_code }), &why));
    }
    let ask = reelforge_proto::task::RunToolRequest {
        tool_type: reelforge_ai::audit::VIDEO_AUDIT.to_owned(),
        params: "{}".to_owned(),
        material_ids: material.into_iter().collect(),
        source_task_id: task_id,
    };
    match state.clients.task.clone().run_tool(caller.request(ask)?).await {
        Ok(r) => {
            let r = r.into_inner();
            Ok(envelope::ok(RunAnswer { task_id: r.task_id, job_id: r.job_id }))
        }
        Err(s) => refusal(s.into()),
    }
}
