//! The service marketplace (issue 30): `/market/services`, `/market/service/{id}`, `/market/mine`,
//! a provider's `/market/service/save|publish`, a user's `/market/request` and `withdraw`, a
//! provider's `decline` and `deliver`, and the samples' media (`/market/media/{taskId}/{part}`).
//! The task service keeps the rows and asks the auth service who is a provider; the gateway signs
//! the samples' media.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::task as pb;
use serde::{Deserialize, Serialize};

use super::maintain_task::time;
use super::template::{PreviewQuery, Previews, serve_preview};
use crate::media::PreviewOf;
use crate::{ApiError, AppState, body, caller, envelope};

/// A service as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ServiceDto {
    id: i64,
    title: String,
    /// template or video.
    kind: String,
    description: String,
    price: String,
    delivery_days: i32,
    published: bool,
    /// The caller provides it.
    mine: bool,
    sample_task_ids: Vec<i64>,
    /// The first sample's cover (signed; "" none).
    cover_url: String,
    /// Open requests (the provider's own services only).
    open_requests: i64,
    update_time: String,
}

fn service_dto(s: pb::MarketService, previews: &Previews<'_>) -> Result<ServiceDto, ApiError> {
    let (cover_url, _) = previews.urls_of(PreviewOf::ServiceSample, s.cover_task_id, "", &s.cover_key)?;
    Ok(ServiceDto {
        cover_url,
        update_time: time(s.updated_ms),
        id: s.id,
        title: s.title,
        kind: s.kind,
        description: s.description,
        price: s.price,
        delivery_days: s.delivery_days,
        published: s.published,
        mine: s.mine,
        sample_task_ids: s.sample_task_ids,
        open_requests: s.open_requests,
    })
}

/// A sample work of a service.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SampleDto {
    task_id: i64,
    name: String,
    cover_url: String,
    video_url: String,
}

/// A request as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequestDto {
    id: i64,
    service_id: i64,
    service_title: String,
    note: String,
    /// open, withdrawn, declined or delivered.
    state: String,
    /// A decline's reason.
    reason: String,
    /// The requester's new work once delivered (0 before).
    delivered_task_id: i64,
    /// The caller placed it.
    mine: bool,
    create_time: String,
    update_time: String,
}

fn request_dto(r: pb::MarketRequest) -> RequestDto {
    RequestDto {
        create_time: time(r.created_ms),
        update_time: time(r.updated_ms),
        id: r.id,
        service_id: r.service_id,
        service_title: r.service_title,
        note: r.note,
        state: r.state,
        reason: r.reason,
        delivered_task_id: r.delivered_task_id,
        mine: r.mine,
    }
}

/// Query of the list.
#[derive(Deserialize, utoipa::IntoParams)]
pub struct KindQuery {
    /// template or video; absent: every kind.
    #[serde(default)]
    kind: String,
}

/// The tenant's published services, the last changed first.
#[utoipa::path(get, path = "/diyvrbt/market/services", params(KindQuery), responses((status = 200, body = [ServiceDto])))]
pub async fn services(req: HttpRequest, q: web::Query<KindQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().list_services(caller.request(pb::ServiceListRequest { kind: q.into_inner().kind })?).await?.into_inner();
    let previews = Previews::of(&state, &caller);
    Ok(envelope::ok(r.items.into_iter().map(|s| service_dto(s, &previews)).collect::<Result<Vec<_>, _>>()?))
}

/// One service with its samples and the caller's requests to it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ServiceDetailDto {
    service: ServiceDto,
    samples: Vec<SampleDto>,
    my_requests: Vec<RequestDto>,
}

fn service_id(value: &str) -> Result<i64, ApiError> {
    value.trim().parse::<i64>().map_err(|_| ApiError::BadRequest(format!("id: `{value}` is not a service id")))
}

/// One service (a draft only for its provider), its samples and the caller's requests to it.
#[utoipa::path(get, path = "/diyvrbt/market/service/{id}", params(("id" = i64, Path)), responses((status = 200, body = ServiceDetailDto)))]
pub async fn service(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let id = service_id(&id)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().get_service(caller.request(pb::ServiceIdRequest { id })?).await?.into_inner();
    let previews = Previews::of(&state, &caller);
    let service = service_dto(r.service.ok_or_else(|| ApiError::BadRequest(format!("service {id} does not exist")))?, &previews)?;
    let samples = r
        .samples
        .into_iter()
        .map(|s| {
            let (cover_url, video_url) = previews.urls_of(PreviewOf::ServiceSample, s.task_id, &s.video_key, &s.cover_key)?;
            Ok(SampleDto { task_id: s.task_id, name: s.name, cover_url, video_url })
        })
        .collect::<Result<Vec<_>, ApiError>>()?;
    Ok(envelope::ok(ServiceDetailDto { service, samples, my_requests: r.my_requests.into_iter().map(request_dto).collect() }))
}

/// The caller's services, the requests to them and the caller's own requests.
#[derive(Serialize, utoipa::ToSchema)]
pub struct MineDto {
    services: Vec<ServiceDto>,
    received: Vec<RequestDto>,
    sent: Vec<RequestDto>,
}

/// The caller's side of the marketplace.
#[utoipa::path(get, path = "/diyvrbt/market/mine", responses((status = 200, body = MineDto)))]
pub async fn mine(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().my_market(caller.request(pb::ServiceListRequest::default())?).await?.into_inner();
    let previews = Previews::of(&state, &caller);
    Ok(envelope::ok(MineDto {
        services: r.services.into_iter().map(|s| service_dto(s, &previews)).collect::<Result<Vec<_>, _>>()?,
        received: r.received.into_iter().map(request_dto).collect(),
        sent: r.sent.into_iter().map(request_dto).collect(),
    }))
}

/// Body of a provider's save.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SaveBody {
    /// Absent or 0: a new service.
    #[serde(default)]
    id: i64,
    #[serde(default)]
    title: String,
    /// template or video.
    #[serde(default)]
    kind: String,
    #[serde(default)]
    description: String,
    #[serde(default)]
    price: String,
    #[serde(default)]
    delivery_days: i32,
    /// The provider's own rendered works, in order (at most 6).
    #[serde(default)]
    sample_task_ids: Vec<i64>,
}

/// Saves a provider's service (a new one unpublished); others get 4001.
#[utoipa::path(post, path = "/diyvrbt/market/service/save", request_body = SaveBody, responses((status = 200, body = ServiceDto)))]
pub async fn save(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: SaveBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = pb::SaveServiceRequest { id: b.id, title: b.title, kind: b.kind, description: b.description, price: b.price, delivery_days: b.delivery_days, sample_task_ids: b.sample_task_ids };
    let s = state.clients.task.clone().save_service(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(service_dto(s, &Previews::of(&state, &caller))?, "保存成功"))
}

/// Body of a publication.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct PublishBody {
    id: i64,
    published: bool,
}

/// Publishes or withdraws the provider's own service.
#[utoipa::path(post, path = "/diyvrbt/market/service/publish", request_body = PublishBody, responses((status = 200, body = ServiceDto)))]
pub async fn publish(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: PublishBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let s = state.clients.task.clone().publish_service(caller.request(pb::PublishServiceRequest { id: b.id, published: b.published })?).await?.into_inner();
    Ok(envelope::ok_with(service_dto(s, &Previews::of(&state, &caller))?, if b.published { "已发布" } else { "已下架" }))
}

/// Body of a request.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlaceBody {
    service_id: i64,
    #[serde(default)]
    note: String,
}

/// Places the caller's request with another provider's published service (one open at a time).
#[utoipa::path(post, path = "/diyvrbt/market/request", request_body = PlaceBody, responses((status = 200, body = RequestDto)))]
pub async fn request(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: PlaceBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().place_request(caller.request(pb::PlaceRequestRequest { service_id: b.service_id, note: b.note })?).await?.into_inner();
    Ok(envelope::ok_with(request_dto(r), "需求已提交"))
}

/// Body naming a request.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequestBody {
    request_id: i64,
    /// A decline's reason.
    #[serde(default)]
    reason: String,
    /// A delivery's work (the provider's own, with a video).
    #[serde(default)]
    task_id: i64,
}

/// The requester takes back their open request.
#[utoipa::path(post, path = "/diyvrbt/market/request/withdraw", request_body = RequestBody, responses((status = 200, body = RequestDto)))]
pub async fn withdraw(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: RequestBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().withdraw_request(caller.request(pb::RequestIdRequest { request_id: b.request_id })?).await?.into_inner();
    Ok(envelope::ok_with(request_dto(r), "需求已撤回"))
}

/// The provider declines an open request to their service, with a reason.
#[utoipa::path(post, path = "/diyvrbt/market/request/decline", request_body = RequestBody, responses((status = 200, body = RequestDto)))]
pub async fn decline(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: RequestBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().decline_request(caller.request(pb::DeclineRequestRequest { request_id: b.request_id, reason: b.reason })?).await?.into_inner();
    Ok(envelope::ok_with(request_dto(r), "已拒绝"))
}

/// The provider answers an open request with one of their rendered works, which becomes a new
/// work of the requester.
#[utoipa::path(post, path = "/diyvrbt/market/request/deliver", request_body = RequestBody, responses((status = 200, body = RequestDto)))]
pub async fn deliver(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: RequestBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().deliver_request(caller.request(pb::DeliverRequestRequest { request_id: b.request_id, task_id: b.task_id })?).await?.into_inner();
    Ok(envelope::ok_with(request_dto(r), "作品已交付"))
}

/// A sample's video or cover (`part`), by the signed address a service answer carries.
#[utoipa::path(get, path = "/diyvrbt/market/media/{id}/{part}", params(("id" = i64, Path), ("part" = String, Path), PreviewQuery), responses((status = 200, body = Vec<u8>), (status = 206, description = "the requested byte range")))]
pub async fn media(req: HttpRequest, path: web::Path<(String, String)>, q: web::Query<PreviewQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let (id, part) = path.into_inner();
    serve_preview(&req, &state, PreviewOf::ServiceSample, &id, &part, &q.ticket).await
}
