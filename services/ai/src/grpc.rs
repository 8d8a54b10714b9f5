//! The tonic server: domain abilities become proto messages here.

use reelforge_proto::ai::{self as pb, ai_service_server::AiService};
use tonic::{Request, Response, Status};

use crate::domain::{self, Ability};

/// The gRPC face of the ai service.
#[derive(Debug, Default, Clone)]
pub struct AiGrpc;

impl AiGrpc {
    /// Builds the server.
    pub fn new() -> Self {
        Self
    }
}

fn to_pb(a: Ability) -> pb::Ability {
    pb::Ability {
        key: a.key.to_owned(),
        group: a.group.as_str().to_owned(),
        name_zh: a.name_zh.to_owned(),
        name_en: a.name_en.to_owned(),
        has_page: a.has_page,
        available: a.available,
    }
}

#[tonic::async_trait]
impl AiService for AiGrpc {
    #[tracing::instrument(skip_all)]
    async fn list_abilities(&self, req: Request<pb::ListAbilitiesRequest>) -> Result<Response<pb::Abilities>, Status> {
        let tenant = reelforge_kit::identity::caller(&req)?.tenant;
        Ok(Response::new(pb::Abilities { items: domain::catalogue(&tenant).into_iter().map(to_pb).collect() }))
    }
}
