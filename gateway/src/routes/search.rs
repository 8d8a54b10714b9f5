//! The caller's search history: `POST /search/history/add`, `GET /search/history`,
//! `POST /search/history/clear`. At most 10 keywords, newest first, each once.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::common::Empty;
use reelforge_proto::favourite as pb;
use serde::{Deserialize, Serialize};

use crate::{ApiError, AppState, body, caller, envelope};

/// Body of add.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct AddBody {
    keyword: String,
}

/// The history: `data.keywords`, newest first.
#[derive(Serialize, utoipa::ToSchema)]
pub struct History {
    keywords: Vec<String>,
}

/// Records a keyword; answers the history after it.
#[utoipa::path(post, path = "/diyvrbt/search/history/add", request_body = AddBody, responses((status = 200, body = History)))]
pub async fn add(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: AddBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let h = state.clients.favourite.clone().add_search(caller.request(pb::SearchKeyword { keyword: b.keyword })?).await?.into_inner();
    Ok(envelope::ok(History { keywords: h.keywords }))
}

/// The caller's search history.
#[utoipa::path(get, path = "/diyvrbt/search/history", responses((status = 200, body = History)))]
pub async fn list(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let h = state.clients.favourite.clone().search_history(caller.request(Empty {})?).await?.into_inner();
    Ok(envelope::ok(History { keywords: h.keywords }))
}

/// Forgets the caller's search history.
#[utoipa::path(post, path = "/diyvrbt/search/history/clear", responses((status = 200)))]
pub async fn clear(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    state.clients.favourite.clone().clear_search(caller.request(Empty {})?).await?;
    Ok(envelope::ok(serde_json::Value::Null))
}
