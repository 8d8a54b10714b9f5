//! Sign-in: `/user/sendCode` mails a one-time code, `/user/login` exchanges it for a token.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::auth as pb;
use serde::{Deserialize, Serialize};

use crate::{ApiError, AppState, body, caller, envelope};

/// Body of send-code.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct SendCodeBody {
    mail: String,
}

/// Answer of send-code.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendCodeAnswer {
    resend_after_seconds: u32,
}

/// Mails a verification code.
#[utoipa::path(post, path = "/diyvrbt/user/sendCode", request_body = SendCodeBody, responses((status = 200, body = SendCodeAnswer)))]
pub async fn send_code(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: SendCodeBody = body::parse(&req, &bytes)?;
    let tenant = caller::tenant(&req)?;
    let r = state.clients.auth.clone().send_code(pb::SendCodeRequest { tenant, mail: b.mail }).await?.into_inner();
    Ok(envelope::ok(SendCodeAnswer { resend_after_seconds: r.resend_after_seconds }))
}

/// Body of login.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct LoginBody {
    mail: String,
    code: String,
}

/// Answer of login.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginAnswer {
    token: String,
    user_id: String,
    role: String,
    operator_level: i32,
}

/// Exchanges a mailed code for a token.
#[utoipa::path(post, path = "/diyvrbt/user/login", request_body = LoginBody, responses((status = 200, body = LoginAnswer)))]
pub async fn login(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: LoginBody = body::parse(&req, &bytes)?;
    let tenant = caller::tenant(&req)?;
    let r = state.clients.auth.clone().login(pb::LoginRequest { tenant, mail: b.mail, code: b.code }).await?.into_inner();
    Ok(envelope::ok(LoginAnswer { token: r.token, user_id: r.user_id, role: r.role, operator_level: r.operator_level }))
}
