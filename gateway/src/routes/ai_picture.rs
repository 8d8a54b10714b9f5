//! Pictures from the image provider (docs/ai.md, "Pictures"): `POST /ai/textToImage` (a prompt)
//! and `POST /ai/similarImage` (one of the caller's pictures) queue a `TEXT_TO_IMAGE` or
//! `SIMILAR_IMAGE` run on the render farm; its progress is `/videotask/events?taskId=`, its pictures
//! `/toolbox/file/{id}/{index}`, and `/toolbox/use` makes one a material of the caller's.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_ai::picture::{ImageAsk, SIMILAR_IMAGE, TEXT_TO_IMAGE};
use reelforge_proto::ai as pb;
use reelforge_proto::material as mpb;
use serde::Deserialize;

use crate::routes::toolbox::{RunAnswer, refusal};
use crate::{ApiError, AppState, body, caller, envelope};

/// Body of a text to image.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
// Only the OpenAPI document reads these types: the routes read the fields one by one, by name.
#[allow(dead_code)]
pub struct TextToImageBody {
    /// What to draw, 1–1000 characters.
    prompt: String,
    /// `256x256`, `512x512` (absent) or `1024x1024`.
    size: Option<String>,
    /// How many pictures, 1 (absent) to 4.
    count: Option<u32>,
}

/// Body of a similar image.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct SimilarImageBody {
    /// One of the caller's picture materials.
    material_id: String,
    /// `256x256`, `512x512` (absent) or `1024x1024`.
    size: Option<String>,
    /// How many pictures, 1 (absent) to 4.
    count: Option<u32>,
}

fn refused(field: &str, words: &str) -> Result<HttpResponse, ApiError> {
    Ok(envelope::refused(StatusCode::OK, serde_json::json!({ "field": field }), &format!("{field}: {words}")))
}

/// Queues pictures drawn from a prompt. Refused (3000) before anything is queued: the ability with
/// no working provider for the tenant (`data.reason`: its code, `not-configured`…), a bad field
/// (`data.field`: `prompt` — empty or longer than 1000 characters —, `size`, `count`, or an
/// unknown key).
#[utoipa::path(post, path = "/diyvrbt/ai/textToImage", request_body = TextToImageBody, responses((status = 200, body = RunAnswer)))]
pub async fn text_to_image(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    queue(&req, &bytes, &state, TEXT_TO_IMAGE).await
}

/// Queues pictures like one of the caller's pictures. Refused (3000) before anything is queued: the
/// ability with no working provider for the tenant (`data.reason`), a bad field (`data.field`:
/// `materialId` — absent, not one of the caller's materials, not a picture —, `size`, `count`, or
/// an unknown key).
#[utoipa::path(post, path = "/diyvrbt/ai/similarImage", request_body = SimilarImageBody, responses((status = 200, body = RunAnswer)))]
pub async fn similar_image(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    queue(&req, &bytes, &state, SIMILAR_IMAGE).await
}

async fn queue(req: &HttpRequest, bytes: &web::Bytes, state: &AppState, tool_type: &str) -> Result<HttpResponse, ApiError> {
    let mut fields = body::fields(req, bytes)?;
    let caller = caller::caller(req, state).await?;
    caller.user()?;
    let material = if tool_type == SIMILAR_IMAGE {
        match fields.remove("materialId") {
            None | Some(serde_json::Value::Null) => return refused("materialId", "choose a picture to make similar pictures of"),
            Some(serde_json::Value::String(s)) if !s.trim().is_empty() => Some(s.trim().to_owned()),
            Some(serde_json::Value::Number(n)) => Some(n.to_string()),
            Some(v) => return refused("materialId", &format!("{v} is not a material id")),
        }
    } else {
        None
    };
    let material_ids: Vec<String> = material.iter().cloned().collect();
    // The rest (prompt, size, count, any unknown key) is read by the ai crate, which names the field.
    let ask = match ImageAsk::parse(tool_type, &serde_json::Value::Object(fields), &material_ids) {
        Ok(a) => a,
        Err(e) => return refused(&e.field, &e.message),
    };
    if let Some(material) = &material {
        // Looked up before the provider: someone else's material is "not found" whatever the
        // tenant's configuration. Only the caller's own (or system) materials are listed.
        let ask_material = mpb::GetManyRequest { ids: vec![material.clone()] };
        let found = match state.clients.material.clone().get_many(caller.request(ask_material)?).await {
            Ok(r) => r.into_inner().items.into_iter().find(|m| &m.material_id == material),
            Err(s) if matches!(s.code(), tonic::Code::NotFound | tonic::Code::InvalidArgument) => None,
            Err(s) => return Err(s.into()),
        };
        match found {
            None => return refused("materialId", &format!("material {material} was not found among your materials")),
            Some(m) if m.r#type != "picture" => return refused("materialId", &format!("the material is a {}: choose a picture", m.r#type)),
            Some(_) => {}
        }
    }
    let ability = pb::GetAbilityRequest { key: ask.ability().to_owned() };
    let ability = state.clients.ai.clone().get_ability(caller.request(ability)?).await?.into_inner();
    if !ability.available {
        let why = format!("{}: {}", ability.reason_code, ability.reason);
        return Ok(envelope::refused(StatusCode::OK, serde_json::json!({ "reason": ability.reason_code }), &why));
    }
    let run = reelforge_proto::task::RunToolRequest {
        tool_type: ask.tool_type.to_owned(),
        params: ask.to_json().to_string(),
        material_ids,
        source_task_id: 0,
    };
    match state.clients.task.clone().run_tool(caller.request(run)?).await {
        Ok(r) => {
            let r = r.into_inner();
            Ok(envelope::ok(RunAnswer { task_id: r.task_id, job_id: r.job_id }))
        }
        Err(s) => refusal(s.into()),
    }
}
