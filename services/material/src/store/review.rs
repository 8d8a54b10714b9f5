//! The manage area's review queues: users' materials submitted to the tenant's public library,
//! and the auditors' decisions on them.

use sea_orm::sea_query::Expr;
use sea_orm::{ColumnTrait, Condition, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder};

use super::{MaterialStore, entity, to_domain};
use crate::domain::{self, Material, MaterialError, MaterialKind, PageRequest};

/// The tenant's live user materials (never system ones: those are kept in the maintenance area).
fn users_of(tenant: &str) -> Condition {
    Condition::all()
        .add(entity::Column::Tenant.eq(tenant))
        .add(entity::Column::System.eq(false))
        .add(entity::Column::Deleted.eq(false))
}

impl MaterialStore {
    /// One page of the tenant's user materials of `kinds` in `open_state`, newest first, and the total.
    pub async fn queue(&self, tenant: &str, kinds: &[MaterialKind], open_state: i32, page: PageRequest) -> Result<(Vec<Material>, u64), MaterialError> {
        let pages = entity::Entity::find()
            .filter(users_of(tenant))
            .filter(entity::Column::Kind.is_in(kinds.iter().map(|k| k.as_str())))
            .filter(entity::Column::OpenState.eq(open_state))
            .order_by_desc(entity::Column::CreatedMs)
            .order_by_desc(entity::Column::Id)
            .paginate(&self.db, page.size);
        let total = pages.num_items().await?;
        let rows = pages.fetch_page(page.num.saturating_sub(1)).await?;
        Ok((rows.into_iter().map(to_domain).collect(), total))
    }

    /// An auditor's decision on several user materials of the tenant, all or none: an id that is
    /// not one of them (another tenant's, a system material, deleted) is NotFound and nothing changes.
    pub async fn audit_many(&self, tenant: &str, ids: &[String], state: i32, reason: &str) -> Result<u64, MaterialError> {
        let state = domain::check_audit_state(state)?;
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let found = entity::Entity::find().filter(users_of(tenant).add(entity::Column::Id.is_in(ids.iter().cloned()))).all(&txn).await?;
        if let Some(missing) = ids.iter().find(|id| !found.iter().any(|m| &m.id == *id)) {
            return Err(MaterialError::NotFound(missing.clone()));
        }
        let changed = entity::Entity::update_many()
            .col_expr(entity::Column::OpenState, Expr::value(state))
            .col_expr(entity::Column::AuditReason, Expr::value(reason.chars().take(500).collect::<String>()))
            .filter(users_of(tenant).add(entity::Column::Id.is_in(ids.iter().cloned())))
            .exec(&txn)
            .await?
            .rows_affected;
        txn.commit().await?;
        Ok(changed)
    }
}
