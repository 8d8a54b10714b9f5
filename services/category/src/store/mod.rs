//! The category table and its queries; entities never leave this module.

mod entity;
mod migration;

use sea_orm::{ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, Set};
use sea_orm_migration::MigratorTrait;

use crate::domain::{Category, CategoryError, Dimension};

/// Runs the service's migrations.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::up(db, None).await
}

/// The service's migrations as this binary carries them, for the upgrade page's listing.
pub fn migration_book() -> reelforge_kit::db::MigrationBook {
    reelforge_kit::db::MigrationBook::of::<migration::Migrator>("category")
}

/// Undoes the service's migrations, dropping what they made: the down path, which the migration
/// test runs up, down and up again.
pub async fn unmigrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::down(db, None).await
}

/// Category queries, always scoped to one tenant.
#[derive(Clone)]
pub struct CategoryStore {
    db: DatabaseConnection,
}

fn to_domain(m: entity::Model) -> Category {
    Category {
        id: m.id,
        name: m.name,
        dimension: Dimension::parse(&m.dimension).unwrap_or(Dimension::Use),
        higher_up_id: m.higher_up_id,
        push: m.push,
        children: Vec::new(),
    }
}

impl CategoryStore {
    /// Wraps a migrated database.
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    /// Returns the tenant's categories, optionally of one dimension, flat.
    pub async fn list(&self, tenant: &str, dimension: Option<Dimension>) -> Result<Vec<Category>, CategoryError> {
        let mut q = entity::Entity::find().filter(entity::Column::Tenant.eq(tenant));
        if let Some(d) = dimension {
            q = q.filter(entity::Column::Dimension.eq(d.as_str()));
        }
        Ok(q.all(&self.db).await?.into_iter().map(to_domain).collect())
    }

    async fn get(&self, tenant: &str, id: i64) -> Result<entity::Model, CategoryError> {
        entity::Entity::find_by_id(id)
            .filter(entity::Column::Tenant.eq(tenant))
            .one(&self.db)
            .await?
            .ok_or(CategoryError::NotFound(id))
    }

    /// The category `id` of the tenant and the ids of its children.
    pub async fn with_children(&self, tenant: &str, id: i64) -> Result<(Category, Vec<i64>), CategoryError> {
        let category = to_domain(self.get(tenant, id).await?);
        let children = entity::Entity::find()
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::HigherUpId.eq(id))
            .all(&self.db)
            .await?
            .into_iter()
            .map(|m| m.id)
            .collect();
        Ok((category, children))
    }

    /// Refuses `name` when another category of the tenant with the same dimension and parent has it.
    async fn unique_name(&self, tenant: &str, name: &str, dimension: &str, higher_up_id: i64, except: i64) -> Result<(), CategoryError> {
        let twin = entity::Entity::find()
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::Dimension.eq(dimension))
            .filter(entity::Column::HigherUpId.eq(higher_up_id))
            .filter(entity::Column::Name.eq(name))
            .filter(entity::Column::Id.ne(except))
            .one(&self.db)
            .await?;
        match twin {
            Some(_) => Err(CategoryError::Duplicate(name.to_owned())),
            None => Ok(()),
        }
    }

    /// Creates a category; a second-level one must name a first-level parent of the same tenant,
    /// and no other category beside it may have its name.
    pub async fn create(
        &self,
        tenant: &str,
        name: String,
        dimension: Dimension,
        higher_up_id: i64,
    ) -> Result<Category, CategoryError> {
        let parent = if higher_up_id >= 0 { Some(self.get(tenant, higher_up_id).await?) } else { None };
        if let Some(p) = &parent {
            if p.higher_up_id >= 0 {
                return Err(CategoryError::Invalid("higherUpId: categories have two levels only".into()));
            }
            if dimension == Dimension::Ivvr {
                return Err(CategoryError::Invalid("higherUpId: IVVR categories have one level".into()));
            }
        }
        let higher_up_id = if higher_up_id >= 0 { higher_up_id } else { -1 };
        self.unique_name(tenant, &name, dimension.as_str(), higher_up_id, -1).await?;
        let model = entity::ActiveModel {
            tenant: Set(tenant.to_owned()),
            name: Set(name),
            dimension: Set(dimension.as_str().to_owned()),
            higher_up_id: Set(higher_up_id),
            push: Set(false),
            ..Default::default()
        }
        .insert(&self.db)
        .await?;
        Ok(to_domain(model))
    }

    /// Renames a category; no other category beside it may have the name.
    pub async fn rename(&self, tenant: &str, id: i64, name: String) -> Result<Category, CategoryError> {
        let current = self.get(tenant, id).await?;
        self.unique_name(tenant, &name, &current.dimension, current.higher_up_id, id).await?;
        let mut m: entity::ActiveModel = current.into();
        m.name = Set(name);
        Ok(to_domain(m.update(&self.db).await?))
    }

    /// Sets the push flag of several categories at once: all of them are the tenant's, or none
    /// changes and the first unknown id is named.
    pub async fn set_push(&self, tenant: &str, ids: &[i64], push: bool) -> Result<(), CategoryError> {
        let tx = reelforge_kit::db::begin_write(&self.db).await?;
        let found: Vec<i64> = entity::Entity::find()
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::Id.is_in(ids.iter().copied()))
            .all(&tx)
            .await?
            .into_iter()
            .map(|m| m.id)
            .collect();
        if let Some(missing) = ids.iter().find(|id| !found.contains(id)) {
            return Err(CategoryError::NotFound(*missing));
        }
        entity::Entity::update_many()
            .col_expr(entity::Column::Push, sea_orm::sea_query::Expr::value(push))
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::Id.is_in(ids.iter().copied()))
            .exec(&tx)
            .await?;
        tx.commit().await?;
        Ok(())
    }

    /// Deletes a category with its children, in one transaction.
    pub async fn delete(&self, tenant: &str, id: i64) -> Result<(), CategoryError> {
        self.get(tenant, id).await?;
        let tx = reelforge_kit::db::begin_write(&self.db).await?;
        entity::Entity::delete_many()
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::HigherUpId.eq(id))
            .exec(&tx)
            .await?;
        entity::Entity::delete_by_id(id).exec(&tx).await?;
        tx.commit().await?;
        Ok(())
    }
}
