//! The favourite table and its queries, scoped to tenant and user.

mod entity;
mod migration;

use sea_orm::{ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, Set};
use sea_orm_migration::MigratorTrait;

use crate::domain::{Favourite, FavouriteError};

/// Runs the service's migrations.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::up(db, None).await
}

/// Favourite queries.
#[derive(Clone)]
pub struct FavouriteStore {
    db: DatabaseConnection,
}

impl FavouriteStore {
    /// Wraps a migrated database.
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    fn mine(tenant: &str, user: &str) -> sea_orm::Select<entity::Entity> {
        entity::Entity::find().filter(entity::Column::Tenant.eq(tenant)).filter(entity::Column::UserId.eq(user))
    }

    /// Adds a favourite; adding it twice keeps one.
    pub async fn add(&self, tenant: &str, user: &str, id: String, kind: String) -> Result<(), FavouriteError> {
        let existing = Self::mine(tenant, user)
            .filter(entity::Column::ItemId.eq(&id))
            .filter(entity::Column::Kind.eq(&kind))
            .one(&self.db)
            .await?;
        if existing.is_none() {
            entity::ActiveModel {
                tenant: Set(tenant.to_owned()),
                user_id: Set(user.to_owned()),
                item_id: Set(id),
                kind: Set(kind),
                created_ms: Set(reelforge_kit::db::now_millis()),
                ..Default::default()
            }
            .insert(&self.db)
            .await?;
        }
        Ok(())
    }

    /// Removes a favourite; removing a missing one is not an error.
    pub async fn remove(&self, tenant: &str, user: &str, id: &str, kind: &str) -> Result<(), FavouriteError> {
        entity::Entity::delete_many()
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::UserId.eq(user))
            .filter(entity::Column::ItemId.eq(id))
            .filter(entity::Column::Kind.eq(kind))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Lists a user's favourites, newest first, optionally of one kind.
    pub async fn list(&self, tenant: &str, user: &str, kind: Option<&str>) -> Result<Vec<Favourite>, FavouriteError> {
        let mut q = Self::mine(tenant, user);
        if let Some(k) = kind {
            q = q.filter(entity::Column::Kind.eq(k));
        }
        let rows = q.order_by_desc(entity::Column::Id).all(&self.db).await?;
        Ok(rows.into_iter().map(|m| Favourite { id: m.item_id, kind: m.kind, user_id: m.user_id }).collect())
    }
}
