//! The tonic server: domain abilities become proto messages here.

use std::sync::Arc;

use reelforge_proto::ai::{self as pb, ai_service_server::AiService};
use tonic::{Request, Response, Status};

use crate::abilities;
use crate::domain;
use crate::provider::{AiError, Providers};

/// The gRPC face of the ai service.
#[derive(Debug, Clone)]
pub struct AiGrpc {
    providers: Arc<Providers>,
}

impl AiGrpc {
    /// Builds the server on the `[ai]` configuration.
    pub fn new(config: reelforge_kit::config::AiConfig) -> Self {
        Self { providers: Arc::new(Providers::new(config)) }
    }
}

/// A failed ability call as a status whose message names the cause: bad input is
/// `InvalidArgument`, an ability with no working provider `FailedPrecondition` (its reason code
/// first, and in the reason metadata the gateway answers as `data.reason`), a provider that timed
/// out `DeadlineExceeded`, one that failed or refused `Aborted`.
fn status(e: AiError) -> Status {
    match &e {
        AiError::BadInput(_) => Status::invalid_argument(e.to_string()),
        AiError::Unavailable(u) => {
            let mut s = Status::failed_precondition(e.to_string());
            if let Ok(code) = u.code.parse() {
                s.metadata_mut().insert(reelforge_kit::status::REASON_METADATA, code);
            }
            s
        }
        AiError::Timeout(_) => Status::deadline_exceeded(e.to_string()),
        AiError::Upstream(_) | AiError::Refused { .. } => Status::aborted(e.to_string()),
        AiError::Cancelled => Status::cancelled(e.to_string()),
    }
}

impl AiGrpc {
    /// An ability as listed to `tenant`, with whether its provider serves it now.
    async fn item(&self, tenant: &str, a: domain::Ability) -> pb::Ability {
        let state = self.providers.status(tenant, a.key).await;
        pb::Ability {
            key: a.key.to_owned(),
            group: a.group.as_str().to_owned(),
            name_zh: a.name_zh.to_owned(),
            name_en: a.name_en.to_owned(),
            has_page: a.has_page,
            available: state.is_ok(),
            provider: self.providers.configured(tenant, a.key).provider,
            reason_code: state.as_ref().err().map(|u| u.code.to_owned()).unwrap_or_default(),
            reason: state.err().map(|u| u.words).unwrap_or_default(),
        }
    }
}

#[tonic::async_trait]
impl AiService for AiGrpc {
    #[tracing::instrument(skip_all)]
    async fn list_abilities(&self, req: Request<pb::ListAbilitiesRequest>) -> Result<Response<pb::Abilities>, Status> {
        let tenant = reelforge_kit::identity::caller(&req)?.tenant;
        let mut items = Vec::new();
        for a in domain::catalogue(&tenant) {
            items.push(self.item(&tenant, a).await);
        }
        Ok(Response::new(pb::Abilities { items }))
    }

    #[tracing::instrument(skip_all, fields(key = %req.get_ref().key))]
    async fn get_ability(&self, req: Request<pb::GetAbilityRequest>) -> Result<Response<pb::Ability>, Status> {
        let tenant = reelforge_kit::identity::caller(&req)?.tenant;
        let key = req.into_inner().key;
        let a = domain::catalogue(&tenant)
            .into_iter()
            .find(|a| a.key == key)
            .ok_or_else(|| Status::not_found(format!("ability `{key}` is not in the catalogue")))?;
        Ok(Response::new(self.item(&tenant, a).await))
    }

    #[tracing::instrument(skip_all)]
    async fn generate_text(&self, req: Request<pb::GenerateTextRequest>) -> Result<Response<pb::GeneratedText>, Status> {
        let tenant = reelforge_kit::identity::caller(&req)?.tenant;
        let r = req.into_inner();
        let (text, model) = abilities::generate_text(&self.providers, &tenant, &r.ability, &r.text, &r.language).await.map_err(status)?;
        Ok(Response::new(pb::GeneratedText { text, model }))
    }

    #[tracing::instrument(skip_all)]
    async fn extract_keywords(&self, req: Request<pb::ExtractKeywordsRequest>) -> Result<Response<pb::Keywords>, Status> {
        let tenant = reelforge_kit::identity::caller(&req)?.tenant;
        self.providers.status(&tenant, "keyword-extraction").await.map_err(|u| status(AiError::Unavailable(u)))?;
        let r = req.into_inner();
        let items = abilities::extract_keywords(&r.text, r.top_n as usize).await.map_err(status)?;
        Ok(Response::new(pb::Keywords { items: items.into_iter().map(|(word, weight)| pb::Keyword { word, weight }).collect() }))
    }
}
