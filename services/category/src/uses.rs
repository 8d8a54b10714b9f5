//! Where a category is used, asked before it is deleted: templates file themselves under the
//! tenant's categories, and the task service that keeps them answers for them.

use reelforge_kit::identity::{self, Keyring};
use reelforge_proto::task::CategoryUseRequest;
use reelforge_proto::task::task_service_client::TaskServiceClient;
use tonic::transport::Channel;

use crate::domain::{CategoryError, Use};

/// Seconds the service token of one question lives.
const TOKEN_SECONDS: u64 = 60;

/// Answers where categories are used.
#[async_trait::async_trait]
pub trait CategoryUses: Send + Sync + 'static {
    /// The use of any of `ids` (a category with its children) in `tenant`.
    async fn uses(&self, tenant: &str, ids: &[i64]) -> Result<Use, CategoryError>;
}

/// The task service at the other end of a channel, asked with a service token of the tenant.
#[derive(Clone)]
pub struct TemplateUses {
    client: TaskServiceClient<Channel>,
    keys: Keyring,
}

impl TemplateUses {
    /// The task service behind `channel`, asked with service tokens signed by `keys`.
    pub fn new(channel: Channel, keys: Keyring) -> Self {
        Self { client: TaskServiceClient::new(channel), keys }
    }
}

#[async_trait::async_trait]
impl CategoryUses for TemplateUses {
    async fn uses(&self, tenant: &str, ids: &[i64]) -> Result<Use, CategoryError> {
        let token = self.keys.service_token(tenant, None, TOKEN_SECONDS).map_err(|e| CategoryError::Uses(e.to_string()))?;
        let req = identity::request(CategoryUseRequest { category_ids: ids.to_vec() }, &token)
            .map_err(|e| CategoryError::Uses(e.to_string()))?;
        let r = self.client.clone().category_use(req).await.map_err(|s| CategoryError::Uses(s.message().to_owned()))?.into_inner();
        Ok(Use { templates: r.templates, names: r.names })
    }
}
