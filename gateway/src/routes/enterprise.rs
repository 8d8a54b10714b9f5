//! The enterprise workspace (issue 30, `/workbench/yqx`): `/enterprise/space`, `/enterprise/share`,
//! `/enterprise/unshare`, `/enterprise/copy`, `/enterprise/member/add|remove`, the shares' media
//! (`/enterprise/media/{shareId}/{part}`), and for administrators `/manage/enterprise/list|save`.
//! The task service keeps the rows and decides who may; the gateway signs the shares' media.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::task as pb;
use serde::{Deserialize, Serialize};

use super::maintain_task::time;
use super::template::{PreviewQuery, Previews, serve_preview};
use crate::media::PreviewOf;
use crate::{ApiError, AppState, body, caller, envelope};

/// A member as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberDto {
    enterprise_id: i64,
    user_id: String,
    added_by: String,
    added_time: String,
}

fn member_dto(m: pb::EnterpriseMember) -> MemberDto {
    MemberDto { added_time: time(m.added_ms), enterprise_id: m.enterprise_id, user_id: m.user_id, added_by: m.added_by }
}

/// An enterprise as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnterpriseDto {
    id: i64,
    name: String,
    create_time: String,
    member_count: i64,
    /// For administrators and enterprise administrators only (empty otherwise).
    members: Vec<MemberDto>,
}

fn enterprise_dto(e: pb::Enterprise) -> EnterpriseDto {
    EnterpriseDto {
        create_time: time(e.created_ms),
        id: e.id,
        name: e.name,
        member_count: e.member_count,
        members: e.members.into_iter().map(member_dto).collect(),
    }
}

/// A shared work or material as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareDto {
    id: i64,
    /// work or material.
    kind: String,
    /// The task id or the material id.
    item_id: String,
    name: String,
    /// A work: video; a material: its type.
    media_kind: String,
    shared_by: String,
    shared_time: String,
    shared_ms: i64,
    /// The caller shared it.
    mine: bool,
    /// Signed same-origin addresses ("" when there is none).
    cover_url: String,
    video_url: String,
}

/// The workspace as the caller sees it.
#[derive(Serialize, utoipa::ToSchema)]
pub struct SpaceDto {
    /// null: the caller is in no enterprise.
    enterprise: Option<EnterpriseDto>,
    /// The caller is an enterprise administrator (operator level 2) of it.
    admin: bool,
    /// The newest first.
    shares: Vec<ShareDto>,
}

fn share_dto(s: pb::EnterpriseShareItem, previews: &Previews<'_>) -> Result<ShareDto, ApiError> {
    let (cover_url, video_url) = previews.urls_of(PreviewOf::EnterpriseShare, s.id, &s.video_key, &s.cover_key)?;
    Ok(ShareDto {
        shared_time: time(s.shared_ms),
        id: s.id,
        kind: s.kind,
        item_id: s.item_id,
        name: s.name,
        media_kind: s.media_kind,
        shared_by: s.shared_by,
        shared_ms: s.shared_ms,
        mine: s.mine,
        cover_url,
        video_url,
    })
}

/// The caller's enterprise, its shared works and materials, and (for its enterprise administrators)
/// its members; a caller in no enterprise gets `enterprise: null`, not a refusal.
#[utoipa::path(get, path = "/diyvrbt/enterprise/space", responses((status = 200, body = SpaceDto)))]
pub async fn space(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().enterprise_space(caller.request(pb::EnterpriseSpaceRequest {})?).await?.into_inner();
    let previews = Previews::of(&state, &caller);
    let shares = r.shares.into_iter().map(|s| share_dto(s, &previews)).collect::<Result<Vec<_>, _>>()?;
    Ok(envelope::ok(SpaceDto { enterprise: r.enterprise.map(enterprise_dto), admin: r.admin, shares }))
}

/// Body of a share.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareBody {
    /// work or material.
    #[serde(default)]
    kind: String,
    /// One of the caller's rendered works (its task id) or materials (its material id).
    #[serde(default)]
    #[schema(value_type = String)]
    item_id: serde_json::Value,
}

/// An item id as text, whether the body sends it as a number (a task id) or a string.
fn item_text(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.trim().to_owned(),
        serde_json::Value::Number(n) => n.to_string(),
        _ => String::new(),
    }
}

/// Shares one of the caller's rendered works or materials with their enterprise (once).
#[utoipa::path(post, path = "/diyvrbt/enterprise/share", request_body = ShareBody, responses((status = 200, body = ShareDto)))]
pub async fn share(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: ShareBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let s = state.clients.task.clone().enterprise_share(caller.request(pb::EnterpriseShareRequest { item_id: item_text(&b.item_id), kind: b.kind })?).await?.into_inner();
    Ok(envelope::ok_with(share_dto(s, &Previews::of(&state, &caller))?, "已分享到企业"))
}

/// Body naming a share.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ShareIdBody {
    share_id: i64,
}

/// Takes a share out of the enterprise (its sharer, or an enterprise administrator).
#[utoipa::path(post, path = "/diyvrbt/enterprise/unshare", request_body = ShareIdBody, responses((status = 200)))]
pub async fn unshare(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: ShareIdBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    state.clients.task.clone().enterprise_unshare(caller.request(pb::EnterpriseShareIdRequest { share_id: b.share_id })?).await?;
    Ok(envelope::ok_with(serde_json::json!({}), "已取消分享"))
}

/// The new work of a copy.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CopyAnswer {
    task_id: i64,
}

/// Copies a shared work into the caller's own works (the sharer's work is only read).
#[utoipa::path(post, path = "/diyvrbt/enterprise/copy", request_body = ShareIdBody, responses((status = 200, body = CopyAnswer)))]
pub async fn copy(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: ShareIdBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().enterprise_copy(caller.request(pb::EnterpriseShareIdRequest { share_id: b.share_id })?).await?.into_inner();
    Ok(envelope::ok_with(CopyAnswer { task_id: r.task_id }, "已复制到我的作品"))
}

/// Body naming a member.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MemberBody {
    /// Absent or 0: the caller's own enterprise (an enterprise administrator); an administrator names one.
    #[serde(default)]
    enterprise_id: i64,
    /// An account, or (adding) a mobile number, of a user of this platform.
    #[serde(default)]
    user_id: String,
}

/// Adds a user of the tenant to an enterprise (administrators; an enterprise administrator to their own).
#[utoipa::path(post, path = "/diyvrbt/enterprise/member/add", request_body = MemberBody, responses((status = 200, body = MemberDto)))]
pub async fn add_member(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: MemberBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = pb::EnterpriseMemberRequest { enterprise_id: b.enterprise_id, user_id: b.user_id };
    let m = state.clients.task.clone().enterprise_add_member(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(member_dto(m), "成员已添加"))
}

/// Removes a member (and what they shared) from an enterprise (as adding).
#[utoipa::path(post, path = "/diyvrbt/enterprise/member/remove", request_body = MemberBody, responses((status = 200)))]
pub async fn remove_member(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: MemberBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = pb::EnterpriseMemberRequest { enterprise_id: b.enterprise_id, user_id: b.user_id };
    state.clients.task.clone().enterprise_remove_member(caller.request(r)?).await?;
    Ok(envelope::ok_with(serde_json::json!({}), "成员已移除"))
}

/// A shared item's video or cover (`part`), by the signed address a share carries.
#[utoipa::path(get, path = "/diyvrbt/enterprise/media/{id}/{part}", params(("id" = i64, Path), ("part" = String, Path), PreviewQuery), responses((status = 200, body = Vec<u8>), (status = 206, description = "the requested byte range")))]
pub async fn media(req: HttpRequest, path: web::Path<(String, String)>, q: web::Query<PreviewQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let (id, part) = path.into_inner();
    serve_preview(&req, &state, PreviewOf::EnterpriseShare, &id, &part, &q.ticket).await
}

/// The tenant's enterprises with their members (administrators, operator level 0).
#[utoipa::path(get, path = "/diyvrbt/manage/enterprise/list", responses((status = 200, body = [EnterpriseDto])))]
pub async fn manage_list(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().enterprise_list(caller.request(pb::EnterpriseSpaceRequest {})?).await?.into_inner();
    Ok(envelope::ok(r.items.into_iter().map(enterprise_dto).collect::<Vec<_>>()))
}

/// Body of an enterprise's save.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct EnterpriseSaveBody {
    /// Absent or 0: a new enterprise.
    #[serde(default)]
    id: i64,
    #[serde(default)]
    name: String,
}

/// Creates or renames an enterprise (administrators); names are unique within the tenant.
#[utoipa::path(post, path = "/diyvrbt/manage/enterprise/save", request_body = EnterpriseSaveBody, responses((status = 200, body = EnterpriseDto)))]
pub async fn save(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: EnterpriseSaveBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let e = state.clients.task.clone().enterprise_save(caller.request(pb::EnterpriseSaveRequest { id: b.id, name: b.name })?).await?.into_inner();
    Ok(envelope::ok_with(enterprise_dto(e), "保存成功"))
}
