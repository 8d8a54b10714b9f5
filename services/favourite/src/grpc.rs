//! The tonic server of the favourite service.

use reelforge_kit::status::to_status;
use reelforge_proto::common::{Caller, Empty};
use reelforge_proto::favourite::{self as pb, favourite_service_server::FavouriteService};
use tonic::{Request, Response, Status};

use crate::domain::{self, FavouriteError};
use crate::store::FavouriteStore;

/// The gRPC face of the favourite service.
pub struct FavouriteGrpc {
    store: FavouriteStore,
}

impl FavouriteGrpc {
    /// Serves `store`.
    pub fn new(store: FavouriteStore) -> Self {
        Self { store }
    }
}

fn owner(caller: Option<Caller>) -> Result<(String, String), Status> {
    match caller {
        Some(c) if !c.tenant.is_empty() && !c.user_id.is_empty() => Ok((c.tenant, c.user_id)),
        _ => Err(to_status(FavouriteError::Invalid("caller: tenant and user are required".into()))),
    }
}

#[tonic::async_trait]
impl FavouriteService for FavouriteGrpc {
    #[tracing::instrument(skip_all)]
    async fn add(&self, req: Request<pb::FavouriteRequest>) -> Result<Response<Empty>, Status> {
        let req = req.into_inner();
        let (tenant, user) = owner(req.caller)?;
        let (id, kind) = domain::parse(&req.id, &req.r#type).map_err(to_status)?;
        self.store.add(&tenant, &user, id, kind).await.map_err(to_status)?;
        Ok(Response::new(Empty {}))
    }

    #[tracing::instrument(skip_all)]
    async fn remove(&self, req: Request<pb::FavouriteRequest>) -> Result<Response<Empty>, Status> {
        let req = req.into_inner();
        let (tenant, user) = owner(req.caller)?;
        let (id, kind) = domain::parse(&req.id, &req.r#type).map_err(to_status)?;
        self.store.remove(&tenant, &user, &id, &kind).await.map_err(to_status)?;
        Ok(Response::new(Empty {}))
    }

    #[tracing::instrument(skip_all)]
    async fn list(&self, req: Request<pb::ListFavouritesRequest>) -> Result<Response<pb::Favourites>, Status> {
        let req = req.into_inner();
        let (tenant, user) = owner(req.caller)?;
        let kind = (!req.r#type.is_empty()).then_some(req.r#type.as_str());
        let items = self.store.list(&tenant, &user, kind).await.map_err(to_status)?;
        Ok(Response::new(pb::Favourites {
            items: items
                .into_iter()
                .map(|f| pb::Favourite { id: f.id, r#type: f.kind, phone_number: f.user_id })
                .collect(),
        }))
    }
}
