//! The material library as the task service asks it: the material service, called with a short
//! service token acting for the document's owner, answers which materials the owner may use (their
//! own and the tenant's system ones, not deleted), so a save or run naming another user's private
//! material by address is refused before anything renders.

use std::collections::BTreeSet;

use reelforge_kit::identity::{self, Keyring};
use reelforge_proto::material::GetManyRequest;
use reelforge_proto::material::material_service_client::MaterialServiceClient;
use tonic::transport::Channel;

use crate::domain::{Library, Owner, TaskError};

/// Seconds the library's service token lives: one call.
const TOKEN_SECONDS: u64 = 60;

/// The material service at the other end of a channel.
#[derive(Clone)]
pub struct MaterialLibrary {
    client: MaterialServiceClient<Channel>,
    keys: Keyring,
}

impl MaterialLibrary {
    /// The library behind `channel`, asked with service tokens signed by `keys`.
    pub fn new(channel: Channel, keys: Keyring) -> Self {
        Self { client: MaterialServiceClient::new(channel), keys }
    }

    /// Whether the owner may see every one of `ids` (the service answers NotFound for a batch
    /// naming any other).
    async fn all_visible(&self, owner: &Owner, ids: &[String]) -> Result<bool, TaskError> {
        let token = self
            .keys
            .service_token(&owner.tenant, Some(&owner.user_id), TOKEN_SECONDS)
            .map_err(|e| TaskError::Library(e.to_string()))?;
        let req = identity::request(GetManyRequest { ids: ids.to_vec() }, &token).map_err(|e| TaskError::Library(e.to_string()))?;
        match self.client.clone().get_many(req).await {
            Ok(_) => Ok(true),
            Err(s) if matches!(s.code(), tonic::Code::NotFound | tonic::Code::InvalidArgument) => Ok(false),
            Err(s) => Err(TaskError::Library(s.message().to_owned())),
        }
    }
}

#[async_trait::async_trait]
impl Library for MaterialLibrary {
    async fn usable(&self, owner: &Owner, ids: &[String]) -> Result<BTreeSet<String>, TaskError> {
        // A document of no user (the starters) names no library material.
        if owner.user_id.is_empty() || ids.is_empty() {
            return Ok(BTreeSet::new());
        }
        if self.all_visible(owner, ids).await? {
            return Ok(ids.iter().cloned().collect());
        }
        let mut usable = BTreeSet::new();
        for id in ids {
            if self.all_visible(owner, std::slice::from_ref(id)).await? {
                usable.insert(id.clone());
            }
        }
        Ok(usable)
    }
}
