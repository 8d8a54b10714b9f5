//! The material table and its queries, scoped to tenant and user; entities never leave this module.

mod entity;
mod migration;
mod seed;
mod review;
mod system;

pub use seed::Seeded;

use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, ConnectionTrait, DatabaseConnection, DbBackend, EntityTrait, ExprTrait,
    NotSet, PaginatorTrait, QueryFilter, QueryOrder, Set, Statement,
};
use sea_orm_migration::MigratorTrait;

use crate::domain::{
    self, Material, MaterialError, MaterialKind, MaterialQuery, NewMaterial, Order, Orientation, Owner, Probed, Quota,
    State, Usage,
};

/// Runs the service's migrations.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::up(db, None).await
}

/// The service's migrations as this binary carries them, for the upgrade page's listing.
pub fn migration_book() -> reelforge_kit::db::MigrationBook {
    reelforge_kit::db::MigrationBook::of::<migration::Migrator>("material")
}

/// Undoes the service's migrations, dropping what they made: the down path, which the migration
/// test runs up, down and up again.
pub async fn unmigrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::down(db, None).await
}

/// Material queries.
#[derive(Clone)]
pub struct MaterialStore {
    db: DatabaseConnection,
}

fn to_domain(m: entity::Model) -> Material {
    let probed = Probed {
        duration: m.time_length,
        width: m.width,
        height: m.height,
        frame_rate: m.frame_rate,
        rotation: m.rotation,
        has_audio: m.has_audio,
        codec: m.codec,
        cover_key: m.picture_path.clone(),
        filmstrip_key: m.filmstrip_path,
        waveform_key: m.waveform_path,
        preview_key: m.preview_path,
        mean_db: m.mean_db,
        peak_db: m.peak_db,
    };
    Material {
        state: State::parse(&m.state),
        fail_reason: m.fail_reason,
        file_size: u64::try_from(m.file_size).unwrap_or(0),
        style_id: m.style_id,
        audit_reason: m.audit_reason,
        probed,
        kind: MaterialKind::parse(&m.kind).unwrap_or(MaterialKind::Picture),
        id: m.id,
        user_id: m.user_id,
        name: m.name,
        category_id: m.category_id,
        open_state: m.open_state,
        relative_path: m.relative_path,
        picture_path: m.picture_path,
        time_length: m.time_length,
        size: m.size,
        material_state: m.material_state,
        system: m.system,
        created_ms: m.created_ms,
    }
}

/// Open state of a user's material an auditor approved for the tenant's library.
const APPROVED: i32 = 1;

/// What the owner may see: their own materials, the tenant's system ones and the users' approved
/// ones, not deleted.
fn visible_to(owner: &Owner) -> Condition {
    Condition::all().add(entity::Column::Tenant.eq(&owner.tenant)).add(entity::Column::Deleted.eq(false)).add(
        Condition::any()
            .add(entity::Column::System.eq(true))
            .add(entity::Column::UserId.eq(&owner.user_id))
            .add(entity::Column::OpenState.eq(APPROVED)),
    )
}

/// What the owner may change: their own materials, not deleted.
fn owned_by(owner: &Owner) -> Condition {
    Condition::all()
        .add(entity::Column::Tenant.eq(&owner.tenant))
        .add(entity::Column::UserId.eq(&owner.user_id))
        .add(entity::Column::System.eq(false))
        .add(entity::Column::Deleted.eq(false))
}

/// A recorded upload: the object is stored, the row is to be written.
#[derive(Debug, Clone, PartialEq)]
pub struct Upload {
    /// The material id (the uuid of its key).
    pub id: String,
    /// The key of the original.
    pub key: String,
    /// What it is.
    pub kind: MaterialKind,
    /// Display name.
    pub name: String,
    /// Bytes stored.
    pub file_size: u64,
    /// Category, -1 none.
    pub category_id: i64,
    /// Style class, -1 none.
    pub style_id: i64,
    /// Open state asked for (0 or 2).
    pub open_state: i32,
    /// The SHA-256 of the file, lower-case hex: a later upload of the same file by the same user
    /// finds this material instead of making another.
    pub sha256: String,
}

/// Which of the caller's materials a delete-by-choice reaches.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Choice {
    /// Every one (of the kind, when given) but these ids.
    AllBut(Option<MaterialKind>, Vec<String>),
    /// Exactly these ids.
    Only(Vec<String>),
}

impl MaterialStore {
    /// Wraps a migrated database.
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    /// Records a material for `owner` (a system one has no user); the id and storage key are made here.
    pub async fn insert(&self, owner: &Owner, new: NewMaterial) -> Result<Material, MaterialError> {
        let name = domain::parse_name(&new.name)?;
        let id = uuid::Uuid::new_v4().to_string();
        let (width, height) = new
            .size
            .split_once('x')
            .and_then(|(w, h)| Some((w.trim().parse::<i32>().ok()?, h.trim().parse::<i32>().ok()?)))
            .unwrap_or((0, 0));
        let model = entity::ActiveModel {
            width: Set(width),
            height: Set(height),
            relative_path: Set(domain::storage_key(&owner.tenant, (!new.system).then_some(owner.user_id.as_str()), &id, &name)),
            id: Set(id),
            tenant: Set(owner.tenant.clone()),
            user_id: Set(if new.system { String::new() } else { owner.user_id.clone() }),
            name: Set(name),
            kind: Set(new.kind.as_str().to_owned()),
            category_id: Set(new.category_id),
            open_state: Set(new.open_state),
            picture_path: Set(new.picture_path),
            time_length: Set(new.time_length),
            size: Set(new.size),
            material_state: Set(new.material_state),
            system: Set(new.system),
            created_ms: Set(reelforge_kit::db::now_millis()),
            ..defaults()
        }
        .insert(&self.db)
        .await?;
        Ok(to_domain(model))
    }

    /// What the owner and their tenant keep: live uploads, not deleted, not system materials.
    pub async fn usage(&self, owner: &Owner) -> Result<Usage, MaterialError> {
        usage_in(&self.db, owner).await
    }

    /// Records an upload whose object is stored (state processing until probed), unless it would
    /// take the owner or their tenant beyond `quota` (QuotaExceeded). The check and the insert are
    /// one transaction that holds the tenant's lock (SQLite's write lock, a PostgreSQL advisory
    /// lock of the tenant), so two uploads at once cannot both fit into the last free space.
    pub async fn record(&self, owner: &Owner, up: Upload, quota: &Quota) -> Result<Material, MaterialError> {
        let name = domain::parse_name(&up.name)?;
        let (open_state, bytes) = (up.open_state, up.file_size);
        let model = uploaded(&owner.tenant, &owner.user_id, name, open_state, false, up);
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        if txn.get_database_backend() == DbBackend::Postgres {
            let lock = format!("reelforge.material.quota/{}", owner.tenant);
            txn.execute_raw(Statement::from_sql_and_values(
                DbBackend::Postgres,
                "SELECT pg_advisory_xact_lock(hashtext($1))",
                [lock.into()],
            ))
            .await?;
        }
        if let Some(refused) = usage_in(&txn, owner).await?.exceeds(quota, bytes) {
            return Err(refused);
        }
        let model = model.insert(&txn).await?;
        txn.commit().await?;
        Ok(to_domain(model))
    }

    /// The owner's own material holding the file with this SHA-256, if any: not deleted, not
    /// failed (a failed one may have failed for a passing reason; the new upload gets its chance),
    /// the oldest first. Only the owner's own uploads are matched: never another user's, another
    /// tenant's or a system material.
    pub async fn same_file(&self, owner: &Owner, sha256: &str) -> Result<Option<Material>, MaterialError> {
        if sha256.is_empty() {
            return Ok(None);
        }
        let row = entity::Entity::find()
            .filter(owned_by(owner))
            .filter(entity::Column::Sha256.eq(sha256))
            .filter(entity::Column::State.ne(State::Failed.as_str()))
            .order_by_asc(entity::Column::CreatedMs)
            .order_by_asc(entity::Column::Id)
            .one(&self.db)
            .await?;
        Ok(row.map(to_domain))
    }

    /// Writes what probing found and makes the material ready.
    pub async fn set_probed(&self, id: &str, p: &Probed) -> Result<(), MaterialError> {
        let size = if p.width > 0 && p.height > 0 { format!("{}x{}", p.width, p.height) } else { String::new() };
        let probed = entity::ActiveModel {
            state: Set(State::Ready.as_str().to_owned()),
            fail_reason: Set(String::new()),
            time_length: Set(p.duration),
            size: Set(size),
            width: Set(p.width),
            height: Set(p.height),
            frame_rate: Set(p.frame_rate),
            rotation: Set(p.rotation),
            has_audio: Set(p.has_audio),
            codec: Set(p.codec.clone()),
            picture_path: Set(p.cover_key.clone()),
            filmstrip_path: Set(p.filmstrip_key.clone()),
            waveform_path: Set(p.waveform_key.clone()),
            mean_db: Set(p.mean_db),
            peak_db: Set(p.peak_db),
            material_state: Set(1),
            // A picture's preview is made with the probe; a video's comes later (`set_preview`).
            preview_path: if p.preview_key.is_empty() { NotSet } else { Set(p.preview_key.clone()) },
            ..Default::default()
        };
        self.update_live(id, probed).await
    }

    /// Writes `changes` to the material `id` unless it was deleted meanwhile (then NotFound: the
    /// caller cleans up what it made for it).
    async fn update_live(&self, id: &str, changes: entity::ActiveModel) -> Result<(), MaterialError> {
        let r = entity::Entity::update_many()
            .set(changes)
            .filter(entity::Column::Id.eq(id))
            .filter(entity::Column::Deleted.eq(false))
            .exec(&self.db)
            .await?;
        if r.rows_affected == 0 {
            return Err(MaterialError::NotFound(id.to_owned()));
        }
        Ok(())
    }

    /// Records the material's browser preview.
    pub async fn set_preview(&self, id: &str, key: &str) -> Result<(), MaterialError> {
        self.update_live(id, entity::ActiveModel { preview_path: Set(key.to_owned()), ..Default::default() }).await
    }

    /// Marks the material failed with `reason`.
    pub async fn set_failed(&self, id: &str, reason: &str) -> Result<(), MaterialError> {
        let failed = entity::ActiveModel {
            state: Set(State::Failed.as_str().to_owned()),
            fail_reason: Set(reason.chars().take(500).collect()),
            ..Default::default()
        };
        self.update_live(id, failed).await
    }

    /// Materials still waiting to be probed (after a restart), oldest first.
    pub async fn processing(&self) -> Result<Vec<Material>, MaterialError> {
        let rows = entity::Entity::find()
            .filter(entity::Column::State.eq(State::Processing.as_str()))
            .filter(entity::Column::Deleted.eq(false))
            .order_by_asc(entity::Column::CreatedMs)
            .all(&self.db)
            .await?;
        Ok(rows.into_iter().map(to_domain).collect())
    }

    /// Counts a use of the material by a render (the "hottest" sort).
    pub async fn count_use(&self, id: &str) -> Result<(), MaterialError> {
        entity::Entity::update_many()
            .col_expr(entity::Column::UseCount, Expr::col(entity::Column::UseCount).add(1))
            .filter(entity::Column::Id.eq(id))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Several materials the owner may see, in the order asked; any id not visible is NotFound.
    pub async fn get_many(&self, owner: &Owner, ids: &[String]) -> Result<Vec<Material>, MaterialError> {
        let rows = entity::Entity::find()
            .filter(entity::Column::Id.is_in(ids.iter().cloned()))
            .filter(visible_to(owner))
            .all(&self.db)
            .await?;
        ids.iter()
            .map(|id| {
                rows.iter().find(|m| &m.id == id).cloned().map(to_domain).ok_or_else(|| MaterialError::NotFound(id.clone()))
            })
            .collect()
    }

    /// The owner's own materials with these ids; any other id is NotFound, so a batch that names
    /// someone else's material changes nothing.
    pub async fn owned(&self, owner: &Owner, ids: &[String]) -> Result<Vec<Material>, MaterialError> {
        if ids.is_empty() {
            return Err(MaterialError::Invalid("materialIds: no material id given".into()));
        }
        let rows = entity::Entity::find()
            .filter(entity::Column::Id.is_in(ids.iter().cloned()))
            .filter(owned_by(owner))
            .all(&self.db)
            .await?;
        if let Some(missing) = ids.iter().find(|id| !rows.iter().any(|m| &m.id == *id)) {
            return Err(MaterialError::NotFound(missing.clone()));
        }
        Ok(rows.into_iter().map(to_domain).collect())
    }

    /// The ids of the owner's materials a delete-by-choice reaches.
    pub async fn chosen(&self, owner: &Owner, choice: &Choice) -> Result<Vec<Material>, MaterialError> {
        match choice {
            Choice::Only(ids) => self.owned(owner, ids).await,
            Choice::AllBut(kind, keep) => {
                let mut q = entity::Entity::find().filter(owned_by(owner));
                if let Some(kind) = kind {
                    q = q.filter(entity::Column::Kind.eq(kind.as_str()));
                }
                if !keep.is_empty() {
                    q = q.filter(entity::Column::Id.is_not_in(keep.iter().cloned()));
                }
                Ok(q.all(&self.db).await?.into_iter().map(to_domain).collect())
            }
        }
    }

    /// Renames one of the owner's materials.
    pub async fn rename(&self, owner: &Owner, id: &str, name: &str) -> Result<Material, MaterialError> {
        let name = domain::parse_name(name)?;
        self.owned(owner, &[id.to_owned()]).await?;
        entity::ActiveModel { id: Set(id.to_owned()), name: Set(name), ..Default::default() }.update(&self.db).await?;
        self.get(owner, id).await
    }

    /// Deletes the owner's materials `ids` (all theirs, checked by the caller): soft marks the rows
    /// deleted, hard removes them.
    pub async fn delete(&self, owner: &Owner, ids: &[String], soft: bool) -> Result<u64, MaterialError> {
        if ids.is_empty() {
            return Ok(0);
        }
        let scope = owned_by(owner).add(entity::Column::Id.is_in(ids.iter().cloned()));
        let n = if soft {
            entity::Entity::update_many()
                .col_expr(entity::Column::Deleted, Expr::value(true))
                .filter(scope)
                .exec(&self.db)
                .await?
                .rows_affected
        } else {
            entity::Entity::delete_many().filter(scope).exec(&self.db).await?.rows_affected
        };
        Ok(n)
    }

    /// Moves the owner's materials `ids` into `category_id`.
    pub async fn move_to(&self, owner: &Owner, ids: &[String], category_id: i64) -> Result<u64, MaterialError> {
        self.owned(owner, ids).await?;
        let r = entity::Entity::update_many()
            .col_expr(entity::Column::CategoryId, Expr::value(category_id))
            .filter(owned_by(owner).add(entity::Column::Id.is_in(ids.iter().cloned())))
            .exec(&self.db)
            .await?;
        Ok(r.rows_affected)
    }

    /// Sets the open state of the owner's materials `ids`.
    pub async fn set_open_state(&self, owner: &Owner, ids: &[String], state: i32) -> Result<u64, MaterialError> {
        let state = domain::check_owner_open_state(state)?;
        self.owned(owner, ids).await?;
        let r = entity::Entity::update_many()
            .col_expr(entity::Column::OpenState, Expr::value(state))
            .filter(owned_by(owner).add(entity::Column::Id.is_in(ids.iter().cloned())))
            .exec(&self.db)
            .await?;
        Ok(r.rows_affected)
    }

    /// An auditor's decision on any material of their tenant.
    pub async fn audit(&self, tenant: &str, id: &str, state: i32, reason: &str) -> Result<Material, MaterialError> {
        let state = domain::check_audit_state(state)?;
        let r = entity::Entity::update_many()
            .col_expr(entity::Column::OpenState, Expr::value(state))
            .col_expr(entity::Column::AuditReason, Expr::value(reason.chars().take(500).collect::<String>()))
            .filter(entity::Column::Id.eq(id))
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::Deleted.eq(false))
            .exec(&self.db)
            .await?;
        if r.rows_affected == 0 {
            return Err(MaterialError::NotFound(id.to_owned()));
        }
        let m = entity::Entity::find_by_id(id.to_owned()).one(&self.db).await?;
        m.map(to_domain).ok_or_else(|| MaterialError::NotFound(id.to_owned()))
    }

    /// Points the cover of one of the owner's materials at `key`.
    pub async fn set_cover(&self, owner: &Owner, id: &str, key: &str) -> Result<Material, MaterialError> {
        self.owned(owner, &[id.to_owned()]).await?;
        entity::ActiveModel { id: Set(id.to_owned()), picture_path: Set(key.to_owned()), ..Default::default() }
            .update(&self.db)
            .await?;
        self.get(owner, id).await
    }

    /// The directories (`…/materials/{id}/`) of every file a live material names, of every tenant:
    /// what the janitor must leave.
    pub async fn live_dirs(&self) -> Result<std::collections::HashSet<String>, MaterialError> {
        let rows = entity::Entity::find().filter(entity::Column::Deleted.eq(false)).all(&self.db).await?;
        let mut dirs = std::collections::HashSet::new();
        for m in rows {
            for key in [&m.relative_path, &m.picture_path, &m.filmstrip_path, &m.waveform_path, &m.preview_path] {
                if key.contains('/') {
                    dirs.insert(domain::derived_key(key, ""));
                }
            }
        }
        Ok(dirs)
    }

    /// Lists one page of the owner's materials (or the tenant's system ones), newest first, with the total.
    pub async fn list(&self, owner: &Owner, query: &MaterialQuery) -> Result<(Vec<Material>, u64), MaterialError> {
        let mut q = entity::Entity::find()
            .filter(entity::Column::Tenant.eq(&owner.tenant))
            .filter(entity::Column::Deleted.eq(false));
        q = if query.system && query.shared {
            // Owners cannot set open state 1 themselves: on a user's material it is an auditor's approval.
            q.filter(Condition::any().add(entity::Column::System.eq(true)).add(entity::Column::OpenState.eq(APPROVED)))
        } else if query.system {
            q.filter(entity::Column::System.eq(true))
        } else {
            q.filter(entity::Column::System.eq(false)).filter(entity::Column::UserId.eq(&owner.user_id))
        };
        if let Some(kind) = query.kind {
            q = q.filter(entity::Column::Kind.eq(kind.as_str()));
        }
        if let Some(category) = query.category_id {
            q = q.filter(entity::Column::CategoryId.eq(category));
        }
        if let Some(style) = query.style_id {
            q = q.filter(entity::Column::StyleId.eq(style));
        }
        if let Some(open) = query.open_state {
            q = q.filter(entity::Column::OpenState.eq(open));
        }
        // Rows without a known size (audio, not yet probed) have no orientation and match neither.
        let (w, h) = (Expr::col(entity::Column::Width), Expr::col(entity::Column::Height));
        q = match query.orientation {
            Orientation::Any => q,
            Orientation::Landscape => q.filter(entity::Column::Height.gt(0)).filter(w.gte(h)),
            Orientation::Portrait => q.filter(entity::Column::Width.gt(0)).filter(w.lt(h)),
        };
        if query.order == Order::Hottest {
            q = q.order_by_desc(entity::Column::UseCount);
        }
        let pages = q
            .order_by_desc(entity::Column::CreatedMs)
            .order_by_desc(entity::Column::Id)
            .paginate(&self.db, query.page.size);
        let total = pages.num_items().await?;
        let rows = pages.fetch_page(query.page.num.saturating_sub(1)).await?;
        Ok((rows.into_iter().map(to_domain).collect(), total))
    }

    /// Returns one material if the owner may see it; another tenant's or user's private one is NotFound.
    pub async fn get(&self, owner: &Owner, id: &str) -> Result<Material, MaterialError> {
        entity::Entity::find_by_id(id.to_owned())
            .filter(visible_to(owner))
            .one(&self.db)
            .await?
            .map(to_domain)
            .ok_or_else(|| MaterialError::NotFound(id.to_owned()))
    }
}

/// What `owner` and their tenant keep, read on `db` (a connection or a transaction).
async fn usage_in(db: &impl ConnectionTrait, owner: &Owner) -> Result<Usage, MaterialError> {
    const SQL: &str = "SELECT \
        CAST(COALESCE(SUM(CASE WHEN user_id = $2 THEN file_size ELSE 0 END), 0) AS BIGINT) AS bytes, \
        CAST(COALESCE(SUM(CASE WHEN user_id = $2 THEN 1 ELSE 0 END), 0) AS BIGINT) AS materials, \
        CAST(COALESCE(SUM(file_size), 0) AS BIGINT) AS tenant_bytes, \
        CAST(COUNT(*) AS BIGINT) AS tenant_materials \
        FROM material WHERE tenant = $1 AND system = $3 AND deleted = $3";
    let backend = db.get_database_backend();
    // SQLite numbers its parameters ?1, ?2; PostgreSQL $1, $2.
    let sql = if backend == DbBackend::Postgres { SQL.to_owned() } else { SQL.replace('$', "?") };
    let values = [owner.tenant.clone().into(), owner.user_id.clone().into(), false.into()];
    let row = db.query_one_raw(Statement::from_sql_and_values(backend, sql, values)).await?;
    let get = |col: &str| -> Result<u64, MaterialError> {
        let n: i64 = row.as_ref().map(|r| r.try_get("", col)).transpose()?.unwrap_or(0);
        Ok(u64::try_from(n).unwrap_or(0))
    };
    Ok(Usage { bytes: get("bytes")?, materials: get("materials")?, tenant_bytes: get("tenant_bytes")?, tenant_materials: get("tenant_materials")? })
}

/// The new columns' values for rows made by [`MaterialStore::insert`] (system and seeded materials,
/// usable as they are).
/// The row of an upload whose object is stored: processing until probed.
fn uploaded(tenant: &str, user_id: &str, name: String, open_state: i32, system: bool, up: Upload) -> entity::ActiveModel {
    entity::ActiveModel {
        id: Set(up.id),
        tenant: Set(tenant.to_owned()),
        user_id: Set(user_id.to_owned()),
        name: Set(name),
        kind: Set(up.kind.as_str().to_owned()),
        category_id: Set(up.category_id),
        open_state: Set(open_state),
        relative_path: Set(up.key),
        picture_path: Set(String::new()),
        time_length: Set(0.0),
        size: Set(String::new()),
        material_state: Set(0),
        system: Set(system),
        created_ms: Set(reelforge_kit::db::now_millis()),
        state: Set(State::Processing.as_str().to_owned()),
        file_size: Set(i64::try_from(up.file_size).unwrap_or(i64::MAX)),
        style_id: Set(up.style_id),
        sha256: Set(up.sha256),
        ..defaults()
    }
}

fn defaults() -> entity::ActiveModel {
    entity::ActiveModel {
        state: Set(State::Ready.as_str().to_owned()),
        fail_reason: Set(String::new()),
        file_size: Set(0),
        width: Set(0),
        height: Set(0),
        frame_rate: Set(0.0),
        rotation: Set(0),
        has_audio: Set(false),
        codec: Set(String::new()),
        filmstrip_path: Set(String::new()),
        waveform_path: Set(String::new()),
        preview_path: Set(String::new()),
        style_id: Set(-1),
        audit_reason: Set(String::new()),
        mean_db: Set(None),
        peak_db: Set(None),
        deleted: Set(false),
        use_count: Set(0),
        sha256: Set(String::new()),
        ..Default::default()
    }
}
