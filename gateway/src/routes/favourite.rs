//! Favourites: `/favorite/add`, `/favorite/remove`, `/favorite/list`.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::favourite as pb;
use serde::{Deserialize, Serialize};

use crate::{ApiError, AppState, body, caller, envelope};

/// Body of add and remove. The legacy client also sends `phoneNumber`; it is ignored, since the
/// favourites are always the signed-in caller's own.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct FavouriteBody {
    id: String,
    r#type: String,
}

/// Adds a favourite of the caller.
#[utoipa::path(post, path = "/diyvrbt/favorite/add", request_body = FavouriteBody, responses((status = 200)))]
pub async fn add(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: FavouriteBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    state.clients.favourite.clone().add(caller.request(pb::FavouriteRequest { id: b.id, r#type: b.r#type })?).await?;
    Ok(envelope::ok_with(serde_json::Value::Null, "收藏成功"))
}

/// Removes a favourite of the caller.
#[utoipa::path(post, path = "/diyvrbt/favorite/remove", request_body = FavouriteBody, responses((status = 200)))]
pub async fn remove(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: FavouriteBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    state.clients.favourite.clone().remove(caller.request(pb::FavouriteRequest { id: b.id, r#type: b.r#type })?).await?;
    Ok(envelope::ok_with(serde_json::Value::Null, "取消收藏"))
}

/// Body of list.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct ListBody {
    #[serde(default)]
    r#type: String,
}

/// A favourite as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FavouriteDto {
    id: String,
    r#type: String,
    phone_number: String,
    /// When it was favourited, in Unix milliseconds.
    created_ms: i64,
}

/// Lists the caller's favourites.
#[utoipa::path(post, path = "/diyvrbt/favorite/list", request_body = ListBody, responses((status = 200, body = [FavouriteDto])))]
pub async fn list(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: ListBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let items = state.clients.favourite.clone().list(caller.request(pb::ListFavouritesRequest { r#type: b.r#type })?).await?;
    let out: Vec<FavouriteDto> = items
        .into_inner()
        .items
        .into_iter()
        .map(|f| FavouriteDto { id: f.id, r#type: f.r#type, phone_number: f.phone_number, created_ms: f.created_ms })
        .collect();
    Ok(envelope::ok(out))
}
