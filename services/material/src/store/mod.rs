//! The material table and its queries, scoped to tenant and user; entities never leave this module.

mod entity;
mod migration;

use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder,
    Set,
};
use sea_orm_migration::MigratorTrait;

use crate::domain::{self, Material, MaterialError, MaterialKind, MaterialQuery, NewMaterial, Owner};

/// Runs the service's migrations.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::up(db, None).await
}

/// Material queries.
#[derive(Clone)]
pub struct MaterialStore {
    db: DatabaseConnection,
}

fn to_domain(m: entity::Model) -> Material {
    Material {
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

/// What the owner may see: their own materials and the tenant's system ones.
fn visible_to(owner: &Owner) -> Condition {
    Condition::all().add(entity::Column::Tenant.eq(&owner.tenant)).add(
        Condition::any()
            .add(entity::Column::System.eq(true))
            .add(entity::Column::UserId.eq(&owner.user_id)),
    )
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
        let model = entity::ActiveModel {
            relative_path: Set(domain::storage_key(&owner.tenant, &id, &name)),
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
        }
        .insert(&self.db)
        .await?;
        Ok(to_domain(model))
    }

    /// Lists one page of the owner's materials (or the tenant's system ones), newest first, with the total.
    pub async fn list(&self, owner: &Owner, query: &MaterialQuery) -> Result<(Vec<Material>, u64), MaterialError> {
        let mut q = entity::Entity::find().filter(entity::Column::Tenant.eq(&owner.tenant));
        q = if query.system {
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
