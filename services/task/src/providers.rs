//! Who is a service provider, and who is a user of a tenant (adding an enterprise member), as the
//! task service asks the auth service: with a short service token acting for the user
//! (`ProviderOf`, `UserOf`), never from anything the caller's message says.

use reelforge_kit::identity::{self, Keyring};
use reelforge_proto::auth::auth_service_client::AuthServiceClient;
use reelforge_proto::common::Empty;
use tonic::transport::Channel;

use crate::domain::{Owner, TaskError};
use crate::enterprise::{Directory, Person};
use crate::market::Providers;

/// Seconds the question's service token lives: one call.
const TOKEN_SECONDS: u64 = 60;

/// The auth service at the other end of a channel.
#[derive(Clone)]
pub struct AuthProviders {
    client: AuthServiceClient<Channel>,
    keys: Keyring,
}

impl AuthProviders {
    /// The auth service behind `channel`, asked with service tokens signed by `keys`.
    pub fn new(channel: Channel, keys: Keyring) -> Self {
        Self { client: AuthServiceClient::new(channel), keys }
    }
}

#[async_trait::async_trait]
impl Providers for AuthProviders {
    async fn is_provider(&self, owner: &Owner) -> Result<bool, TaskError> {
        let token = self.keys.service_token(&owner.tenant, Some(&owner.user_id), TOKEN_SECONDS).map_err(|e| TaskError::Providers(e.to_string()))?;
        let req = identity::request(Empty {}, &token).map_err(|e| TaskError::Providers(e.to_string()))?;
        let answer = self.client.clone().provider_of(req).await.map_err(|s| TaskError::Providers(s.message().to_owned()))?;
        Ok(answer.into_inner().provider)
    }
}

#[async_trait::async_trait]
impl Directory for AuthProviders {
    async fn user_of(&self, tenant: &str, named: &str) -> Result<Option<Person>, TaskError> {
        let named = named.trim();
        if named.is_empty() {
            return Ok(None);
        }
        let token = self.keys.service_token(tenant, Some(named), TOKEN_SECONDS).map_err(|e| TaskError::Providers(e.to_string()))?;
        let req = identity::request(Empty {}, &token).map_err(|e| TaskError::Providers(e.to_string()))?;
        let answer = self.client.clone().user_of(req).await.map_err(|s| TaskError::Providers(s.message().to_owned()))?.into_inner();
        Ok(answer.known.then_some(Person { user_id: answer.user_id, disabled: answer.disabled }))
    }
}
