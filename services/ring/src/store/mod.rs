//! The ring tables and their queries, scoped to tenant and user (the relay: order id). Every state
//! change is a conditional update on the state it moves from, and an order's state and its outbox
//! row are written in one transaction, so nothing is half-written and a late answer changes nothing.

mod entity;
mod migration;

use std::sync::Arc;

use entity::{ring_copyright, ring_order, ring_outbox, ring_receipt};
use reelforge_kit::db::{begin_write, now_millis};
use sea_orm::sea_query::Expr;
use sea_orm::{
    ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter,
    QueryOrder, QuerySelect, Set, SqlErr,
};
use sea_orm_migration::MigratorTrait;
use tokio::sync::Notify;

use crate::domain::{Action, NewOrder, Order, OrderState, RingError, moves};

/// Runs the service's migrations.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::up(db, None).await
}

/// The service's migrations as this binary carries them, for the upgrade page's listing.
pub fn migration_book() -> reelforge_kit::db::MigrationBook {
    reelforge_kit::db::MigrationBook::of::<migration::Migrator>("ring")
}

/// Undoes the service's migrations, dropping what they made: the down path, which the migration
/// test runs up, down and up again.
pub async fn unmigrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::down(db, None).await
}

/// How long a relay owns an outbox row it claimed: a relay that dies mid-delivery leaves the row due
/// again after this, so the delivery is tried again (the idempotency key makes that harmless).
const CLAIM_MS: i64 = 60_000;

/// An outbox row due for delivery.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEntry {
    /// The row.
    pub id: i64,
    /// The order to deliver.
    pub order_id: i64,
    /// What to deliver.
    pub action: Action,
    /// Deliveries tried so far.
    pub attempts: u32,
    /// When it fell due (a claim compares it, so two relays never both take the row).
    pub due_ms: i64,
}

/// A copyright proof the gateway stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Copyright {
    /// Its id (the uuid of its storage key).
    pub id: String,
    /// The file name the browser gave.
    pub name: String,
    /// Storage key.
    pub key: String,
    /// `jpeg`, `png` or `pdf`.
    pub format: String,
    /// Size in bytes.
    pub bytes: u64,
}

/// Ring queries.
#[derive(Clone)]
pub struct RingStore {
    db: DatabaseConnection,
    outbox: Arc<Notify>,
}

fn to_domain(m: ring_order::Model) -> Order {
    Order {
        id: m.id,
        tenant: m.tenant,
        user_id: m.user_id,
        task_id: m.task_id,
        task_name: m.task_name,
        video_key: m.video_key,
        cover_key: m.cover_key,
        phone: m.phone,
        // Only this module writes the column, always from an `OrderState`.
        state: OrderState::from_code(m.state).unwrap_or(OrderState::Error),
        reason: m.reason,
        retryable: m.retryable,
        copyright_id: m.copyright_id,
        platform_ref: m.platform_ref,
        attempts: u32::try_from(m.attempts).unwrap_or(0),
        created_ms: m.created_ms,
        updated_ms: m.updated_ms,
    }
}

fn is_unique_violation(e: &sea_orm::DbErr) -> bool {
    matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_)))
}

fn outbox_row(order_id: i64, action: Action, now: i64) -> ring_outbox::ActiveModel {
    ring_outbox::ActiveModel {
        order_id: Set(order_id),
        action: Set(action.as_str().to_owned()),
        attempts: Set(0),
        next_ms: Set(now),
        last_error: Set(String::new()),
        created_ms: Set(now),
        ..Default::default()
    }
}

impl RingStore {
    /// Wraps a migrated database.
    pub fn new(db: DatabaseConnection) -> Self {
        Self {
            db,
            outbox: Arc::new(Notify::new()),
        }
    }

    /// Woken when a move commits an outbox row.
    pub fn outbox_signal(&self) -> Arc<Notify> {
        self.outbox.clone()
    }

    fn mine(tenant: &str, user: &str) -> sea_orm::Select<ring_order::Entity> {
        ring_order::Entity::find()
            .filter(ring_order::Column::Tenant.eq(tenant))
            .filter(ring_order::Column::UserId.eq(user))
    }

    async fn live(&self, o: &NewOrder) -> Result<Option<Order>, RingError> {
        let row = Self::mine(&o.tenant, &o.user_id)
            .filter(ring_order::Column::TaskId.eq(o.task.id))
            .filter(ring_order::Column::Phone.eq(o.phone.as_str()))
            .filter(
                ring_order::Column::State
                    .is_not_in([OrderState::Error.code(), OrderState::CancelSetting.code()]),
            )
            .one(&self.db)
            .await?;
        Ok(row.map(to_domain))
    }

    /// Records an order in state NOTSET; while the caller has a live order of the same task and
    /// number, answers that one. The partial unique index decides between racing saves.
    pub async fn save(&self, o: NewOrder) -> Result<Order, RingError> {
        // A live order that fails between the refused insert and the read frees the slot: try again.
        for _ in 0..3 {
            if let Some(existing) = self.live(&o).await? {
                return Ok(existing);
            }
            let now = now_millis();
            let row = ring_order::ActiveModel {
                tenant: Set(o.tenant.clone()),
                user_id: Set(o.user_id.clone()),
                task_id: Set(o.task.id),
                task_name: Set(o.task.name.clone()),
                video_key: Set(o.task.video_key.clone()),
                cover_key: Set(o.task.cover_key.clone()),
                phone: Set(o.phone.as_str().to_owned()),
                state: Set(OrderState::NotSet.code()),
                reason: Set(String::new()),
                retryable: Set(false),
                copyright_id: Set(o.copyright_id.clone()),
                platform_ref: Set(String::new()),
                attempts: Set(0),
                video_bytes: Set(0),
                video_sha256: Set(String::new()),
                created_ms: Set(now),
                updated_ms: Set(now),
                ..Default::default()
            };
            match row.insert(&self.db).await {
                Ok(m) => return Ok(to_domain(m)),
                Err(e) if is_unique_violation(&e) => continue,
                Err(e) => return Err(e.into()),
            }
        }
        self.live(&o).await?.ok_or_else(|| {
            RingError::Invalid("the order changed while it was saved; save it again".into())
        })
    }

    /// The caller's order.
    pub async fn get(&self, tenant: &str, user: &str, id: i64) -> Result<Order, RingError> {
        Self::mine(tenant, user)
            .filter(ring_order::Column::Id.eq(id))
            .one(&self.db)
            .await?
            .map(to_domain)
            .ok_or(RingError::OrderNotFound(id))
    }

    /// Any order, by id (the relay's read).
    pub async fn order(&self, id: i64) -> Result<Option<Order>, RingError> {
        Ok(ring_order::Entity::find_by_id(id)
            .one(&self.db)
            .await?
            .map(to_domain))
    }

    /// Moves the caller's order as `decide` says and queues `action` for delivery, in one transaction.
    async fn move_and_queue(
        &self,
        tenant: &str,
        user: &str,
        id: i64,
        action: Action,
        decide: fn(&Order) -> Result<OrderState, RingError>,
    ) -> Result<Order, RingError> {
        let txn = begin_write(&self.db).await?;
        let Some(current) = Self::mine(tenant, user)
            .filter(ring_order::Column::Id.eq(id))
            .one(&txn)
            .await?
            .map(to_domain)
        else {
            txn.rollback().await?;
            return Err(RingError::OrderNotFound(id));
        };
        let to = match decide(&current) {
            Ok(to) => to,
            Err(e) => {
                txn.rollback().await?;
                return Err(e);
            }
        };
        let now = now_millis();
        let moved = ring_order::Entity::update_many()
            .col_expr(ring_order::Column::State, Expr::value(to.code()))
            .col_expr(ring_order::Column::Reason, Expr::value(String::new()))
            .col_expr(ring_order::Column::Retryable, Expr::value(false))
            .col_expr(ring_order::Column::Attempts, Expr::value(0))
            .col_expr(ring_order::Column::UpdatedMs, Expr::value(now))
            .filter(ring_order::Column::Id.eq(id))
            .filter(ring_order::Column::State.eq(current.state.code()))
            .exec(&txn)
            .await;
        let moved = match moved {
            Ok(r) => r,
            // A failed order made live again while a newer live order of the same task and number exists.
            Err(e) if is_unique_violation(&e) => {
                txn.rollback().await?;
                return Err(RingError::OrderState {
                    from: current.state,
                    action: action.as_str(),
                });
            }
            Err(e) => return Err(e.into()),
        };
        if moved.rows_affected == 0 {
            txn.rollback().await?;
            return Err(RingError::OrderState {
                from: current.state,
                action: action.as_str(),
            });
        }
        // A row of the same order and action left by an earlier, finished delivery is replaced.
        ring_outbox::Entity::delete_many()
            .filter(ring_outbox::Column::OrderId.eq(id))
            .filter(ring_outbox::Column::Action.eq(action.as_str()))
            .exec(&txn)
            .await?;
        outbox_row(id, action, now).insert(&txn).await?;
        txn.commit().await?;
        self.outbox.notify_one();
        self.get(tenant, user, id).await
    }

    /// `ringUpload`: SETTING, with a `set` delivery queued.
    pub async fn upload(&self, tenant: &str, user: &str, id: i64) -> Result<Order, RingError> {
        self.move_and_queue(tenant, user, id, Action::Set, moves::upload)
            .await
    }

    /// `cancel`: CANCEL_SETTING, with a `cancel` delivery queued.
    pub async fn cancel(&self, tenant: &str, user: &str, id: i64) -> Result<Order, RingError> {
        self.move_and_queue(tenant, user, id, Action::Cancel, moves::cancel)
            .await
    }

    /// A page of the tenant's orders (one user's when `user` is given), newest first, and the total.
    pub async fn list(
        &self,
        tenant: &str,
        user: Option<&str>,
        page: u64,
        size: u64,
        state: Option<OrderState>,
    ) -> Result<(u64, Vec<Order>), RingError> {
        let mut q = ring_order::Entity::find().filter(ring_order::Column::Tenant.eq(tenant));
        if let Some(u) = user {
            q = q.filter(ring_order::Column::UserId.eq(u));
        }
        if let Some(s) = state {
            q = q.filter(ring_order::Column::State.eq(s.code()));
        }
        let pages = q
            .order_by_desc(ring_order::Column::Id)
            .paginate(&self.db, Ord::max(size, 1));
        let total = pages.num_items().await?;
        let rows = pages.fetch_page(page.saturating_sub(1)).await?;
        Ok((total, rows.into_iter().map(to_domain).collect()))
    }

    /// Up to `max` outbox rows due now, oldest first.
    pub async fn due(&self, max: u64) -> Result<Vec<OutboxEntry>, RingError> {
        let rows = ring_outbox::Entity::find()
            .filter(ring_outbox::Column::NextMs.lte(now_millis()))
            .order_by_asc(ring_outbox::Column::NextMs)
            .order_by_asc(ring_outbox::Column::Id)
            .limit(max)
            .all(&self.db)
            .await?;
        Ok(rows
            .into_iter()
            .filter_map(|r| {
                Some(OutboxEntry {
                    id: r.id,
                    order_id: r.order_id,
                    action: Action::parse(&r.action)?,
                    attempts: u32::try_from(r.attempts).unwrap_or(0),
                    due_ms: r.next_ms,
                })
            })
            .collect())
    }

    /// Claims a row for this relay (a compare-and-set on its due time); false when another relay
    /// took it first.
    pub async fn claim(&self, entry: &OutboxEntry) -> Result<bool, RingError> {
        let claimed = ring_outbox::Entity::update_many()
            .col_expr(
                ring_outbox::Column::NextMs,
                Expr::value(now_millis() + CLAIM_MS),
            )
            .filter(ring_outbox::Column::Id.eq(entry.id))
            .filter(ring_outbox::Column::NextMs.eq(entry.due_ms))
            .exec(&self.db)
            .await?;
        Ok(claimed.rows_affected > 0)
    }

    /// Drops an outbox row whose order is gone or no longer waits for it.
    pub async fn drop_entry(&self, id: i64) -> Result<(), RingError> {
        ring_outbox::Entity::delete_by_id(id).exec(&self.db).await?;
        Ok(())
    }

    /// The video's size and SHA-256 as recorded for the order, once measured.
    pub async fn video_digest(&self, order_id: i64) -> Result<Option<(u64, String)>, RingError> {
        let row = ring_order::Entity::find_by_id(order_id)
            .one(&self.db)
            .await?;
        Ok(row
            .filter(|r| !r.video_sha256.is_empty())
            .map(|r| (u64::try_from(r.video_bytes).unwrap_or(0), r.video_sha256)))
    }

    /// Records the video's size and SHA-256, so a retry does not read it again.
    pub async fn set_video_digest(
        &self,
        order_id: i64,
        bytes: u64,
        sha256: &str,
    ) -> Result<(), RingError> {
        ring_order::Entity::update_many()
            .col_expr(
                ring_order::Column::VideoBytes,
                Expr::value(i64::try_from(bytes).unwrap_or(i64::MAX)),
            )
            .col_expr(
                ring_order::Column::VideoSha256,
                Expr::value(sha256.to_owned()),
            )
            .filter(ring_order::Column::Id.eq(order_id))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Ends a delivery: the order moves from the state the action left it in to `to` (with the
    /// reason and the platform's reference), and the outbox row goes, in one transaction.
    /// `retryable` marks a failure a new upload may retry. False when the order had moved on.
    pub async fn finish(
        &self,
        entry: &OutboxEntry,
        to: OrderState,
        reason: &str,
        retryable: bool,
        platform_ref: Option<&str>,
    ) -> Result<bool, RingError> {
        let from = match entry.action {
            Action::Set => OrderState::Setting,
            Action::Cancel => OrderState::CancelSetting,
        };
        let txn = begin_write(&self.db).await?;
        let mut update = ring_order::Entity::update_many()
            .col_expr(ring_order::Column::State, Expr::value(to.code()))
            .col_expr(ring_order::Column::Reason, Expr::value(reason.to_owned()))
            .col_expr(ring_order::Column::Retryable, Expr::value(retryable))
            .col_expr(
                ring_order::Column::Attempts,
                Expr::value(i32::try_from(entry.attempts + 1).unwrap_or(i32::MAX)),
            )
            .col_expr(ring_order::Column::UpdatedMs, Expr::value(now_millis()));
        if let Some(r) = platform_ref.filter(|r| !r.is_empty()) {
            update = update.col_expr(ring_order::Column::PlatformRef, Expr::value(r.to_owned()));
        }
        let moved = update
            .filter(ring_order::Column::Id.eq(entry.order_id))
            .filter(ring_order::Column::State.eq(from.code()))
            .exec(&txn)
            .await?;
        ring_outbox::Entity::delete_by_id(entry.id)
            .exec(&txn)
            .await?;
        txn.commit().await?;
        Ok(moved.rows_affected > 0)
    }

    /// Puts a delivery off until `next_ms` after a try that did not reach the platform.
    pub async fn postpone(
        &self,
        entry: &OutboxEntry,
        attempts: u32,
        next_ms: i64,
        error: &str,
    ) -> Result<(), RingError> {
        let txn = begin_write(&self.db).await?;
        let n = i32::try_from(attempts).unwrap_or(i32::MAX);
        ring_outbox::Entity::update_many()
            .col_expr(ring_outbox::Column::Attempts, Expr::value(n))
            .col_expr(ring_outbox::Column::NextMs, Expr::value(next_ms))
            .col_expr(
                ring_outbox::Column::LastError,
                Expr::value(error.chars().take(500).collect::<String>()),
            )
            .filter(ring_outbox::Column::Id.eq(entry.id))
            .exec(&txn)
            .await?;
        ring_order::Entity::update_many()
            .col_expr(ring_order::Column::Attempts, Expr::value(n))
            .col_expr(ring_order::Column::UpdatedMs, Expr::value(now_millis()))
            .filter(ring_order::Column::Id.eq(entry.order_id))
            .exec(&txn)
            .await?;
        txn.commit().await?;
        Ok(())
    }

    /// Outbox rows waiting (all orders), for tests and the metrics of the relay.
    pub async fn outbox_len(&self) -> Result<u64, RingError> {
        Ok(ring_outbox::Entity::find().count(&self.db).await?)
    }

    /// The local platform's receipt for `key` of `tenant`: recorded on first delivery, the same
    /// reference answered for every repeat (the idempotency key).
    pub async fn receipt(
        &self,
        tenant: &str,
        key: &str,
        order_id: i64,
        action: Action,
        phone: &str,
        task_id: i64,
    ) -> Result<String, RingError> {
        let find = || {
            ring_receipt::Entity::find()
                .filter(ring_receipt::Column::Tenant.eq(tenant))
                .filter(ring_receipt::Column::IdempotencyKey.eq(key))
        };
        if let Some(r) = find().one(&self.db).await? {
            return Ok(r.reference);
        }
        let reference = format!("local-{}", uuid::Uuid::new_v4().simple());
        let row = ring_receipt::ActiveModel {
            tenant: Set(tenant.to_owned()),
            idempotency_key: Set(key.to_owned()),
            order_id: Set(order_id),
            action: Set(action.as_str().to_owned()),
            phone: Set(phone.to_owned()),
            task_id: Set(task_id),
            reference: Set(reference.clone()),
            created_ms: Set(now_millis()),
            ..Default::default()
        };
        match row.insert(&self.db).await {
            Ok(_) => Ok(reference),
            Err(e) if is_unique_violation(&e) => find()
                .one(&self.db)
                .await?
                .map(|r| r.reference)
                .ok_or(RingError::Store(e)),
            Err(e) => Err(e.into()),
        }
    }

    /// How many receipts the local platform holds for `tenant` (what it accepted).
    pub async fn receipts(&self, tenant: &str) -> Result<u64, RingError> {
        Ok(ring_receipt::Entity::find()
            .filter(ring_receipt::Column::Tenant.eq(tenant))
            .count(&self.db)
            .await?)
    }

    /// Records a copyright proof the gateway stored for the caller.
    pub async fn record_copyright(
        &self,
        tenant: &str,
        user: &str,
        c: Copyright,
    ) -> Result<Copyright, RingError> {
        ring_copyright::ActiveModel {
            id: Set(c.id.clone()),
            tenant: Set(tenant.to_owned()),
            user_id: Set(user.to_owned()),
            name: Set(c.name.clone()),
            key: Set(c.key.clone()),
            format: Set(c.format.clone()),
            bytes: Set(i64::try_from(c.bytes).unwrap_or(i64::MAX)),
            created_ms: Set(now_millis()),
        }
        .insert(&self.db)
        .await?;
        Ok(c)
    }

    /// The caller's copyright proof.
    pub async fn copyright(
        &self,
        tenant: &str,
        user: &str,
        id: &str,
    ) -> Result<Copyright, RingError> {
        ring_copyright::Entity::find_by_id(id.to_owned())
            .filter(ring_copyright::Column::Tenant.eq(tenant))
            .filter(ring_copyright::Column::UserId.eq(user))
            .one(&self.db)
            .await?
            .map(|m| Copyright {
                id: m.id,
                name: m.name,
                key: m.key,
                format: m.format,
                bytes: u64::try_from(m.bytes).unwrap_or(0),
            })
            .ok_or_else(|| RingError::CopyrightNotFound(id.to_owned()))
    }
}
