//! The tonic server of the favourite service.

use reelforge_kit::identity;
use reelforge_kit::status::to_status;
use reelforge_proto::common::Empty;
use reelforge_proto::favourite::{self as pb, favourite_service_server::FavouriteService};
use tonic::{Request, Response, Status};

use crate::domain;
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

/// The verified tenant and user the call acts for.
fn owner<T>(req: &Request<T>) -> Result<(String, String), Status> {
    let caller = identity::caller(req)?;
    let (tenant, user) = caller.owner().map_err(to_status)?;
    Ok((tenant.to_owned(), user.to_owned()))
}

#[tonic::async_trait]
impl FavouriteService for FavouriteGrpc {
    #[tracing::instrument(skip_all)]
    async fn add(&self, req: Request<pb::FavouriteRequest>) -> Result<Response<Empty>, Status> {
        let (tenant, user) = owner(&req)?;
        let req = req.into_inner();
        let (id, kind) = domain::parse(&req.id, &req.r#type).map_err(to_status)?;
        self.store.add(&tenant, &user, id, kind).await.map_err(to_status)?;
        Ok(Response::new(Empty {}))
    }

    #[tracing::instrument(skip_all)]
    async fn remove(&self, req: Request<pb::FavouriteRequest>) -> Result<Response<Empty>, Status> {
        let (tenant, user) = owner(&req)?;
        let req = req.into_inner();
        let (id, kind) = domain::parse(&req.id, &req.r#type).map_err(to_status)?;
        self.store.remove(&tenant, &user, &id, &kind).await.map_err(to_status)?;
        Ok(Response::new(Empty {}))
    }

    #[tracing::instrument(skip_all)]
    async fn list(&self, req: Request<pb::ListFavouritesRequest>) -> Result<Response<pb::Favourites>, Status> {
        let (tenant, user) = owner(&req)?;
        let req = req.into_inner();
        let kind = domain::parse_kind_filter(&req.r#type).map_err(to_status)?;
        let items = self.store.list(&tenant, &user, kind.as_deref()).await.map_err(to_status)?;
        Ok(Response::new(pb::Favourites {
            items: items
                .into_iter()
                .map(|f| pb::Favourite { id: f.id, r#type: f.kind, phone_number: f.user_id, created_ms: f.created_ms })
                .collect(),
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn add_search(&self, req: Request<pb::SearchKeyword>) -> Result<Response<pb::SearchKeywords>, Status> {
        let (tenant, user) = owner(&req)?;
        let keyword = domain::parse_keyword(&req.into_inner().keyword).map_err(to_status)?;
        let keywords = self.store.add_search(&tenant, &user, keyword).await.map_err(to_status)?;
        Ok(Response::new(pb::SearchKeywords { keywords }))
    }

    #[tracing::instrument(skip_all)]
    async fn search_history(&self, req: Request<Empty>) -> Result<Response<pb::SearchKeywords>, Status> {
        let (tenant, user) = owner(&req)?;
        let keywords = self.store.search_history(&tenant, &user).await.map_err(to_status)?;
        Ok(Response::new(pb::SearchKeywords { keywords }))
    }

    #[tracing::instrument(skip_all)]
    async fn clear_search(&self, req: Request<Empty>) -> Result<Response<Empty>, Status> {
        let (tenant, user) = owner(&req)?;
        self.store.clear_search(&tenant, &user).await.map_err(to_status)?;
        Ok(Response::new(Empty {}))
    }
}
