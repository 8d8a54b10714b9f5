//! The material library as the task service asks it: the material service, called with a short
//! service token acting for the document's owner, answers which materials the owner may use (their
//! own and the tenant's system ones, not deleted), so a save or run naming another user's private
//! material by address is refused before anything renders; and what its probe found of them (kind,
//! state, length), which one-click filming cuts the clips by.

use std::collections::BTreeSet;

use reelforge_kit::identity::{self, Keyring};
use reelforge_proto::material::{GetManyRequest, Material};
use reelforge_proto::material::material_service_client::MaterialServiceClient;
use tonic::transport::Channel;

use crate::domain::{Library, MaterialFacts, Owner, TaskError};
use crate::enterprise::OwnMaterial;

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

    /// The materials of `ids` as the owner sees them, or `None` when the owner may not see every
    /// one of them (the service answers NotFound for a batch naming any other).
    async fn get_many(&self, owner: &Owner, ids: &[String]) -> Result<Option<Vec<Material>>, TaskError> {
        let token = self
            .keys
            .service_token(&owner.tenant, Some(&owner.user_id), TOKEN_SECONDS)
            .map_err(|e| TaskError::Library(e.to_string()))?;
        let req = identity::request(GetManyRequest { ids: ids.to_vec() }, &token).map_err(|e| TaskError::Library(e.to_string()))?;
        match self.client.clone().get_many(req).await {
            Ok(r) => Ok(Some(r.into_inner().items)),
            Err(s) if matches!(s.code(), tonic::Code::NotFound | tonic::Code::InvalidArgument) => Ok(None),
            Err(s) => Err(TaskError::Library(s.message().to_owned())),
        }
    }

    /// The materials of `ids` the owner may see: the batch at once, or one by one when it names any
    /// the owner may not.
    async fn visible(&self, owner: &Owner, ids: &[String]) -> Result<Vec<Material>, TaskError> {
        if let Some(all) = self.get_many(owner, ids).await? {
            return Ok(all);
        }
        let mut seen = Vec::new();
        for id in ids {
            seen.extend(self.get_many(owner, std::slice::from_ref(id)).await?.into_iter().flatten());
        }
        Ok(seen)
    }
}

#[async_trait::async_trait]
impl Library for MaterialLibrary {
    async fn usable(&self, owner: &Owner, ids: &[String]) -> Result<BTreeSet<String>, TaskError> {
        // A document of no user (the starters) names no library material.
        if owner.user_id.is_empty() || ids.is_empty() {
            return Ok(BTreeSet::new());
        }
        if self.get_many(owner, ids).await?.is_some() {
            return Ok(ids.iter().cloned().collect());
        }
        let mut usable = BTreeSet::new();
        for id in ids {
            if self.get_many(owner, std::slice::from_ref(id)).await?.is_some() {
                usable.insert(id.clone());
            }
        }
        Ok(usable)
    }

    async fn facts(&self, owner: &Owner, ids: &[String]) -> Result<Vec<MaterialFacts>, TaskError> {
        if owner.user_id.is_empty() || ids.is_empty() {
            return Ok(Vec::new());
        }
        let facts = self.visible(owner, ids).await?.into_iter().map(|m| MaterialFacts {
            id: m.material_id,
            kind: m.r#type,
            state: m.state,
            // The probe's length in seconds; a still, or a row not yet probed, has none.
            duration_ms: if m.time_length.is_finite() && m.time_length > 0.0 { (m.time_length * 1000.0).round() as u64 } else { 0 },
        });
        Ok(facts.collect())
    }

    async fn own_material(&self, owner: &Owner, id: &str) -> Result<Option<OwnMaterial>, TaskError> {
        if owner.user_id.is_empty() || id.trim().is_empty() {
            return Ok(None);
        }
        // The owner sees their own materials and the tenant's system ones: only the first are theirs to share.
        let found = self.get_many(owner, &[id.trim().to_owned()]).await?.into_iter().flatten().find(|m| !m.system);
        Ok(found.map(|m| OwnMaterial { id: m.material_id, name: m.material_name, kind: m.r#type, video_key: m.relative_path, cover_key: m.picture_path }))
    }
}
