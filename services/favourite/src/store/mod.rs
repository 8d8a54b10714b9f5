//! The favourite table and its queries, scoped to tenant and user.

mod entity;
mod migration;

use sea_orm::{ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, QuerySelect, Set};
use sea_orm_migration::MigratorTrait;

use crate::domain::{Favourite, FavouriteError, SEARCH_HISTORY_LEN};
use entity::search;

/// Runs the service's migrations.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::up(db, None).await
}

/// The service's migrations as this binary carries them, for the upgrade page's listing.
pub fn migration_book() -> reelforge_kit::db::MigrationBook {
    reelforge_kit::db::MigrationBook::of::<migration::Migrator>("favourite")
}

/// Undoes the service's migrations, dropping what they made: the down path, which the migration
/// test runs up, down and up again.
pub async fn unmigrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::down(db, None).await
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
        Ok(rows.into_iter().map(|m| Favourite { id: m.item_id, kind: m.kind, user_id: m.user_id, created_ms: m.created_ms }).collect())
    }

    /// Records a search keyword: it moves to the front if already there, and only the newest
    /// [`SEARCH_HISTORY_LEN`] stay. Answers the history after the change.
    pub async fn add_search(&self, tenant: &str, user: &str, keyword: String) -> Result<Vec<String>, FavouriteError> {
        let tx = reelforge_kit::db::begin_write(&self.db).await?;
        search::Entity::delete_many()
            .filter(search::Column::Tenant.eq(tenant))
            .filter(search::Column::UserId.eq(user))
            .filter(search::Column::Keyword.eq(&keyword))
            .exec(&tx)
            .await?;
        search::ActiveModel {
            tenant: Set(tenant.to_owned()),
            user_id: Set(user.to_owned()),
            keyword: Set(keyword),
            created_ms: Set(reelforge_kit::db::now_millis()),
            ..Default::default()
        }
        .insert(&tx)
        .await?;
        // The history never holds more than one over the cap here, so reading it whole is cheap
        // (and SQLite takes no OFFSET without a LIMIT).
        let older: Vec<i64> = Self::searches(tenant, user)
            .all(&tx)
            .await?
            .into_iter()
            .skip(usize::try_from(SEARCH_HISTORY_LEN).unwrap_or(usize::MAX))
            .map(|m| m.id)
            .collect();
        if !older.is_empty() {
            search::Entity::delete_many().filter(search::Column::Id.is_in(older)).exec(&tx).await?;
        }
        tx.commit().await?;
        self.search_history(tenant, user).await
    }

    fn searches(tenant: &str, user: &str) -> sea_orm::Select<search::Entity> {
        search::Entity::find()
            .filter(search::Column::Tenant.eq(tenant))
            .filter(search::Column::UserId.eq(user))
            .order_by_desc(search::Column::Id)
    }

    /// The user's search keywords, newest first.
    pub async fn search_history(&self, tenant: &str, user: &str) -> Result<Vec<String>, FavouriteError> {
        let rows = Self::searches(tenant, user).limit(SEARCH_HISTORY_LEN).all(&self.db).await?;
        Ok(rows.into_iter().map(|m| m.keyword).collect())
    }

    /// Forgets the user's search history.
    pub async fn clear_search(&self, tenant: &str, user: &str) -> Result<(), FavouriteError> {
        search::Entity::delete_many()
            .filter(search::Column::Tenant.eq(tenant))
            .filter(search::Column::UserId.eq(user))
            .exec(&self.db)
            .await?;
        Ok(())
    }
}
