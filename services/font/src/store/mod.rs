//! The user fonts: rows in `user_font`, files in the blob store under
//! `t/{tenant}/u/{user}/fonts/{uuid}.{ttf|otf}`. Entities never leave this module.

mod entity;
mod migration;

use reelforge_kit::BlobStore;
use sea_orm::{ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, QueryOrder, Set};
use sea_orm_migration::MigratorTrait;

use crate::domain::{Font, FontError, FontFormat, ParsedFont};

/// Runs the service's migrations.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::up(db, None).await
}

/// The service's migrations as this binary carries them, for the upgrade page's listing.
pub fn migration_book() -> reelforge_kit::db::MigrationBook {
    reelforge_kit::db::MigrationBook::of::<migration::Migrator>("font")
}

/// Undoes the service's migrations, dropping what they made: the down path, which the migration
/// test runs up, down and up again.
pub async fn unmigrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::down(db, None).await
}

/// A stored user font: what is listed, and where its file is.
#[derive(Debug, Clone)]
pub struct StoredFont {
    /// The font.
    pub font: Font,
    /// Its blob key.
    pub key: String,
}

/// User-font queries, always scoped to one tenant and user.
#[derive(Clone)]
pub struct FontStore {
    db: DatabaseConnection,
    blob: BlobStore,
}

fn to_domain(m: entity::Model) -> StoredFont {
    StoredFont {
        font: Font {
            id: m.id,
            name: m.name,
            name_cn: m.name_cn,
            style: m.style,
            system: false,
            format: FontFormat::parse(&m.format).unwrap_or(FontFormat::Ttf),
        },
        key: m.blob_key,
    }
}

impl FontStore {
    /// Wraps a migrated database and the blob store.
    pub fn new(db: DatabaseConnection, blob: BlobStore) -> Self {
        Self { db, blob }
    }

    /// The blob store the files are in.
    pub fn blob(&self) -> &BlobStore {
        &self.blob
    }

    /// Stores an uploaded (already parsed) font: the file first, then the row; when the row cannot
    /// be written the file is removed again, so nothing is left half-stored.
    pub async fn add(&self, tenant: &str, user: &str, parsed: ParsedFont, data: Vec<u8>) -> Result<Font, FontError> {
        let id = uuid::Uuid::new_v4().to_string();
        let key = format!("t/{tenant}/u/{user}/fonts/{id}.{}", parsed.format.ext());
        let size = i64::try_from(data.len()).unwrap_or(i64::MAX);
        self.blob.put(&key, data).await?;
        let row = entity::ActiveModel {
            id: Set(id),
            tenant: Set(tenant.to_owned()),
            user_id: Set(user.to_owned()),
            name_cn: Set(parsed.family_cn.clone().unwrap_or_else(|| parsed.family.clone())),
            name: Set(parsed.family),
            style: Set(parsed.style),
            format: Set(parsed.format.ext().to_owned()),
            blob_key: Set(key.clone()),
            size: Set(size),
            created_ms: Set(reelforge_kit::db::now_millis()),
        };
        match row.insert(&self.db).await {
            Ok(m) => Ok(to_domain(m).font),
            Err(e) => {
                if let Err(cleanup) = self.blob.delete(&key).await {
                    tracing::error!(%key, error = %cleanup, "font row failed and its file could not be removed");
                }
                Err(e.into())
            }
        }
    }

    /// The user's fonts, newest first.
    pub async fn list(&self, tenant: &str, user: &str) -> Result<Vec<Font>, FontError> {
        let rows = entity::Entity::find()
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::UserId.eq(user))
            .order_by_desc(entity::Column::CreatedMs)
            .order_by_desc(entity::Column::Id)
            .all(&self.db)
            .await?;
        Ok(rows.into_iter().map(|m| to_domain(m).font).collect())
    }

    /// One of the user's fonts; another user's or tenant's is not found.
    pub async fn get(&self, tenant: &str, user: &str, id: &str) -> Result<StoredFont, FontError> {
        entity::Entity::find_by_id(id.to_owned())
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::UserId.eq(user))
            .one(&self.db)
            .await?
            .map(to_domain)
            .ok_or_else(|| FontError::NotFound(id.to_owned()))
    }

    /// Deletes one of the user's fonts: the row goes only when its file went too.
    pub async fn delete(&self, tenant: &str, user: &str, id: &str) -> Result<(), FontError> {
        let stored = self.get(tenant, user, id).await?;
        let tx = reelforge_kit::db::begin_write(&self.db).await?;
        entity::Entity::delete_by_id(id.to_owned()).exec(&tx).await?;
        self.blob.delete(&stored.key).await?;
        tx.commit().await?;
        Ok(())
    }
}
