//! Sign-in and the signed-in user: `/user/sendCode` mails a one-time code, `/user/login` exchanges it
//! for a token, `/user/handoff` accepts a host platform's hand-off, `/user/me` and `/user/logout`.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::auth as pb;
use reelforge_proto::common::Empty;
use serde::{Deserialize, Serialize};

use crate::{ApiError, AppState, body, caller, envelope};

/// Body of send-code.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct SendCodeBody {
    mail: String,
    /// The challenge token of a `challenge_required` or `challenge_failed` refusal, once solved.
    #[serde(default)]
    challenge: String,
    /// Its solution: `SHA-256(challenge ":" solution)` has `bits` leading zero bits.
    #[serde(default)]
    solution: String,
}

/// Answer of send-code.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SendCodeAnswer {
    resend_after_seconds: u32,
}

/// Mails a verification code. The answer is the same whether or not the address has an account. A
/// refusal answers 3000 with a stable `data.reason`: `rate_limited` with `data.retryAfterSeconds`
/// and a `Retry-After` header; `challenge_required` or `challenge_failed` with
/// `data.challenge {token, bits}` to solve and send back (docs/auth.md).
#[utoipa::path(post, path = "/diyvrbt/user/sendCode", request_body = SendCodeBody, responses((status = 200, body = SendCodeAnswer)))]
pub async fn send_code(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: SendCodeBody = body::parse(&req, &bytes)?;
    let caller = caller::anonymous(&req, &state)?;
    let ask = pb::SendCodeRequest { mail: b.mail, challenge: b.challenge, solution: b.solution };
    let r = state.clients.auth.clone().send_code(caller.request(ask)?).await?.into_inner();
    Ok(envelope::ok(SendCodeAnswer { resend_after_seconds: r.resend_after_seconds }))
}

/// Body of login.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct LoginBody {
    mail: String,
    code: String,
}

/// The signed-in user.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MeAnswer {
    user_id: String,
    mobile: String,
    role: String,
    operator_level: i32,
    tenant: String,
    /// A template manager approved an application of theirs (`/user/me` only; false at login).
    service_provider: bool,
}

fn me(u: pb::UserInfo) -> MeAnswer {
    MeAnswer { user_id: u.user_id, mobile: u.mobile, role: u.role, operator_level: u.operator_level, tenant: u.tenant, service_provider: u.service_provider }
}

/// Answer of login: the token and the user.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct LoginAnswer {
    token: String,
    #[serde(flatten)]
    user: MeAnswer,
}

fn login_answer(r: pb::LoginReply) -> LoginAnswer {
    LoginAnswer { token: r.token, user: me(r.user.unwrap_or_default()) }
}

/// Exchanges a mailed code for a token; a wrong, expired or burned code answers 3000.
#[utoipa::path(post, path = "/diyvrbt/user/login", request_body = LoginBody, responses((status = 200, body = LoginAnswer)))]
pub async fn login(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: LoginBody = body::parse(&req, &bytes)?;
    let caller = caller::anonymous(&req, &state)?;
    let r = state.clients.auth.clone().login(caller.request(pb::LoginRequest { mail: b.mail, code: b.code })?).await?.into_inner();
    Ok(envelope::ok(login_answer(r)))
}

/// Body of hand-off.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct HandoffBody {
    /// The host-signed hand-off token (docs/auth.md).
    handoff: String,
    /// corp, trading, ivvr or platform.
    kind: String,
    /// Where to send the user back; echoed only when on one of the variant's hosts.
    #[serde(default)]
    back: String,
}

/// Answer of hand-off: as login, plus the checked back address.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct HandoffAnswer {
    #[serde(flatten)]
    login: LoginAnswer,
    back_url: String,
}

/// The embedded entries a host platform may hand a user to.
pub const HANDOFF_KINDS: &[&str] = &["corp", "trading", "ivvr", "platform"];

/// Signs in a user handed over by a host platform.
#[utoipa::path(post, path = "/diyvrbt/user/handoff", request_body = HandoffBody, responses((status = 200, body = HandoffAnswer)))]
pub async fn handoff(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: HandoffBody = body::parse(&req, &bytes)?;
    if !HANDOFF_KINDS.contains(&b.kind.as_str()) {
        return Err(ApiError::BadRequest(format!("kind: expected one of {}", HANDOFF_KINDS.join(", "))));
    }
    let caller = caller::anonymous(&req, &state)?;
    let r = state.clients.auth.clone().handoff(caller.request(pb::HandoffRequest { handoff: b.handoff })?).await?.into_inner();
    let back_url = if caller::is_own_url(&req, &caller.tenant, &b.back) { b.back } else { String::new() };
    Ok(envelope::ok(HandoffAnswer { login: login_answer(r), back_url }))
}

/// The signed-in user.
#[utoipa::path(get, path = "/diyvrbt/user/me", responses((status = 200, body = MeAnswer)))]
pub async fn get_me(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    // The verified user the caller carries lacks what only `Me` reads (whether they are a provider).
    let user = state.clients.auth.clone().me(caller.request(Empty {})?).await?.into_inner();
    Ok(envelope::ok(me(user)))
}

/// Signs out: the token is revoked, later calls with it answer 4000.
#[utoipa::path(post, path = "/diyvrbt/user/logout", responses((status = 200)))]
pub async fn logout(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    state.clients.auth.clone().logout(caller.request(Empty {})?).await?;
    Ok(envelope::ok(serde_json::Value::Null))
}
