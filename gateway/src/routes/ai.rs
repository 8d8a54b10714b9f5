//! The AI ability catalogue, and the music climax cut (the editor's audio panel and ringtones).

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::ai as pb;
use serde::{Deserialize, Serialize};

use crate::{ApiError, AppState, body, caller, envelope};

/// An ability as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AbilityDto {
    key: String,
    group: String,
    name_zh: String,
    name_en: String,
    has_page: bool,
    available: bool,
}

/// Lists the AI abilities and whether this deployment offers them.
#[utoipa::path(get, path = "/diyvrbt/ai/abilities", responses((status = 200, body = [AbilityDto])))]
pub async fn abilities(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::anonymous(&req, &state)?;
    let list = state.clients.ai.clone().list_abilities(caller.request(pb::ListAbilitiesRequest {})?).await?;
    let out: Vec<AbilityDto> = list
        .into_inner()
        .items
        .into_iter()
        .map(|a| AbilityDto {
            key: a.key,
            group: a.group,
            name_zh: a.name_zh,
            name_en: a.name_en,
            has_page: a.has_page,
            available: a.available,
        })
        .collect();
    Ok(envelope::ok(out))
}

/// Body of the climax cut: a music material of the caller's (or a system one) and the length of
/// the section wanted, seconds (the ringtone's, the document's duration).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClimaxBody {
    #[serde(default)]
    material_id: String,
    #[serde(default)]
    seconds: f64,
}

/// Where the strongest section lies, milliseconds into the track.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ClimaxDto {
    start_ms: u64,
    end_ms: u64,
}

/// The music climax cut: where the strongest `seconds` of the music start (energy and onsets);
/// another caller's material does not exist, bad input is refused (3000) naming the field, with
/// its `data.reason`.
#[utoipa::path(post, path = "/diyvrbt/ai/climax", request_body = ClimaxBody, responses((status = 200, body = ClimaxDto)))]
pub async fn climax(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, crate::frame::ClimaxError> {
    let b: ClimaxBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let user = caller.user()?;
    let frames = state.frames.as_ref().ok_or(ApiError::NotAvailable("the music climax cut on this gateway"))?;
    let cut = frames.climax(&caller.tenant, &user.user_id, &b.material_id, b.seconds).await?;
    Ok(envelope::ok(ClimaxDto { start_ms: cut.start_ms, end_ms: cut.end_ms }))
}
