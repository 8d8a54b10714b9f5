//! Speech recognition (`POST /ASR/voiceToText`, docs/ai.md "Speech recognition"): one of the
//! caller's sound or video materials queued on the render farm as a `VOICE_TO_TEXT` run; its
//! progress is `/videotask/events?taskId=`, its transcript with word timings `/toolbox/file/{id}/0`.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_ai::asr::{Language, Recognition};
use reelforge_proto::ai as pb;
use reelforge_proto::material as mpb;
use serde::Deserialize;

use crate::routes::toolbox::{RunAnswer, refusal};
use crate::{ApiError, AppState, body, caller, envelope};

/// Body of a recognition.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
// Only the OpenAPI document reads this type: the route reads the fields one by one, by name.
#[allow(dead_code)]
pub struct VoiceToTextBody {
    /// One of the caller's sound or video materials.
    material_id: String,
    /// The speech's language: `en` (absent: `en`) or `cmn` (no local model: refused as not configured).
    language: Option<String>,
}

fn refused(field: &str, words: &str) -> Result<HttpResponse, ApiError> {
    Ok(envelope::refused(StatusCode::OK, serde_json::json!({ "field": field }), &format!("{field}: {words}")))
}

/// Queues a recognition of the caller's sound or video material. Refused (3000) before anything
/// is queued: the ability with no working provider for the tenant, or a language its provider
/// cannot hear (`data.reason`: the code, `not-configured`…), a bad field (`data.field`:
/// `materialId` — absent, not one of the caller's materials, not a sound or a video —,
/// `language` — not supported —, or an unknown key).
#[utoipa::path(post, path = "/diyvrbt/ASR/voiceToText", request_body = VoiceToTextBody, responses((status = 200, body = RunAnswer)))]
pub async fn voice_to_text(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let mut fields = body::fields(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    caller.user()?;
    let material = match fields.remove("materialId") {
        None | Some(serde_json::Value::Null) => return refused("materialId", "choose a sound or a video to recognise"),
        Some(serde_json::Value::String(s)) if !s.trim().is_empty() => s.trim().to_owned(),
        Some(serde_json::Value::Number(n)) => n.to_string(),
        Some(v) => return refused("materialId", &format!("{v} is not a material id")),
    };
    // The rest (the language, any unknown key) is read by the ai crate, which names the field.
    let params = serde_json::Value::Object(fields);
    let ask = match Recognition::parse(&params, std::slice::from_ref(&material)) {
        Ok(a) => a,
        Err(e) => return refused(&e.field, &e.message),
    };
    let ability = pb::GetAbilityRequest { key: reelforge_ai::asr::ABILITY.to_owned() };
    let ability = state.clients.ai.clone().get_ability(caller.request(ability)?).await?.into_inner();
    let gap = match (ability.available, ability.provider.as_str(), ask.language) {
        (false, _, _) => Some((ability.reason_code, ability.reason)),
        (true, "local", Language::Mandarin) => Language::Mandarin.local_gap().map(|u| (u.code.to_owned(), u.words)),
        _ => None,
    };
    if let Some((code, words)) = gap {
        return Ok(envelope::refused(StatusCode::OK, serde_json::json!({ "reason": code, "field": "language" }), &format!("{code}: {words}")));
    }
    // Only the caller's own (or system) materials are listed; a picture has no sound.
    let ask_material = mpb::GetManyRequest { ids: vec![material.clone()] };
    let found = match state.clients.material.clone().get_many(caller.request(ask_material)?).await {
        Ok(r) => r.into_inner().items.into_iter().find(|m| m.material_id == material),
        Err(s) if matches!(s.code(), tonic::Code::NotFound | tonic::Code::InvalidArgument) => None,
        Err(s) => return Err(s.into()),
    };
    match found {
        None => return refused("materialId", &format!("material {material} was not found among your materials")),
        Some(m) if m.r#type != "video" && m.r#type != "audio" => {
            return refused("materialId", &format!("the material is a {}: choose a sound or a video", m.r#type));
        }
        Some(_) => {}
    }
    let run = reelforge_proto::task::RunToolRequest {
        tool_type: reelforge_ai::asr::VOICE_TO_TEXT.to_owned(),
        params: ask.to_json().to_string(),
        material_ids: vec![material],
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
