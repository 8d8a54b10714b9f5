//! The tonic server: proto ⇄ domain conversions; errors become statuses here, once.

use std::sync::Arc;

use reelforge_kit::identity::{self, OperatorLevel, Role};
use reelforge_kit::status::to_status;
use reelforge_proto::category::{self as pb, category_service_server::CategoryService};
use reelforge_proto::common::Empty;
use tonic::{Request, Response, Status};

use crate::domain::{self, Category, Dimension};
use crate::store::CategoryStore;
use crate::uses::CategoryUses;

/// The gRPC face of the category service.
pub struct CategoryGrpc {
    store: CategoryStore,
    uses: Arc<dyn CategoryUses>,
}

impl CategoryGrpc {
    /// Serves `store`, asking `uses` where a category is used before deleting it.
    pub fn new(store: CategoryStore, uses: Arc<dyn CategoryUses>) -> Self {
        Self { store, uses }
    }
}

/// The caller's tenant: anyone with a valid token of the tenant reads its tree.
fn tenant<T>(req: &Request<T>) -> Result<String, Status> {
    Ok(identity::caller(req)?.tenant)
}

/// The tenant of a template manager or an administrator (the maintenance area); changing the
/// tree is theirs alone.
fn manager<T>(req: &Request<T>) -> Result<String, Status> {
    let caller = identity::caller(req)?;
    if caller.level != Some(OperatorLevel::Admin) {
        caller.require_role(Role::TemplateManager).map_err(to_status)?;
    }
    caller.require_user().map_err(to_status)?;
    Ok(caller.tenant)
}

fn to_pb(c: Category) -> pb::Category {
    pb::Category {
        category_id: c.id,
        category_name: c.name,
        dimension: c.dimension.as_str().to_owned(),
        higher_up_id: c.higher_up_id,
        push: c.push,
        children: c.children.into_iter().map(to_pb).collect(),
    }
}

#[tonic::async_trait]
impl CategoryService for CategoryGrpc {
    #[tracing::instrument(skip_all)]
    async fn list(&self, req: Request<pb::ListCategoriesRequest>) -> Result<Response<pb::CategoryTree>, Status> {
        let tenant = tenant(&req)?;
        let req = req.into_inner();
        let dimension = if req.dimension.is_empty() { None } else { Some(Dimension::parse(&req.dimension).map_err(to_status)?) };
        let rows = self.store.list(&tenant, dimension).await.map_err(to_status)?;
        Ok(Response::new(pb::CategoryTree { data_list: domain::into_tree(rows).into_iter().map(to_pb).collect() }))
    }

    #[tracing::instrument(skip_all)]
    async fn create(&self, req: Request<pb::CreateCategoryRequest>) -> Result<Response<pb::Category>, Status> {
        let tenant = manager(&req)?;
        let req = req.into_inner();
        let name = domain::parse_name(&req.category_name).map_err(to_status)?;
        let dimension = Dimension::parse(&req.dimension).map_err(to_status)?;
        let c = self.store.create(&tenant, name, dimension, req.higher_up_id).await.map_err(to_status)?;
        Ok(Response::new(to_pb(c)))
    }

    #[tracing::instrument(skip_all)]
    async fn rename(&self, req: Request<pb::RenameCategoryRequest>) -> Result<Response<pb::Category>, Status> {
        let tenant = manager(&req)?;
        let req = req.into_inner();
        let name = domain::parse_name(&req.category_name).map_err(to_status)?;
        let c = self.store.rename(&tenant, req.category_id, name).await.map_err(to_status)?;
        Ok(Response::new(to_pb(c)))
    }

    #[tracing::instrument(skip_all)]
    async fn set_push(&self, req: Request<pb::SetPushRequest>) -> Result<Response<Empty>, Status> {
        let tenant = manager(&req)?;
        let req = req.into_inner();
        let ids = domain::parse_push_ids(&req.ids).map_err(to_status)?;
        self.store.set_push(&tenant, &ids, req.push).await.map_err(to_status)?;
        Ok(Response::new(Empty {}))
    }

    #[tracing::instrument(skip_all)]
    async fn delete(&self, req: Request<pb::DeleteCategoryRequest>) -> Result<Response<Empty>, Status> {
        let tenant = manager(&req)?;
        let req = req.into_inner();
        let (category, children) = self.store.with_children(&tenant, req.category_id).await.map_err(to_status)?;
        let ids: Vec<i64> = std::iter::once(category.id).chain(children).collect();
        let used = self.uses.uses(&tenant, &ids).await.map_err(to_status)?;
        domain::check_unused(&category.name, &used).map_err(to_status)?;
        self.store.delete(&tenant, req.category_id).await.map_err(to_status)?;
        Ok(Response::new(Empty {}))
    }
}
