//! The AI ability catalogue.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::ai as pb;
use serde::Serialize;

use crate::{ApiError, AppState, caller, envelope};

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
