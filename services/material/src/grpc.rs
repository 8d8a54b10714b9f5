//! The tonic server: proto ⇄ domain conversions; errors become statuses here, once.

use reelforge_kit::identity::{self, TokenKind};
use reelforge_kit::status::to_status;
use reelforge_proto::material::{self as pb, material_service_server::MaterialService};
use tonic::{Request, Response, Status};

use crate::domain::{Material, MaterialKind, MaterialQuery, Owner, PageRequest};
use crate::store::MaterialStore;

/// The gRPC face of the material service.
pub struct MaterialGrpc {
    store: MaterialStore,
}

impl MaterialGrpc {
    /// Serves `store`.
    pub fn new(store: MaterialStore) -> Self {
        Self { store }
    }
}

/// Whose materials the call sees: the verified user's (and the tenant's system ones); a service
/// token acting for no user sees only the tenant's system materials.
fn owner<T>(req: &Request<T>) -> Result<Owner, Status> {
    let caller = identity::caller(req)?;
    match (caller.kind, caller.user_id) {
        (_, Some(user_id)) => Ok(Owner { tenant: caller.tenant, user_id }),
        (TokenKind::Service, None) => Ok(Owner { tenant: caller.tenant, user_id: String::new() }),
        (TokenKind::User, None) => Err(to_status(identity::IdentityError::Invalid)),
    }
}

fn create_date(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M:%S").to_string())
        .unwrap_or_default()
}

fn to_pb(m: Material) -> pb::Material {
    pb::Material {
        material_id: m.id,
        material_name: m.name,
        r#type: m.kind.as_str().to_owned(),
        category_id: m.category_id,
        open_state: m.open_state,
        relative_path: m.relative_path,
        picture_path: m.picture_path,
        time_length: m.time_length,
        size: m.size,
        material_state: m.material_state,
        create_date: create_date(m.created_ms),
    }
}

#[tonic::async_trait]
impl MaterialService for MaterialGrpc {
    #[tracing::instrument(skip_all)]
    async fn list(&self, req: Request<pb::ListMaterialsRequest>) -> Result<Response<pb::MaterialPage>, Status> {
        let owner = owner(&req)?;
        let req = req.into_inner();
        let kind = if req.r#type.is_empty() { None } else { Some(MaterialKind::parse(&req.r#type).map_err(to_status)?) };
        let page = req.page.map(|p| PageRequest::new(p.page_num, p.page_size)).unwrap_or(PageRequest::new(0, 0));
        let query = MaterialQuery { kind, category_id: (req.category_id > 0).then_some(req.category_id), system: req.system, page };
        let (rows, total) = self.store.list(&owner, &query).await.map_err(to_status)?;
        Ok(Response::new(pb::MaterialPage { items: rows.into_iter().map(to_pb).collect(), total }))
    }

    #[tracing::instrument(skip_all)]
    async fn get(&self, req: Request<pb::GetMaterialRequest>) -> Result<Response<pb::Material>, Status> {
        let owner = owner(&req)?;
        let req = req.into_inner();
        let m = self.store.get(&owner, &req.material_id).await.map_err(to_status)?;
        Ok(Response::new(to_pb(m)))
    }
}
