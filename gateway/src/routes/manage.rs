//! The administrators' user management (operator level 0; enforced by the auth service):
//! `/manage/users`, `/manage/users/level`, `/manage/users/disable`.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::auth as pb;
use reelforge_proto::common::Page;
use serde::{Deserialize, Serialize};

use crate::{ApiError, AppState, body, caller, envelope};

/// Query of the user list.
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct UsersQuery {
    #[serde(default)]
    keyword: String,
    #[serde(default = "first_page")]
    page_num: u32,
    #[serde(default = "ten")]
    page_size: u32,
}

fn first_page() -> u32 {
    1
}
fn ten() -> u32 {
    10
}

/// A user as the users page reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UserDto {
    user_id: String,
    mail: String,
    operator_level: i32,
    role: String,
    disabled: bool,
    create_time: String,
}

/// A page of users.
#[derive(Serialize, utoipa::ToSchema)]
pub struct UserList {
    total: u64,
    list: Vec<UserDto>,
}

fn time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M:%S").to_string())
        .unwrap_or_default()
}

/// The tenant's users, searched by id and paged (administrators).
#[utoipa::path(get, path = "/diyvrbt/manage/users", params(UsersQuery), responses((status = 200, body = UserList)))]
pub async fn list(req: HttpRequest, q: web::Query<UsersQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let q = q.into_inner();
    let page = Some(Page { page_num: q.page_num, page_size: q.page_size });
    let r = state.clients.auth.clone().list_users(caller.request(pb::ListUsersRequest { keyword: q.keyword, page })?).await?.into_inner();
    let list = r
        .list
        .into_iter()
        .map(|u| UserDto {
            create_time: time(u.created_ms),
            user_id: u.user_id,
            mail: u.mail,
            operator_level: u.operator_level,
            role: u.role,
            disabled: u.disabled,
        })
        .collect();
    Ok(envelope::ok(UserList { total: r.total, list }))
}

/// Body of the level change.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LevelBody {
    user_id: String,
    operator_level: i32,
}

/// Changes a user's operator level (administrators); the user signs in again.
#[utoipa::path(post, path = "/diyvrbt/manage/users/level", request_body = LevelBody, responses((status = 200)))]
pub async fn level(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: LevelBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    state
        .clients
        .auth
        .clone()
        .set_level(caller.request(pb::SetLevelRequest { user_id: b.user_id, operator_level: b.operator_level })?)
        .await?;
    Ok(envelope::ok(serde_json::Value::Null))
}

/// Body of disable.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct DisableBody {
    user_id: String,
    disabled: bool,
}

/// Turns a user off (their tokens stop working) or on (administrators).
#[utoipa::path(post, path = "/diyvrbt/manage/users/disable", request_body = DisableBody, responses((status = 200)))]
pub async fn disable(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: DisableBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    state.clients.auth.clone().set_disabled(caller.request(pb::SetDisabledRequest { user_id: b.user_id, disabled: b.disabled })?).await?;
    Ok(envelope::ok(serde_json::Value::Null))
}
