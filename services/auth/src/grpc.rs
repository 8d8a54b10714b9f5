//! The tonic server: proto ⇄ domain conversions; errors become statuses here, once.

use reelforge_kit::status::to_status;
use reelforge_proto::auth::{self as pb, auth_service_server::AuthService};
use tonic::{Request, Response, Status};

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

#[tonic::async_trait]
impl AuthService for AuthGrpc {
    #[tracing::instrument(skip_all, fields(tenant = %req.get_ref().tenant))]
    async fn send_code(&self, req: Request<pb::SendCodeRequest>) -> Result<Response<pb::SendCodeReply>, Status> {
        let req = req.into_inner();
        let after = self.auth.send_code(&req.tenant, &req.mail).await.map_err(to_status)?;
        Ok(Response::new(pb::SendCodeReply { resend_after_seconds: u32::try_from(after).unwrap_or(u32::MAX) }))
    }

    #[tracing::instrument(skip_all, fields(tenant = %req.get_ref().tenant))]
    async fn login(&self, req: Request<pb::LoginRequest>) -> Result<Response<pb::LoginReply>, Status> {
        let req = req.into_inner();
        let login = self.auth.login(&req.tenant, &req.mail, &req.code).await.map_err(to_status)?;
        Ok(Response::new(pb::LoginReply {
            token: login.token,
            user_id: login.user_id,
            role: login.role.as_str().to_owned(),
            operator_level: login.operator_level,
        }))
    }

    #[tracing::instrument(skip_all, fields(tenant = %req.get_ref().tenant))]
    async fn verify(&self, req: Request<pb::VerifyRequest>) -> Result<Response<pb::VerifyReply>, Status> {
        let req = req.into_inner();
        let caller = self.auth.verify(&req.token, &req.tenant).map_err(to_status)?;
        Ok(Response::new(pb::VerifyReply { caller: Some(caller) }))
    }
}
