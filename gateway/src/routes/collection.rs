//! Curated collections (issue 29): a template manager's topics, cases and industries under
//! `/manage/collection/…`, and the published ones every signed-in user sees under `/collection/…`
//! (the home page, the template picker). The task service decides roles and tenancy.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::task as pb;
use serde::{Deserialize, Serialize};

use super::maintain_task::{AuditDto, audit_list, time};
use super::template::{Previews, TemplateDto, template_dto};
use crate::{ApiError, AppState, body, caller, envelope};

/// A collection as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CollectionDto {
    id: i64,
    /// topic, case or industry.
    kind: String,
    name: String,
    description: String,
    published: bool,
    /// Its place among its kind's collections, from 0.
    position: i32,
    /// The cover template's cover picture ('' while none exists).
    cover_url: String,
    cover_template_id: i64,
    /// The templates in order.
    template_ids: Vec<i64>,
    /// The templates still approved.
    template_count: u32,
    updated_by: String,
    update_time: String,
    /// Detail only.
    #[serde(skip_serializing_if = "Option::is_none")]
    templates: Option<Vec<TemplateDto>>,
    /// A manager's detail only, newest first.
    #[serde(skip_serializing_if = "Option::is_none")]
    audit: Option<Vec<AuditDto>>,
}

fn dto(c: pb::Collection, detail: bool, manage: bool, previews: &Previews<'_>) -> Result<CollectionDto, ApiError> {
    let cover = pb::Template { id: c.cover_template_id, cover_key: c.cover_key.clone(), ..Default::default() };
    let (cover_url, _) = previews.urls(&cover)?;
    let templates = if detail { Some(c.templates.into_iter().map(|t| template_dto(t, false, previews)).collect::<Result<Vec<_>, _>>()?) } else { None };
    let audit = (detail && manage).then(|| audit_list(pb::AuditList { items: c.audit }));
    Ok(CollectionDto {
        id: c.id,
        kind: c.kind,
        name: c.name,
        description: c.description,
        published: c.published,
        position: c.position,
        cover_url,
        cover_template_id: c.cover_template_id,
        template_ids: c.template_ids,
        template_count: c.template_count,
        updated_by: c.updated_by,
        update_time: time(c.updated_ms),
        templates,
        audit,
    })
}

fn id_param(value: &str) -> Result<i64, ApiError> {
    value.trim().parse::<i64>().map_err(|_| ApiError::BadRequest(format!("id: `{value}` is not a collection id")))
}

/// Query of a list.
#[derive(Deserialize, utoipa::IntoParams)]
pub struct KindQuery {
    /// topic, case or industry; absent: every kind.
    #[serde(default)]
    kind: String,
}

async fn list(req: &HttpRequest, state: &AppState, kind: String, manage: bool) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(req, state).await?;
    let r = state.clients.task.clone().list_collections(caller.request(pb::CollectionListRequest { kind, manage })?).await?.into_inner();
    let previews = Previews::of(state, &caller);
    let items = r.items.into_iter().map(|c| dto(c, false, manage, &previews)).collect::<Result<Vec<_>, _>>()?;
    Ok(envelope::ok(items))
}

async fn detail(req: &HttpRequest, state: &AppState, id: &str, manage: bool) -> Result<HttpResponse, ApiError> {
    let id = id_param(id)?;
    let caller = caller::caller(req, state).await?;
    let c = state.clients.task.clone().get_collection(caller.request(pb::CollectionIdRequest { id, manage })?).await?.into_inner();
    Ok(envelope::ok(dto(c, true, manage, &Previews::of(state, &caller))?))
}

/// The tenant's published collections of a kind (or all), in order.
#[utoipa::path(get, path = "/diyvrbt/collection/list", params(KindQuery), responses((status = 200, body = [CollectionDto])))]
pub async fn published(req: HttpRequest, q: web::Query<KindQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    list(&req, &state, q.into_inner().kind, false).await
}

/// A published collection with its approved templates in order.
#[utoipa::path(get, path = "/diyvrbt/collection/{id}", params(("id" = i64, Path)), responses((status = 200, body = CollectionDto)))]
pub async fn published_one(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    detail(&req, &state, &id, false).await
}

/// TEMPLATE_MANAGER: every collection of a kind (or all), published or not, in order.
#[utoipa::path(get, path = "/diyvrbt/manage/collection/list", params(KindQuery), responses((status = 200, body = [CollectionDto])))]
pub async fn manage_list(req: HttpRequest, q: web::Query<KindQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    list(&req, &state, q.into_inner().kind, true).await
}

/// TEMPLATE_MANAGER: one collection with every template it lists and its audit trail.
#[utoipa::path(get, path = "/diyvrbt/manage/collection/{id}", params(("id" = i64, Path)), responses((status = 200, body = CollectionDto)))]
pub async fn manage_one(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    detail(&req, &state, &id, true).await
}

/// Body of a save: no id (or 0) creates.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SaveBody {
    #[serde(default)]
    id: i64,
    #[serde(default)]
    kind: String,
    #[serde(default)]
    name: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    template_ids: Vec<i64>,
    /// 0 or absent: the first template.
    #[serde(default)]
    cover_template_id: i64,
}

/// TEMPLATE_MANAGER: creates a collection (unpublished, last) or replaces one's name,
/// description, templates and cover; each template must be an approved one of the tenant.
#[utoipa::path(post, path = "/diyvrbt/manage/collection/save", request_body = SaveBody, responses((status = 200, body = CollectionDto)))]
pub async fn save(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: SaveBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = pb::SaveCollectionRequest {
        id: b.id,
        kind: b.kind,
        name: b.name,
        description: b.description,
        template_ids: b.template_ids,
        cover_template_id: b.cover_template_id,
    };
    let c = state.clients.task.clone().save_collection(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(dto(c, true, true, &Previews::of(&state, &caller))?, "已保存"))
}

/// Body of a publish.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PublishBody {
    id: i64,
    published: bool,
}

/// TEMPLATE_MANAGER: publishes a collection (it needs a template) or withdraws it.
#[utoipa::path(post, path = "/diyvrbt/manage/collection/publish", request_body = PublishBody, responses((status = 200, body = CollectionDto)))]
pub async fn publish(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: PublishBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = pb::PublishCollectionRequest { id: b.id, published: b.published };
    let c = state.clients.task.clone().publish_collection(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok(dto(c, true, true, &Previews::of(&state, &caller))?))
}

/// Body of an order.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OrderBody {
    kind: String,
    /// Every collection of the kind, once each, in the new order.
    ids: Vec<i64>,
}

/// TEMPLATE_MANAGER: puts a kind's collections in a new order.
#[utoipa::path(post, path = "/diyvrbt/manage/collection/order", request_body = OrderBody, responses((status = 200, body = [CollectionDto])))]
pub async fn order(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: OrderBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().order_collections(caller.request(pb::OrderCollectionsRequest { kind: b.kind, ids: b.ids })?).await?.into_inner();
    let previews = Previews::of(&state, &caller);
    let items = r.items.into_iter().map(|c| dto(c, false, true, &previews)).collect::<Result<Vec<_>, _>>()?;
    Ok(envelope::ok(items))
}

/// Body naming one collection.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct IdBody {
    id: i64,
}

/// TEMPLATE_MANAGER: deletes a collection; its templates stay.
#[utoipa::path(post, path = "/diyvrbt/manage/collection/delete", request_body = IdBody, responses((status = 200, body = bool)))]
pub async fn delete(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: IdBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    state.clients.task.clone().delete_collection(caller.request(pb::CollectionIdRequest { id: b.id, manage: true })?).await?;
    Ok(envelope::ok_with(true, "已删除"))
}
