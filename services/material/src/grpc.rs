//! The tonic server: proto ⇄ domain conversions; errors become statuses here, once.

use reelforge_kit::identity::{self, Identity, OperatorLevel, Role, TokenKind};
use reelforge_kit::status::{DETAILS_METADATA, REASON_METADATA, to_status};
use reelforge_kit::{BlobError, BlobStore};
use reelforge_proto::material::{self as pb, material_service_server::MaterialService};
use tonic::{Request, Response, Status};

use crate::domain::{
    self, Material, MaterialError, MaterialKind, MaterialQuery, MediaLimits, Order, Orientation, Owner, PageRequest, Quota, Usage,
};
use crate::processing::{Local, Prober};
use crate::probe;
use crate::starter::Starter;
use crate::store::{Choice, MaterialStore, Upload};
use crate::system;

/// The gRPC face of the material service.
pub struct MaterialGrpc {
    store: MaterialStore,
    storage: Option<(BlobStore, Prober, Starter)>,
    quota: Quota,
    limits: MediaLimits,
}

impl MaterialGrpc {
    /// Serves `store` without blob storage: the library reads work, uploads and deletes of files
    /// answer 'not available' (so no quota applies).
    pub fn new(store: MaterialStore) -> Self {
        Self { store, storage: None, quota: Quota::default(), limits: MediaLimits::default() }
    }

    /// Serves `store` with the files in `blob`, accepting uploads within `limits`, recording them
    /// within `quota` and probing them in the background.
    pub fn with_storage(store: MaterialStore, blob: BlobStore, quota: Quota, limits: MediaLimits) -> Self {
        let prober = Prober::new(store.clone(), blob.clone());
        let starter = Starter::new(store.clone(), blob.clone());
        Self { store, storage: Some((blob, prober, starter)), quota, limits }
    }

    /// The prober, to resume materials left processing.
    pub fn prober(&self) -> Option<Prober> {
        self.storage.as_ref().map(|(_, p, _)| p.clone())
    }

    fn blob(&self) -> Result<&BlobStore, Status> {
        self.storage.as_ref().map(|(b, _, _)| b).ok_or_else(|| to_status(MaterialError::NoStorage))
    }

    /// Removes every object of `m`: the whole directory of an upload, or the file and picture of
    /// an older row. A failure is logged, not returned: the rows are already gone.
    async fn remove_objects(&self, m: &Material) {
        let Ok(blob) = self.blob() else { return };
        let dir = domain::derived_key(&m.relative_path, "");
        let keys = if m.relative_path.starts_with("t/") && dir.ends_with('/') {
            blob.list(&dir).await.unwrap_or_else(|e| {
                tracing::error!(material = %m.id, error = %e, "material objects not listed");
                vec![m.relative_path.clone()]
            })
        } else {
            vec![m.relative_path.clone(), m.probed.cover_key.clone()]
        };
        for key in keys.iter().filter(|k| !k.is_empty()) {
            if let Err(e) = blob.delete(key).await {
                tracing::error!(material = %m.id, %key, error = %e, "material object not removed");
            }
        }
    }

    /// Records an administrator's upload into a system category: the file is inspected as a user's
    /// upload is, listed as its category says, offered at once and probed in the background; a
    /// refusal removes the object.
    async fn record_system(&self, tenant: &str, req: pb::RecordMaterialRequest) -> Result<pb::RecordMaterialReply, Status> {
        let (blob, prober, _) = self.storage.as_ref().ok_or_else(|| to_status(MaterialError::NoStorage))?;
        let recorded = async {
            let file = MaterialKind::parse(&req.r#type)?;
            let listed = system::library_kind(req.category_id, file)?;
            let id = system::parse_key(tenant, &req.key, file)?;
            let stored = match blob.size(&req.key).await {
                Ok(n) => n,
                Err(BlobError::NotFound(_)) => return Err(MaterialError::Invalid(format!("key: nothing is stored under `{}`", req.key))),
                Err(e) => return Err(MaterialError::Blob(e)),
            };
            if stored != req.file_size {
                return Err(MaterialError::Invalid(format!("fileSize: {} bytes stored, {} announced", stored, req.file_size)));
            }
            let name = domain::parse_name(&req.name)?;
            let style_id = system::check_style(req.style_id)?;
            let local = Local::download(blob, &req.key).await.map_err(MaterialError::Scratch)?;
            let (at, ext, limits) = (local.path.clone(), local.ext(), self.limits);
            tokio::task::spawn_blocking(move || probe::inspect(&at, file, &ext, &limits))
                .await
                .map_err(|e| MaterialError::Scratch(e.to_string()))??;
            let up = Upload {
                id,
                key: req.key.clone(),
                kind: listed,
                name,
                file_size: stored,
                category_id: req.category_id,
                style_id,
                open_state: system::OFFERED,
                sha256: String::new(),
            };
            Ok((self.store.record_system(tenant, up).await?, local))
        }
        .await;
        match recorded {
            Ok((m, local)) => {
                prober.spawn_with(m.clone(), Some(local));
                Ok(pb::RecordMaterialReply { material: Some(to_pb(m)), duplicate: false })
            }
            Err(e) => {
                if let Err(d) = blob.delete(&req.key).await {
                    tracing::error!(key = %req.key, error = %d, "unrecorded system upload not removed");
                }
                Err(refusal(e))
            }
        }
    }

    async fn delete_all(&self, owner: &Owner, doomed: Vec<Material>, soft: bool) -> Result<pb::DeleteReply, Status> {
        if self.storage.is_none() {
            return Err(to_status(MaterialError::NoStorage));
        }
        let ids: Vec<String> = doomed.iter().map(|m| m.id.clone()).collect();
        self.store.delete(owner, &ids, soft).await.map_err(to_status)?;
        for m in &doomed {
            self.remove_objects(m).await;
        }
        Ok(pb::DeleteReply { deleted: ids })
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

/// A signed-in user (or a service acting for one): calls that change a user's materials.
fn user<T>(req: &Request<T>) -> Result<Owner, Status> {
    let o = owner(req)?;
    if o.user_id.is_empty() {
        return Err(to_status(identity::IdentityError::WrongKind("a user's token is required")));
    }
    Ok(o)
}

/// The tenant of an administrator (operator level 0): the system library is theirs to keep.
fn administrator<T>(req: &Request<T>) -> Result<String, Status> {
    let caller = identity::caller(req)?;
    caller.require_admin().map_err(to_status)?;
    Ok(caller.tenant)
}

/// Whether the caller may decide audits: TEMPLATE_MANAGER or administrator.
fn is_auditor(caller: &Identity) -> bool {
    caller.level == Some(OperatorLevel::Admin) || caller.role() == Some(Role::TemplateManager)
}

/// The tenant of an auditor (the manage area's queues and the system music library).
fn auditor<T>(req: &Request<T>) -> Result<String, Status> {
    auditor_identity(&identity::caller(req)?)
}

fn auditor_identity(caller: &Identity) -> Result<String, Status> {
    if !is_auditor(caller) {
        return Err(to_status(MaterialError::Forbidden("the manage area needs TEMPLATE_MANAGER".into())));
    }
    Ok(caller.tenant.clone())
}

/// The tenant of whoever may keep system materials of `category_id`: administrators any, and
/// template managers the music library (the manage area's music content).
fn system_keeper<T>(req: &Request<T>, category_id: i64) -> Result<String, Status> {
    if category_id == crate::starter::catalogue::MUSIC { auditor(req) } else { administrator(req) }
}

/// The library kinds of a review queue: stickers (pictures, GIFs), art words, dynamic words.
fn queue_kinds(types: &[String]) -> Result<Vec<MaterialKind>, Status> {
    if types.is_empty() {
        return Err(to_status(MaterialError::Invalid("types: no material type given".into())));
    }
    types.iter().map(|t| MaterialKind::parse(t).map_err(to_status)).collect()
}

fn create_date(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M:%S").to_string())
        .unwrap_or_default()
}

fn usage_to_pb(u: Usage, q: &Quota) -> pb::UsageReply {
    pb::UsageReply {
        used_bytes: u.bytes,
        limit_bytes: q.user_bytes,
        materials: u.materials,
        limit_materials: q.user_materials,
        tenant_used_bytes: u.tenant_bytes,
        tenant_limit_bytes: q.tenant_bytes,
        tenant_materials: u.tenant_materials,
        tenant_limit_materials: q.tenant_materials,
    }
}

fn to_pb(m: Material) -> pb::Material {
    let p = m.probed;
    pb::Material {
        material_id: m.id,
        material_name: m.name,
        r#type: m.kind.as_str().to_owned(),
        category_id: m.category_id,
        open_state: m.open_state,
        relative_path: m.relative_path,
        picture_path: p.cover_key,
        time_length: p.duration,
        size: m.size,
        material_state: m.material_state,
        create_date: create_date(m.created_ms),
        state: m.state.as_str().to_owned(),
        fail_reason: m.fail_reason,
        file_size: m.file_size,
        width: p.width,
        height: p.height,
        frame_rate: p.frame_rate,
        rotation: p.rotation,
        has_audio: p.has_audio,
        codec: p.codec,
        filmstrip_path: p.filmstrip_key,
        waveform_path: p.waveform_key,
        preview_path: p.preview_key,
        style_id: m.style_id,
        audit_reason: m.audit_reason,
        created_ms: m.created_ms,
        system: m.system,
    }
}

/// The status of a failed `Record`: a refused upload carries its stable reason in the
/// `x-reason` metadata, which the gateway answers as `data.reason`; a quota refusal carries the
/// usage and limits in `x-details`, which the gateway answers beside it.
fn refusal(e: MaterialError) -> Status {
    let reason = e.reason();
    let usage = match &e {
        MaterialError::QuotaExceeded { usage, quota, .. } => Some(usage_to_pb(*usage, quota)),
        _ => None,
    };
    let mut status = to_status(e);
    if let Some(value) = reason.and_then(|r| r.parse().ok()) {
        status.metadata_mut().insert(REASON_METADATA, value);
    }
    if let Some(u) = usage {
        let fields = [
            ("usedBytes", u.used_bytes),
            ("limitBytes", u.limit_bytes),
            ("materials", u.materials),
            ("limitMaterials", u.limit_materials),
            ("tenantUsedBytes", u.tenant_used_bytes),
            ("tenantLimitBytes", u.tenant_limit_bytes),
            ("tenantMaterials", u.tenant_materials),
            ("tenantLimitMaterials", u.tenant_limit_materials),
        ];
        let text = fields.iter().map(|(k, v)| format!("{k}={v}")).collect::<Vec<_>>().join(";");
        if let Ok(value) = text.parse() {
            status.metadata_mut().insert(DETAILS_METADATA, value);
        }
    }
    status
}

/// The SHA-256 of the file at `path`, lower-case hex.
fn sha256_of(path: &std::path::Path) -> std::io::Result<String> {
    use sha2::Digest;
    let mut hasher = sha2::Sha256::new();
    std::io::copy(&mut std::fs::File::open(path)?, &mut hasher)?;
    Ok(hasher.finalize().iter().map(|b| format!("{b:02x}")).collect())
}

fn kind_filter(t: &str) -> Result<Option<MaterialKind>, Status> {
    if t.is_empty() { Ok(None) } else { MaterialKind::parse(t).map(Some).map_err(to_status) }
}

fn ids(list: Vec<String>) -> Result<Vec<String>, Status> {
    let ids: Vec<String> = list.into_iter().map(|s| s.trim().to_owned()).filter(|s| !s.is_empty()).collect();
    if ids.is_empty() {
        return Err(to_status(MaterialError::Invalid("materialIds: no material id given".into())));
    }
    Ok(ids)
}

#[tonic::async_trait]
impl MaterialService for MaterialGrpc {
    #[tracing::instrument(skip_all)]
    async fn list(&self, list_req: Request<pb::ListMaterialsRequest>) -> Result<Response<pb::MaterialPage>, Status> {
        let owner = owner(&list_req)?;
        let req = list_req.get_ref().clone();
        let page = req.page.map(|p| PageRequest::new(p.page_num, p.page_size)).unwrap_or(PageRequest::new(0, 0));
        let orientation = match req.orientation {
            1 => Orientation::Landscape,
            2 => Orientation::Portrait,
            _ => Orientation::Any,
        };
        let order = match req.order.as_str() {
            "" | "newest" => Order::Newest,
            "hottest" => Order::Hottest,
            other => return Err(to_status(MaterialError::Invalid(format!("orderType: `{other}` is not newest or hottest")))),
        };
        let mut open_state = req.open_state.filter(|s| *s >= 0);
        if req.system && req.every_state {
            system_keeper(&list_req, req.category_id)?;
        } else if req.system {
            // Retired system materials are hidden from the libraries.
            open_state = Some(system::OFFERED);
        }
        let query = MaterialQuery {
            kind: kind_filter(&req.r#type)?,
            category_id: (req.category_id > 0).then_some(req.category_id),
            system: req.system,
            page,
            style_id: req.style_id.filter(|s| *s >= 0),
            open_state,
            orientation,
            order,
            // Only the libraries' own lists offer users' approved materials beside the system ones.
            shared: req.system && !req.every_state,
        };
        // A tenant's first look at its system library seeds the starter materials; a failure
        // is logged and the list answers what there is.
        if query.system
            && let Some((_, _, starter)) = &self.storage
            && let Err(e) = starter.seed(&owner.tenant).await
        {
            tracing::error!(tenant = %owner.tenant, error = %e, "starter library not seeded");
        }
        let (rows, total) = self.store.list(&owner, &query).await.map_err(to_status)?;
        Ok(Response::new(pb::MaterialPage { items: rows.into_iter().map(to_pb).collect(), total }))
    }

    #[tracing::instrument(skip_all)]
    async fn get(&self, req: Request<pb::GetMaterialRequest>) -> Result<Response<pb::Material>, Status> {
        let owner = owner(&req)?;
        let by_service = identity::caller(&req)?.kind == TokenKind::Service;
        let req = req.into_inner();
        let m = self.store.get(&owner, &req.material_id).await.map_err(to_status)?;
        // A service resolving a material is a render using it: the "hottest" sort counts these.
        if by_service && let Err(e) = self.store.count_use(&m.id).await {
            tracing::warn!(material = %m.id, error = %e, "material use not counted");
        }
        Ok(Response::new(to_pb(m)))
    }

    #[tracing::instrument(skip_all)]
    async fn record(&self, req: Request<pb::RecordMaterialRequest>) -> Result<Response<pb::RecordMaterialReply>, Status> {
        if req.get_ref().system {
            let tenant = system_keeper(&req, req.get_ref().category_id)?;
            return self.record_system(&tenant, req.into_inner()).await.map(Response::new);
        }
        let owner = user(&req)?;
        let req = req.into_inner();
        let (blob, prober, _) = self.storage.as_ref().ok_or_else(|| to_status(MaterialError::NoStorage))?;
        let kind = MaterialKind::parse(&req.r#type).map_err(to_status)?;
        let id = domain::parse_upload_key(&owner, &req.key, kind).map_err(to_status)?;
        let stored = match blob.size(&req.key).await {
            Ok(n) => n,
            Err(BlobError::NotFound(_)) => {
                return Err(to_status(MaterialError::Invalid(format!("key: nothing is stored under `{}`", req.key))));
            }
            Err(e) => return Err(to_status(MaterialError::Blob(e))),
        };
        let recorded = async {
            if stored != req.file_size {
                return Err(MaterialError::Invalid(format!("fileSize: {} bytes stored, {} announced", stored, req.file_size)));
            }
            let open_state = domain::check_owner_open_state(req.open_state)?;
            let name = domain::parse_name(&req.name)?;
            let local = Local::download(blob, &req.key).await.map_err(MaterialError::Scratch)?;
            let (at, ext) = (local.path.clone(), local.ext());
            let sha256 = tokio::task::spawn_blocking(move || sha256_of(&at))
                .await
                .map_err(|e| MaterialError::Scratch(e.to_string()))?
                .map_err(|e| MaterialError::Scratch(format!("hashing the upload: {e}")))?;
            if let Some(existing) = self.store.same_file(&owner, &sha256).await? {
                return Ok((existing, true, None));
            }
            let (at, limits) = (local.path.clone(), self.limits);
            tokio::task::spawn_blocking(move || probe::inspect(&at, kind, &ext, &limits))
                .await
                .map_err(|e| MaterialError::Scratch(e.to_string()))??;
            let up = Upload {
                id,
                key: req.key.clone(),
                kind,
                name,
                file_size: stored,
                category_id: req.category_id,
                style_id: req.style_id,
                open_state,
                sha256,
            };
            Ok((self.store.record(&owner, up, &self.quota).await?, false, Some(local)))
        }
        .await;
        match recorded {
            Ok((m, duplicate, local)) => {
                if duplicate {
                    // The file is already the caller's material: the new object goes.
                    if let Err(d) = blob.delete(&req.key).await {
                        tracing::error!(key = %req.key, error = %d, "duplicate upload not removed");
                    }
                } else {
                    prober.spawn_with(m.clone(), local);
                }
                Ok(Response::new(pb::RecordMaterialReply { material: Some(to_pb(m)), duplicate }))
            }
            Err(e) => {
                // No row, no object: the upload is undone as a whole.
                if let Err(d) = blob.delete(&req.key).await {
                    tracing::error!(key = %req.key, error = %d, "unrecorded upload not removed");
                }
                Err(refusal(e))
            }
        }
    }

    #[tracing::instrument(skip_all)]
    async fn get_many(&self, req: Request<pb::GetManyRequest>) -> Result<Response<pb::MaterialList>, Status> {
        let owner = owner(&req)?;
        let ids = ids(req.into_inner().ids)?;
        let rows = self.store.get_many(&owner, &ids).await.map_err(to_status)?;
        Ok(Response::new(pb::MaterialList { items: rows.into_iter().map(to_pb).collect() }))
    }

    #[tracing::instrument(skip_all)]
    async fn rename(&self, req: Request<pb::RenameRequest>) -> Result<Response<pb::Material>, Status> {
        let owner = user(&req)?;
        let req = req.into_inner();
        let m = self.store.rename(&owner, &req.material_id, &req.name).await.map_err(to_status)?;
        Ok(Response::new(to_pb(m)))
    }

    #[tracing::instrument(skip_all)]
    async fn delete(&self, req: Request<pb::DeleteRequest>) -> Result<Response<pb::DeleteReply>, Status> {
        let owner = user(&req)?;
        let req = req.into_inner();
        let doomed = self.store.owned(&owner, &ids(req.ids)?).await.map_err(to_status)?;
        Ok(Response::new(self.delete_all(&owner, doomed, req.soft).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn delete_by_choice(&self, req: Request<pb::DeleteByChoiceRequest>) -> Result<Response<pb::DeleteReply>, Status> {
        let owner = user(&req)?;
        let req = req.into_inner();
        let choice = if req.all {
            Choice::AllBut(kind_filter(&req.r#type)?, req.keep)
        } else {
            Choice::Only(ids(req.only)?)
        };
        let doomed = self.store.chosen(&owner, &choice).await.map_err(to_status)?;
        Ok(Response::new(self.delete_all(&owner, doomed, req.soft).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn r#move(&self, req: Request<pb::MoveRequest>) -> Result<Response<pb::ChangedReply>, Status> {
        let owner = user(&req)?;
        let req = req.into_inner();
        let changed = self.store.move_to(&owner, &ids(req.ids)?, req.category_id).await.map_err(to_status)?;
        Ok(Response::new(pb::ChangedReply { changed }))
    }

    #[tracing::instrument(skip_all)]
    async fn audit(&self, req: Request<pb::AuditRequest>) -> Result<Response<pb::Material>, Status> {
        let caller = identity::caller(&req)?;
        if !is_auditor(&caller) {
            return Err(to_status(MaterialError::Forbidden("auditing materials needs TEMPLATE_MANAGER".into())));
        }
        let req = req.into_inner();
        let m = self.store.audit(&caller.tenant, &req.material_id, req.open_state, &req.reason).await.map_err(to_status)?;
        Ok(Response::new(to_pb(m)))
    }

    #[tracing::instrument(skip_all)]
    async fn queue(&self, req: Request<pb::QueueRequest>) -> Result<Response<pb::MaterialPage>, Status> {
        let tenant = auditor(&req)?;
        let req = req.into_inner();
        let kinds = queue_kinds(&req.types)?;
        let state = domain::check_audit_state(req.open_state).map_err(to_status)?;
        let page = req.page.map(|p| PageRequest::new(p.page_num, p.page_size)).unwrap_or(PageRequest::new(0, 0));
        let (rows, total) = self.store.queue(&tenant, &kinds, state, page).await.map_err(to_status)?;
        Ok(Response::new(pb::MaterialPage { items: rows.into_iter().map(to_pb).collect(), total }))
    }

    #[tracing::instrument(skip_all)]
    async fn audit_many(&self, req: Request<pb::AuditManyRequest>) -> Result<Response<pb::ChangedReply>, Status> {
        let tenant = auditor(&req)?;
        let req = req.into_inner();
        let changed = self.store.audit_many(&tenant, &ids(req.material_ids)?, req.open_state, &req.reason).await.map_err(to_status)?;
        Ok(Response::new(pb::ChangedReply { changed }))
    }

    #[tracing::instrument(skip_all)]
    async fn set_open_state(&self, req: Request<pb::SetOpenStateRequest>) -> Result<Response<pb::ChangedReply>, Status> {
        let owner = user(&req)?;
        let req = req.into_inner();
        let changed = self.store.set_open_state(&owner, &ids(req.ids)?, req.open_state).await.map_err(to_status)?;
        Ok(Response::new(pb::ChangedReply { changed }))
    }

    #[tracing::instrument(skip_all)]
    async fn set_cover(&self, req: Request<pb::SetCoverRequest>) -> Result<Response<pb::Material>, Status> {
        let owner = user(&req)?;
        let req = req.into_inner();
        let blob = self.blob()?;
        let m = self.store.owned(&owner, std::slice::from_ref(&req.material_id)).await.map_err(to_status)?;
        let m = m.into_iter().next().ok_or_else(|| to_status(MaterialError::NotFound(req.material_id.clone())))?;
        // The new cover must sit in the material's own directory, where the gateway put it.
        let dir = domain::derived_key(&m.relative_path, "");
        let name = req.key.strip_prefix(&dir).unwrap_or_default();
        let valid = m.relative_path.starts_with("t/") && name.starts_with("cover-") && !name.contains('/');
        if !valid || !blob.exists(&req.key).await.map_err(|e| to_status(MaterialError::Blob(e)))? {
            return Err(to_status(MaterialError::Invalid(format!("key: `{}` is not a cover of this material", req.key))));
        }
        let old = m.probed.cover_key.clone();
        let m = self.store.set_cover(&owner, &m.id, &req.key).await.map_err(to_status)?;
        if !old.is_empty() && old != req.key {
            let _ = blob.delete(&old).await;
        }
        Ok(Response::new(to_pb(m)))
    }

    #[tracing::instrument(skip_all)]
    async fn update_system(&self, req: Request<pb::UpdateSystemRequest>) -> Result<Response<pb::ChangedReply>, Status> {
        let caller = identity::caller(&req)?;
        let req = req.into_inner();
        let ids = ids(req.ids)?;
        if caller.require_admin().is_err() {
            // A template manager keeps the music library only: every id one of its tracks, kept there.
            let tenant = auditor_identity(&caller)?;
            let music = crate::starter::catalogue::MUSIC;
            if req.category_id.is_some_and(|c| c != music) {
                return Err(to_status(MaterialError::Forbidden("categoryId: a template manager keeps the music library only".into())));
            }
            let owner = Owner { tenant, user_id: String::new() };
            let found = self.store.get_many(&owner, &ids).await.map_err(to_status)?;
            if let Some(id) = ids.iter().find(|id| !found.iter().any(|m| &m.id == *id && m.system)) {
                return Err(to_status(MaterialError::NotFound(id.clone())));
            }
            if found.iter().any(|m| m.category_id != music) {
                return Err(to_status(MaterialError::Forbidden("materialIds: a template manager keeps the music library only".into())));
            }
        }
        let changes = system::Changes::parse(req.name.as_deref(), req.category_id, req.style_id, req.open_state).map_err(to_status)?;
        let changed = self.store.update_system(&caller.tenant, &ids, &changes).await.map_err(to_status)?;
        Ok(Response::new(pb::ChangedReply { changed }))
    }

    #[tracing::instrument(skip_all)]
    async fn usage(&self, req: Request<reelforge_proto::common::Empty>) -> Result<Response<pb::UsageReply>, Status> {
        let owner = user(&req)?;
        let usage = self.store.usage(&owner).await.map_err(to_status)?;
        Ok(Response::new(usage_to_pb(usage, &self.quota)))
    }

    #[tracing::instrument(skip_all)]
    async fn volume(&self, req: Request<pb::GetMaterialRequest>) -> Result<Response<pb::VolumeReply>, Status> {
        let owner = owner(&req)?;
        let id = req.into_inner().material_id;
        let m = self.store.get(&owner, &id).await.map_err(to_status)?;
        let (Some(mean_db), Some(peak_db)) = (m.probed.mean_db, m.probed.peak_db) else {
            return Err(to_status(MaterialError::NoAudio(id)));
        };
        if mean_db < domain::SILENCE_DB {
            return Err(to_status(MaterialError::Silent(id)));
        }
        Ok(Response::new(pb::VolumeReply { mean_db, peak_db }))
    }
}
