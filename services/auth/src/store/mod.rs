//! The user table; entities never leave this module.

mod entity;
mod migration;

use sea_orm::{ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, Set};
use sea_orm_migration::MigratorTrait;

use crate::domain::{AuthError, DEFAULT_OPERATOR_LEVEL, Mail};

/// Runs the service's migrations.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::up(db, None).await
}

/// User queries, scoped to one tenant.
#[derive(Clone)]
pub struct UserStore {
    db: DatabaseConnection,
}

impl UserStore {
    /// Wraps a migrated database.
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db }
    }

    async fn find(&self, tenant: &str, mail: &Mail) -> Result<Option<entity::Model>, AuthError> {
        Ok(entity::Entity::find()
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::Mail.eq(mail.as_str()))
            .one(&self.db)
            .await?)
    }

    /// Returns the user's operator level, creating the user with the default level on first sign-in.
    pub async fn find_or_create(&self, tenant: &str, mail: &Mail) -> Result<i32, AuthError> {
        if let Some(user) = self.find(tenant, mail).await? {
            return Ok(user.operator_level);
        }
        let inserted = entity::ActiveModel {
            tenant: Set(tenant.to_owned()),
            mail: Set(mail.as_str().to_owned()),
            operator_level: Set(DEFAULT_OPERATOR_LEVEL),
            created_ms: Set(reelforge_kit::db::now_millis()),
            ..Default::default()
        }
        .insert(&self.db)
        .await;
        match inserted {
            Ok(user) => Ok(user.operator_level),
            // A concurrent first sign-in won the unique index; read its row.
            Err(e) => self.find(tenant, mail).await?.map(|u| u.operator_level).ok_or(AuthError::Store(e)),
        }
    }

    /// Sets a user's operator level (back-office and tests); an unknown user is left alone.
    pub async fn set_operator_level(&self, tenant: &str, mail: &Mail, level: i32) -> Result<(), AuthError> {
        entity::Entity::update_many()
            .col_expr(entity::Column::OperatorLevel, sea_orm::sea_query::Expr::value(level))
            .filter(entity::Column::Tenant.eq(tenant))
            .filter(entity::Column::Mail.eq(mail.as_str()))
            .exec(&self.db)
            .await?;
        Ok(())
    }
}
