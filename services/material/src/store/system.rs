//! The tenant's system materials as administrators add and change them.

use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, Condition, EntityTrait, QueryFilter, Set};

use super::{MaterialStore, defaults, entity, to_domain};
use crate::domain::{Material, MaterialError, State};
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
        let model = entity::ActiveModel {
            id: Set(up.id),
            tenant: Set(tenant.to_owned()),
            user_id: Set(String::new()),
            name: Set(up.name),
            kind: Set(up.kind.as_str().to_owned()),
            category_id: Set(up.category_id),
            open_state: Set(OFFERED),
            relative_path: Set(up.key),
            picture_path: Set(String::new()),
            time_length: Set(0.0),
            size: Set(String::new()),
            material_state: Set(0),
            system: Set(true),
            created_ms: Set(reelforge_kit::db::now_millis()),
            state: Set(State::Processing.as_str().to_owned()),
            file_size: Set(i64::try_from(up.file_size).unwrap_or(i64::MAX)),
            style_id: Set(up.style_id),
            sha256: Set(up.sha256),
            ..defaults()
        }
        .insert(&self.db)
        .await?;
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
