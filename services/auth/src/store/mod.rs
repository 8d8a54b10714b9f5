//! The user table; entities never leave this module. Every query names the tenant.

mod entity;
mod provider;
mod migration;

use reelforge_kit::identity::OperatorLevel;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set};
use sea_orm_migration::MigratorTrait;

use crate::domain::{AuthError, User, UserPage};

/// Runs the service's migrations.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::up(db, None).await
}

/// The service's migrations as this binary carries them, for the upgrade page's listing.
pub fn migration_book() -> reelforge_kit::db::MigrationBook {
    reelforge_kit::db::MigrationBook::of::<migration::Migrator>("auth")
}

/// Undoes the service's migrations, dropping what they made: the down path, which the migration
/// test runs up, down and up again.
pub async fn unmigrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::down(db, None).await
}

/// User queries, scoped to one tenant.
#[derive(Clone)]
pub struct UserStore {
    db: DatabaseConnection,
}

fn to_domain(m: entity::Model) -> User {
    User {
        tenant: m.tenant,
        user_id: m.mail,
        mobile: m.mobile,
        // A level outside the spec's table (written by hand) counts as the default one.
        level: OperatorLevel::from_number(m.operator_level).unwrap_or(OperatorLevel::DEFAULT),
        disabled: m.disabled,
        created_ms: m.created_ms,
    }
}

impl UserStore {
    /// Wraps a migrated database.
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    /// The user `user_id` of `tenant`, if any.
    pub async fn find(&self, tenant: &str, user_id: &str) -> Result<Option<User>, AuthError> {
        Ok(entity::Entity::find()
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::Mail.eq(user_id))
            .one(&self.db)
            .await?
            .map(to_domain))
    }

    /// The user of `tenant` with mobile number `mobile` (the first made, should two share one), if any.
    pub async fn find_by_mobile(&self, tenant: &str, mobile: &str) -> Result<Option<User>, AuthError> {
        if mobile.trim().is_empty() {
            return Ok(None);
        }
        Ok(entity::Entity::find()
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::Mobile.eq(mobile.trim()))
            .order_by_asc(entity::Column::CreatedMs)
            .one(&self.db)
            .await?
            .map(to_domain))
    }

    /// The user, created with `level` on first sign-in; a known user keeps their level, and a
    /// non-empty `mobile` replaces theirs.
    pub async fn find_or_create(&self, tenant: &str, user_id: &str, mobile: &str, level: OperatorLevel) -> Result<User, AuthError> {
        if let Some(user) = self.find(tenant, user_id).await? {
            if !mobile.is_empty() && user.mobile != mobile {
                self.update(tenant, user_id, entity::Column::Mobile, Expr::value(mobile)).await?;
                return Ok(User { mobile: mobile.to_owned(), ..user });
            }
            return Ok(user);
        }
        let inserted = entity::ActiveModel {
            tenant: Set(tenant.to_owned()),
            mail: Set(user_id.to_owned()),
            operator_level: Set(level.number()),
            created_ms: Set(reelforge_kit::db::now_millis()),
            mobile: Set(mobile.to_owned()),
            disabled: Set(false),
            ..Default::default()
        }
        .insert(&self.db)
        .await;
        match inserted {
            Ok(user) => Ok(to_domain(user)),
            // A concurrent first sign-in won the unique index; read its row.
            Err(e) => self.find(tenant, user_id).await?.ok_or(AuthError::Store(e)),
        }
    }

    async fn update(&self, tenant: &str, user_id: &str, column: entity::Column, value: sea_orm::sea_query::SimpleExpr) -> Result<bool, AuthError> {
        let done = entity::Entity::update_many()
            .col_expr(column, value)
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::Mail.eq(user_id))
            .exec(&self.db)
            .await?;
        Ok(done.rows_affected > 0)
    }

    /// Sets a user's operator level; an unknown user is an error naming them.
    pub async fn set_level(&self, tenant: &str, user_id: &str, level: OperatorLevel) -> Result<(), AuthError> {
        if self.update(tenant, user_id, entity::Column::OperatorLevel, Expr::value(level.number())).await? {
            Ok(())
        } else {
            Err(AuthError::NoSuchUser(user_id.to_owned()))
        }
    }

    /// Turns a user off or on; an unknown user is an error naming them.
    pub async fn set_disabled(&self, tenant: &str, user_id: &str, disabled: bool) -> Result<(), AuthError> {
        if self.update(tenant, user_id, entity::Column::Disabled, Expr::value(disabled)).await? {
            Ok(())
        } else {
            Err(AuthError::NoSuchUser(user_id.to_owned()))
        }
    }

    /// The tenant's users whose id contains `keyword`, oldest first; `page` counts from 1.
    pub async fn list(&self, tenant: &str, keyword: &str, page: u64, size: u64) -> Result<UserPage, AuthError> {
        let mut query = entity::Entity::find().filter(entity::Column::Tenant.eq(tenant));
        if !keyword.is_empty() {
            query = query.filter(entity::Column::Mail.contains(keyword));
        }
        let total = query.clone().count(&self.db).await?;
        let list = query
            .order_by_asc(entity::Column::Id)
            .offset(page.saturating_sub(1).saturating_mul(size))
            .limit(size)
            .all(&self.db)
            .await?
            .into_iter()
            .map(to_domain)
            .collect();
        Ok(UserPage { list, total })
    }
}
