//! The tonic server: proto ⇄ domain conversions; errors become statuses here, once.

use reelforge_kit::identity::{self, CLIENT_IP};
use reelforge_kit::status::{CHALLENGE_BITS_METADATA, CHALLENGE_METADATA, REASON_METADATA, RETRY_AFTER_METADATA, to_status};
use reelforge_proto::auth::{self as pb, auth_service_server::AuthService};
use reelforge_proto::common::Empty;
use tonic::{Request, Response, Status};

use crate::challenge::Proof;
use crate::domain::{AuthError, Login, User};
use crate::provider::{Application, ApplicationInput};
use crate::Auth;

/// The gRPC face of the auth service.
pub struct AuthGrpc {
    auth: Auth,
}

impl AuthGrpc {
    /// Serves `auth`.
    pub fn new(auth: Auth) -> Self {
        Self { auth }
    }
}

/// The status of an error; a refusal carries its stable reason, a rate limit its wait, and a
/// challenge its token and bits in metadata.
fn status(err: AuthError) -> Status {
    let mut meta: Vec<(&'static str, String)> = Vec::new();
    if let Some(reason) = err.reason() {
        meta.push((REASON_METADATA, reason.to_owned()));
    }
    if let AuthError::RateLimited { wait_seconds, .. } = &err {
        meta.push((RETRY_AFTER_METADATA, wait_seconds.to_string()));
    }
    if let Some(c) = err.challenge() {
        meta.push((CHALLENGE_METADATA, c.token.clone()));
        meta.push((CHALLENGE_BITS_METADATA, c.bits.to_string()));
    }
    let mut s = to_status(err);
    for (key, value) in meta {
        if let Ok(v) = value.parse() {
            s.metadata_mut().insert(key, v);
        }
    }
    s
}

fn client_ip<T>(req: &Request<T>) -> String {
    req.metadata().get(CLIENT_IP).and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned()
}

fn user_info(u: &User) -> pb::UserInfo {
    pb::UserInfo {
        user_id: u.user_id.clone(),
        mobile: u.mobile.clone(),
        role: u.level.role().as_str().to_owned(),
        operator_level: u.level.number(),
        tenant: u.tenant.clone(),
        service_provider: false,
    }
}

fn application_to_pb(a: Application) -> pb::Application {
    pb::Application {
        id: a.id,
        user_id: a.user_id,
        name: a.name,
        contact: a.contact,
        intro: a.intro,
        state: a.state.name().to_owned(),
        reason: a.reason,
        reviewed_by: a.reviewed_by,
        created_ms: a.created_ms,
        reviewed_ms: a.reviewed_ms,
    }
}

fn application_page(list: Vec<Application>, total: u64) -> pb::ApplicationPage {
    pb::ApplicationPage { list: list.into_iter().map(application_to_pb).collect(), total }
}

fn login_reply(l: Login) -> pb::LoginReply {
    pb::LoginReply { user: Some(user_info(&l.user)), token: l.token }
}

#[tonic::async_trait]
impl AuthService for AuthGrpc {
    #[tracing::instrument(skip_all)]
    async fn send_code(&self, req: Request<pb::SendCodeRequest>) -> Result<Response<pb::SendCodeReply>, Status> {
        let caller = identity::caller(&req)?;
        let ip = client_ip(&req);
        let req = req.into_inner();
        let proof = Proof { token: req.challenge, solution: req.solution };
        let after = self.auth.send_code_with_proof(&caller, &ip, &req.mail, Some(&proof)).await.map_err(status)?;
        Ok(Response::new(pb::SendCodeReply { resend_after_seconds: u32::try_from(after).unwrap_or(u32::MAX) }))
    }

    #[tracing::instrument(skip_all)]
    async fn login(&self, req: Request<pb::LoginRequest>) -> Result<Response<pb::LoginReply>, Status> {
        let caller = identity::caller(&req)?;
        let ip = client_ip(&req);
        let req = req.into_inner();
        let login = self.auth.login(&caller, &ip, &req.mail, &req.code).await.map_err(status)?;
        Ok(Response::new(login_reply(login)))
    }

    #[tracing::instrument(skip_all)]
    async fn handoff(&self, req: Request<pb::HandoffRequest>) -> Result<Response<pb::LoginReply>, Status> {
        let caller = identity::caller(&req)?;
        let ip = client_ip(&req);
        let login = self.auth.handoff(&caller, &ip, &req.into_inner().handoff).await.map_err(status)?;
        Ok(Response::new(login_reply(login)))
    }

    #[tracing::instrument(skip_all)]
    async fn verify(&self, req: Request<Empty>) -> Result<Response<pb::UserInfo>, Status> {
        let user = self.auth.verify(&identity::caller(&req)?).await.map_err(status)?;
        Ok(Response::new(user_info(&user)))
    }

    #[tracing::instrument(skip_all)]
    async fn me(&self, req: Request<Empty>) -> Result<Response<pb::UserInfo>, Status> {
        let user = self.auth.verify(&identity::caller(&req)?).await.map_err(status)?;
        let service_provider = self.auth.is_provider(&user).await.map_err(status)?;
        Ok(Response::new(pb::UserInfo { service_provider, ..user_info(&user) }))
    }

    #[tracing::instrument(skip_all)]
    async fn provider_of(&self, req: Request<Empty>) -> Result<Response<pb::ProviderAnswer>, Status> {
        let provider = self.auth.provider_of(&identity::caller(&req)?).await.map_err(status)?;
        Ok(Response::new(pb::ProviderAnswer { provider }))
    }

    #[tracing::instrument(skip_all)]
    async fn user_of(&self, req: Request<Empty>) -> Result<Response<pb::UserOfAnswer>, Status> {
        let answer = match self.auth.user_of(&identity::caller(&req)?).await.map_err(status)? {
            Some(u) => pb::UserOfAnswer { known: true, operator_level: u.level.number(), disabled: u.disabled, user_id: u.user_id },
            None => pb::UserOfAnswer::default(),
        };
        Ok(Response::new(answer))
    }

    #[tracing::instrument(skip_all)]
    async fn logout(&self, req: Request<Empty>) -> Result<Response<Empty>, Status> {
        self.auth.logout(&identity::caller(&req)?).await.map_err(status)?;
        Ok(Response::new(Empty {}))
    }

    #[tracing::instrument(skip_all)]
    async fn list_users(&self, req: Request<pb::ListUsersRequest>) -> Result<Response<pb::UserPage>, Status> {
        let caller = identity::caller(&req)?;
        let req = req.into_inner();
        let (num, size) = req.page.map_or((1, 10), |p| (p.page_num, p.page_size));
        let page = self.auth.list_users(&caller, &req.keyword, num, size).await.map_err(status)?;
        Ok(Response::new(pb::UserPage {
            total: page.total,
            list: page
                .list
                .into_iter()
                .map(|u| pb::ManagedUser {
                    mail: if u.user_id.contains('@') { u.user_id.clone() } else { String::new() },
                    role: u.level.role().as_str().to_owned(),
                    operator_level: u.level.number(),
                    disabled: u.disabled,
                    created_ms: u.created_ms,
                    user_id: u.user_id,
                })
                .collect(),
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn set_level(&self, req: Request<pb::SetLevelRequest>) -> Result<Response<Empty>, Status> {
        let caller = identity::caller(&req)?;
        let req = req.into_inner();
        self.auth.set_level(&caller, &req.user_id, req.operator_level).await.map_err(status)?;
        Ok(Response::new(Empty {}))
    }

    #[tracing::instrument(skip_all)]
    async fn set_disabled(&self, req: Request<pb::SetDisabledRequest>) -> Result<Response<Empty>, Status> {
        let caller = identity::caller(&req)?;
        let req = req.into_inner();
        self.auth.set_disabled(&caller, &req.user_id, req.disabled).await.map_err(status)?;
        Ok(Response::new(Empty {}))
    }

    #[tracing::instrument(skip_all)]
    async fn apply(&self, req: Request<pb::ApplyRequest>) -> Result<Response<pb::Application>, Status> {
        let caller = identity::caller(&req)?;
        let r = req.into_inner();
        let a = self.auth.apply(&caller, ApplicationInput { name: r.name, contact: r.contact, intro: r.intro }).await.map_err(status)?;
        Ok(Response::new(application_to_pb(a)))
    }

    #[tracing::instrument(skip_all)]
    async fn my_applications(&self, req: Request<Empty>) -> Result<Response<pb::ApplicationPage>, Status> {
        let list = self.auth.my_applications(&identity::caller(&req)?).await.map_err(status)?;
        let total = list.len() as u64;
        Ok(Response::new(application_page(list, total)))
    }

    #[tracing::instrument(skip_all)]
    async fn review_applications(&self, req: Request<pb::ReviewApplicationsRequest>) -> Result<Response<pb::ApplicationPage>, Status> {
        let caller = identity::caller(&req)?;
        let r = req.into_inner();
        let (num, size) = r.page.map_or((1, 10), |p| (p.page_num, p.page_size));
        let (list, total) = self.auth.review_applications(&caller, &r.state, num, size).await.map_err(status)?;
        Ok(Response::new(application_page(list, total)))
    }

    #[tracing::instrument(skip_all, fields(application_id = req.get_ref().id))]
    async fn review_application(&self, req: Request<pb::ApplicationIdRequest>) -> Result<Response<pb::Application>, Status> {
        let caller = identity::caller(&req)?;
        let a = self.auth.review_application(&caller, req.get_ref().id).await.map_err(status)?;
        Ok(Response::new(application_to_pb(a)))
    }

    #[tracing::instrument(skip_all, fields(application_id = req.get_ref().id))]
    async fn decide_application(&self, req: Request<pb::DecideApplicationRequest>) -> Result<Response<pb::Application>, Status> {
        let caller = identity::caller(&req)?;
        let r = req.into_inner();
        let a = self.auth.decide_application(&caller, r.id, r.approve, &r.reason).await.map_err(status)?;
        Ok(Response::new(application_to_pb(a)))
    }
}
