//! The tenant's system materials as administrators add and change them.

use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, Condition, EntityTrait, QueryFilter};

use super::{MaterialStore, entity, to_domain, uploaded};
use crate::domain::{Material, MaterialError};
use crate::store::Upload;
use crate::system::{self, Changes, OFFERED};

/// The tenant's live system materials.
fn system_of(tenant: &str) -> Condition {
    Condition::all()
        .add(entity::Column::Tenant.eq(tenant))
        .add(entity::Column::System.eq(true))
        .add(entity::Column::Deleted.eq(false))
}

impl MaterialStore {
    /// Records a system upload whose object is stored: offered at once, processing until probed;
    /// no quota applies (system materials are nobody's share).
    pub async fn record_system(&self, tenant: &str, up: Upload) -> Result<Material, MaterialError> {
        let name = up.name.clone();
        let model = uploaded(tenant, "", name, OFFERED, true, up).insert(&self.db).await?;
        Ok(to_domain(model))
    }

    /// Applies `changes` to the tenant's system materials `ids`, all or none: an id that is not
    /// one of them (another tenant's, a user's) is NotFound and nothing changes.
    pub async fn update_system(&self, tenant: &str, ids: &[String], changes: &Changes) -> Result<u64, MaterialError> {
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let found = entity::Entity::find()
            .filter(system_of(tenant).add(entity::Column::Id.is_in(ids.iter().cloned())))
            .all(&txn)
            .await?;
        if let Some(missing) = ids.iter().find(|id| !found.iter().any(|m| &m.id == *id)) {
            return Err(MaterialError::NotFound(missing.clone()));
        }
        if let Some(category) = changes.category_id {
            let listed = system::listed_kind(category)?;
            if let Some(m) = found.iter().find(|m| m.kind != listed.as_str()) {
                return Err(MaterialError::Invalid(format!(
                    "categoryId: category {category} lists {}, and material {} is {}",
                    listed.as_str(),
                    m.id,
                    m.kind
                )));
            }
        }
        let mut update = entity::Entity::update_many().filter(system_of(tenant).add(entity::Column::Id.is_in(ids.iter().cloned())));
        if let Some(name) = &changes.name {
            update = update.col_expr(entity::Column::Name, Expr::value(name.clone()));
        }
        if let Some(category) = changes.category_id {
            update = update.col_expr(entity::Column::CategoryId, Expr::value(category));
        }
        if let Some(style) = changes.style_id {
            update = update.col_expr(entity::Column::StyleId, Expr::value(style));
        }
        if let Some(state) = changes.open_state {
            update = update.col_expr(entity::Column::OpenState, Expr::value(state));
        }
        let changed = update.exec(&txn).await?.rows_affected;
        txn.commit().await?;
        Ok(changed)
    }
}
