//! Service-provider applications (issues 29 and 30): a user applies under `/service/…` (the qs
//! portal's `service/emplacement`); the tenant's template managers review them under
//! `/manage/service/…` (`check-service`). The auth service decides roles and tenancy.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::auth as pb;
use reelforge_proto::common::{Empty, Page};
use serde::{Deserialize, Serialize};

use super::maintain_task::time;
use crate::{ApiError, AppState, body, caller, envelope};

/// An application as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ApplicationDto {
    id: i64,
    /// The applicant.
    user_id: String,
    /// The company or studio.
    name: String,
    contact: String,
    intro: String,
    /// pending, approved or rejected.
    state: String,
    /// Why it was rejected.
    reason: String,
    /// The manager who decided.
    reviewed_by: String,
    create_time: String,
    /// '' while pending.
    review_time: String,
}

fn dto(a: pb::Application) -> ApplicationDto {
    ApplicationDto {
        id: a.id,
        user_id: a.user_id,
        name: a.name,
        contact: a.contact,
        intro: a.intro,
        state: a.state,
        reason: a.reason,
        reviewed_by: a.reviewed_by,
        create_time: time(a.created_ms),
        review_time: time(a.reviewed_ms),
    }
}

/// A page of applications.
#[derive(Serialize, utoipa::ToSchema)]
pub struct ApplicationPage {
    total: u64,
    list: Vec<ApplicationDto>,
}

/// Body of an application.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct ApplyBody {
    #[serde(default)]
    name: String,
    #[serde(default)]
    contact: String,
    #[serde(default)]
    intro: String,
}

/// The caller applies to become a service provider of their tenant (pending until a template
/// manager decides); refused while one of theirs waits, or once they are a provider.
#[utoipa::path(post, path = "/diyvrbt/service/apply", request_body = ApplyBody, responses((status = 200, body = ApplicationDto)))]
pub async fn apply(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: ApplyBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = pb::ApplyRequest { name: b.name, contact: b.contact, intro: b.intro };
    let a = state.clients.auth.clone().apply(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(dto(a), "申请已提交"))
}

/// The caller's applications, newest first.
#[utoipa::path(get, path = "/diyvrbt/service/applications", responses((status = 200, body = [ApplicationDto])))]
pub async fn mine(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.auth.clone().my_applications(caller.request(Empty {})?).await?.into_inner();
    Ok(envelope::ok(r.list.into_iter().map(dto).collect::<Vec<_>>()))
}

/// Query of the review queue.
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ReviewQuery {
    /// pending (default), approved or rejected.
    #[serde(default)]
    state: String,
    #[serde(default)]
    page_num: u32,
    #[serde(default)]
    page_size: u32,
}

/// TEMPLATE_MANAGER: one page of the tenant's applications in a state; pending ones oldest first.
#[utoipa::path(get, path = "/diyvrbt/manage/service/list", params(ReviewQuery), responses((status = 200, body = ApplicationPage)))]
pub async fn review_list(req: HttpRequest, q: web::Query<ReviewQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let caller = caller::caller(&req, &state).await?;
    let r = pb::ReviewApplicationsRequest { state: q.state, page: Some(Page { page_num: q.page_num, page_size: q.page_size }) };
    let r = state.clients.auth.clone().review_applications(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok(ApplicationPage { total: r.total, list: r.list.into_iter().map(dto).collect() }))
}

/// TEMPLATE_MANAGER: one of the tenant's applications.
#[utoipa::path(get, path = "/diyvrbt/manage/service/{id}", params(("id" = i64, Path)), responses((status = 200, body = ApplicationDto)))]
pub async fn review_one(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let id = id.trim().parse::<i64>().map_err(|_| ApiError::BadRequest(format!("id: `{id}` is not an application id")))?;
    let caller = caller::caller(&req, &state).await?;
    let a = state.clients.auth.clone().review_application(caller.request(pb::ApplicationIdRequest { id })?).await?.into_inner();
    Ok(envelope::ok(dto(a)))
}

/// Body of a decision.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct DecideBody {
    id: i64,
    approve: bool,
    /// Required to reject; the applicant sees it.
    #[serde(default)]
    reason: String,
}

/// TEMPLATE_MANAGER: approves a pending application (its user becomes a service provider) or
/// rejects it with a reason.
#[utoipa::path(post, path = "/diyvrbt/manage/service/decide", request_body = DecideBody, responses((status = 200, body = ApplicationDto)))]
pub async fn decide(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: DecideBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = pb::DecideApplicationRequest { id: b.id, approve: b.approve, reason: b.reason };
    let a = state.clients.auth.clone().decide_application(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(dto(a), if b.approve { "已通过" } else { "已驳回" }))
}
