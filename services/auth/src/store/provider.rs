//! The `provider_application` rows; every query names the tenant.

use reelforge_kit::db::now_millis;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set};

use crate::domain::AuthError;
use crate::provider::{Application, ApplicationInput, ApplicationState, check_pending};

use super::UserStore;

/// One application.
mod provider_application {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "provider_application")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub user_id: String,
        pub name: String,
        pub contact: String,
        #[sea_orm(column_type = "Text")]
        pub intro: String,
        pub state: String,
        #[sea_orm(column_type = "Text")]
        pub reason: String,
        pub reviewed_by: String,
        pub created_ms: i64,
        pub reviewed_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

use provider_application::{ActiveModel, Column, Entity, Model};

fn to_domain(m: Model) -> Application {
    Application {
        id: m.id,
        user_id: m.user_id,
        name: m.name,
        contact: m.contact,
        intro: m.intro,
        // A state outside the three (written by hand) waits for review again.
        state: ApplicationState::parse(&m.state).unwrap_or(ApplicationState::Pending),
        reason: m.reason,
        reviewed_by: m.reviewed_by,
        created_ms: m.created_ms,
        reviewed_ms: m.reviewed_ms,
    }
}

impl UserStore {
    /// Records `user_id`'s application, pending; refused while one waits for review or once the
    /// user is a provider.
    pub async fn apply(&self, tenant: &str, user_id: &str, input: ApplicationInput) -> Result<Application, AuthError> {
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let open = Entity::find()
            .filter(Column::Tenant.eq(tenant))
            .filter(Column::UserId.eq(user_id))
            .filter(Column::State.is_in([ApplicationState::Pending.name(), ApplicationState::Approved.name()]))
            .one(&txn)
            .await?;
        if let Some(open) = open {
            let why = if open.state == ApplicationState::Approved.name() {
                "you are already a service provider".to_owned()
            } else {
                format!("application {} is still waiting for review", open.id)
            };
            return Err(AuthError::Invalid(why));
        }
        let row = ActiveModel {
            tenant: Set(tenant.to_owned()),
            user_id: Set(user_id.to_owned()),
            name: Set(input.name),
            contact: Set(input.contact),
            intro: Set(input.intro),
            state: Set(ApplicationState::Pending.name().to_owned()),
            reason: Set(String::new()),
            reviewed_by: Set(String::new()),
            created_ms: Set(now_millis()),
            reviewed_ms: Set(0),
            ..Default::default()
        }
        .insert(&txn)
        .await?;
        txn.commit().await?;
        Ok(to_domain(row))
    }

    /// `user_id`'s applications, newest first.
    pub async fn applications_of(&self, tenant: &str, user_id: &str) -> Result<Vec<Application>, AuthError> {
        let rows = Entity::find()
            .filter(Column::Tenant.eq(tenant))
            .filter(Column::UserId.eq(user_id))
            .order_by_desc(Column::Id)
            .all(&self.db)
            .await?;
        Ok(rows.into_iter().map(to_domain).collect())
    }

    /// One page of the tenant's applications in `state`: pending ones oldest first (the queue),
    /// decided ones newest decision first.
    pub async fn applications(&self, tenant: &str, state: ApplicationState, page: u64, size: u64) -> Result<(Vec<Application>, u64), AuthError> {
        let query = Entity::find().filter(Column::Tenant.eq(tenant)).filter(Column::State.eq(state.name()));
        let total = query.clone().count(&self.db).await?;
        let query = match state {
            ApplicationState::Pending => query.order_by_asc(Column::Id),
            _ => query.order_by_desc(Column::ReviewedMs).order_by_desc(Column::Id),
        };
        let rows = query.offset(page.saturating_sub(1).saturating_mul(size)).limit(size).all(&self.db).await?;
        Ok((rows.into_iter().map(to_domain).collect(), total))
    }

    /// The tenant's application `id`.
    pub async fn application(&self, tenant: &str, id: i64) -> Result<Application, AuthError> {
        Entity::find_by_id(id).filter(Column::Tenant.eq(tenant)).one(&self.db).await?.map(to_domain).ok_or(AuthError::NoSuchApplication(id))
    }

    /// Decides a pending application; of two managers deciding at once, the second is told it was
    /// already decided.
    pub async fn decide(&self, tenant: &str, id: i64, reviewer: &str, state: ApplicationState, reason: &str) -> Result<Application, AuthError> {
        check_pending(&self.application(tenant, id).await?)?;
        let done = Entity::update_many()
            .col_expr(Column::State, Expr::value(state.name()))
            .col_expr(Column::Reason, Expr::value(reason))
            .col_expr(Column::ReviewedBy, Expr::value(reviewer))
            .col_expr(Column::ReviewedMs, Expr::value(now_millis()))
            .filter(Column::Id.eq(id))
            .filter(Column::Tenant.eq(tenant))
            .filter(Column::State.eq(ApplicationState::Pending.name()))
            .exec(&self.db)
            .await?;
        let after = self.application(tenant, id).await?;
        if done.rows_affected == 0 {
            check_pending(&after)?;
        }
        Ok(after)
    }

    /// Whether `user_id` is a service provider: an application of theirs was approved.
    pub async fn is_provider(&self, tenant: &str, user_id: &str) -> Result<bool, AuthError> {
        let approved = Entity::find()
            .filter(Column::Tenant.eq(tenant))
            .filter(Column::UserId.eq(user_id))
            .filter(Column::State.eq(ApplicationState::Approved.name()))
            .count(&self.db)
            .await?;
        Ok(approved > 0)
    }
}
