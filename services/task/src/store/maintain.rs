//! The maintenance area's rows (issue 29): the attempts of each render, the audit trail of
//! administrators' actions and the tenant's maintenance switch. Every query is scoped to the
//! administrator's tenant.

use reelforge_kit::db::now_millis;
use sea_orm::sea_query::{Expr, OnConflict};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, ConnectionTrait, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect, Set,
};

use super::entity::{render_job, video_task};
use super::{ACTIVE, JOB_QUEUED, JOB_RUNNING, TaskStore, to_domain};
use crate::domain::{JobRef, Owner, Run, TaskError, TaskStatus};
use crate::maintain::{
    Attempt, AuditEntry, AuditInput, Farm, SETTINGS, Setting, TOOLBOX_ENABLED, TOOLBOX_MAX_ACTIVE, TaskRow, TaskSearch, parse_setting,
};
use crate::offer::{self, Catalogue, OfferItem};

/// One start of a render job's attempt, with its end.
pub(super) mod render_attempt {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "render_attempt")]
    pub struct Model {
        /// `{job id}:{attempt}`.
        #[sea_orm(primary_key, auto_increment = false)]
        pub id: String,
        pub job_id: String,
        pub task_id: i64,
        pub tenant: String,
        pub attempt: i32,
        pub started_ms: i64,
        pub ended_ms: i64,
        #[sea_orm(column_type = "Text")]
        pub error: String,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// One administrator's action.
pub(super) mod maintain_audit {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "maintain_audit")]
    pub struct Model {
        #[sea_orm(primary_key)]
        pub id: i64,
        pub tenant: String,
        pub actor: String,
        pub action: String,
        /// What the action changed, as `kind:id` (`task:17`, `material:ab…`, `config:maintenance`).
        pub item: String,
        #[sea_orm(column_type = "Text")]
        pub before: String,
        #[sea_orm(column_type = "Text")]
        pub after: String,
        pub at_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// A tenant's maintenance switch; no row is off.
pub(super) mod maintain_mode {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "maintain_mode")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub tenant: String,
        pub enabled: bool,
        pub changed_by: String,
        pub changed_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

/// A tenant's value of a run-time setting; no row is the default.
pub(super) mod maintain_config {
    use sea_orm::entity::prelude::*;

    #[derive(Clone, Debug, PartialEq, Eq, DeriveEntityModel)]
    #[sea_orm(table_name = "maintain_config")]
    pub struct Model {
        #[sea_orm(primary_key, auto_increment = false)]
        pub tenant: String,
        #[sea_orm(primary_key, auto_increment = false)]
        pub key: String,
        pub value: String,
        pub changed_by: String,
        pub changed_ms: i64,
    }

    #[derive(Copy, Clone, Debug, EnumIter, DeriveRelation)]
    pub enum Relation {}

    impl ActiveModelBehavior for ActiveModel {}
}

fn attempt_key(job_id: &str, attempt: i32) -> String {
    format!("{job_id}:{attempt}")
}

/// Records in `txn` that `job`'s attempt started at `now` (a restart of the same attempt after a
/// release starts it again).
pub(super) async fn record_start(txn: &impl ConnectionTrait, job: &JobRef, now: i64) -> Result<(), TaskError> {
    let attempt = i32::try_from(job.attempt).unwrap_or(i32::MAX);
    let row = render_attempt::ActiveModel {
        id: Set(attempt_key(&job.job_id, attempt)),
        job_id: Set(job.job_id.clone()),
        task_id: Set(job.task_id),
        tenant: Set(job.tenant.clone()),
        attempt: Set(attempt),
        started_ms: Set(now),
        ended_ms: Set(0),
        error: Set(String::new()),
    };
    render_attempt::Entity::insert(row)
        .on_conflict(
            OnConflict::column(render_attempt::Column::Id)
                .update_columns([render_attempt::Column::StartedMs, render_attempt::Column::EndedMs])
                .to_owned(),
        )
        .exec(txn)
        .await?;
    Ok(())
}

/// Records in `txn` that the open attempts of job `job_id` ended at `now`, with `error` (empty: done).
pub(super) async fn record_end(txn: &impl ConnectionTrait, job_id: &str, now: i64, error: &str) -> Result<(), TaskError> {
    render_attempt::Entity::update_many()
        .col_expr(render_attempt::Column::EndedMs, Expr::value(now))
        .col_expr(render_attempt::Column::Error, Expr::value(error.to_owned()))
        .filter(render_attempt::Column::JobId.eq(job_id))
        .filter(render_attempt::Column::EndedMs.eq(0))
        .exec(txn)
        .await?;
    Ok(())
}

pub(super) fn audit_row(tenant: &str, entry: &AuditInput) -> maintain_audit::ActiveModel {
    maintain_audit::ActiveModel {
        tenant: Set(tenant.to_owned()),
        actor: Set(entry.actor.clone()),
        action: Set(entry.action.clone()),
        item: Set(entry.item.clone()),
        before: Set(entry.before.clone()),
        after: Set(entry.after.clone()),
        at_ms: Set(now_millis()),
        ..Default::default()
    }
}

fn task_row(m: video_task::Model) -> TaskRow {
    TaskRow { user_id: m.user_id.clone(), tool_type: m.tool_type.clone(), task: to_domain(m) }
}

impl TaskStore {
    /// Whether `tenant`'s farm is in maintenance (new renders and tool runs refused).
    pub async fn in_maintenance(&self, tenant: &str) -> Result<bool, TaskError> {
        Ok(maintain_mode::Entity::find_by_id(tenant.to_owned()).one(&self.db).await?.is_some_and(|m| m.enabled))
    }

    /// Refuses a new render or tool run while `tenant`'s farm is in maintenance.
    pub(super) async fn refuse_in_maintenance(&self, tenant: &str) -> Result<(), TaskError> {
        if self.in_maintenance(tenant).await? { Err(TaskError::Maintenance) } else { Ok(()) }
    }

    /// Where the deployment's database stands with each service's migrations in `books` (they
    /// share the one database, each recording its own in its own table).
    pub async fn migrations(
        &self,
        books: &[reelforge_kit::db::MigrationBook],
    ) -> Result<Vec<(&'static str, reelforge_kit::db::MigrationState)>, TaskError> {
        let mut out = Vec::new();
        for book in books {
            let states = reelforge_kit::db::migration_states(&self.db, book).await?;
            out.extend(states.into_iter().map(|s| (book.service, s)));
        }
        Ok(out)
    }

    /// The tenant's farm: its maintenance switch and the jobs still queued and running (draining).
    pub async fn farm(&self, tenant: &str) -> Result<Farm, TaskError> {
        let count = |state: &'static str| {
            render_job::Entity::find()
                .filter(render_job::Column::Tenant.eq(tenant))
                .filter(render_job::Column::State.eq(state))
                .count(&self.db)
        };
        let mode = maintain_mode::Entity::find_by_id(tenant.to_owned()).one(&self.db).await?;
        Ok(Farm {
            maintenance: mode.as_ref().is_some_and(|m| m.enabled),
            changed_by: mode.as_ref().map(|m| m.changed_by.clone()).unwrap_or_default(),
            changed_ms: mode.map(|m| m.changed_ms).unwrap_or_default(),
            queued: count(JOB_QUEUED).await?,
            running: count(JOB_RUNNING).await?,
        })
    }

    /// Turns `tenant`'s maintenance switch on or off, audited in the same transaction; running
    /// jobs are left to finish.
    pub async fn set_maintenance(&self, tenant: &str, actor: &str, on: bool) -> Result<Farm, TaskError> {
        let was = self.in_maintenance(tenant).await?;
        let now = now_millis();
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let row = maintain_mode::ActiveModel { tenant: Set(tenant.to_owned()), enabled: Set(on), changed_by: Set(actor.to_owned()), changed_ms: Set(now) };
        maintain_mode::Entity::insert(row)
            .on_conflict(
                OnConflict::column(maintain_mode::Column::Tenant)
                    .update_columns([maintain_mode::Column::Enabled, maintain_mode::Column::ChangedBy, maintain_mode::Column::ChangedMs])
                    .to_owned(),
            )
            .exec(&txn)
            .await?;
        let entry = AuditInput {
            actor: actor.to_owned(),
            action: "maintenance".into(),
            item: "farm:maintenance".into(),
            before: was.to_string(),
            after: on.to_string(),
        };
        audit_row(tenant, &entry).insert(&txn).await?;
        txn.commit().await?;
        tracing::info!(tenant, on, "maintenance switched");
        self.farm(tenant).await
    }

    /// One page (1-based) of `tenant`'s tasks, newest change first, with the total that pass.
    pub async fn search(&self, tenant: &str, search: &TaskSearch, page: u64, size: u64) -> Result<(Vec<TaskRow>, u64), TaskError> {
        let mut query = video_task::Entity::find().filter(video_task::Column::Tenant.eq(tenant));
        if let Some(id) = search.task_id {
            query = query.filter(video_task::Column::Id.eq(id));
        }
        if let Some(user) = search.user_id.as_deref().map(str::trim).filter(|u| !u.is_empty()) {
            query = query.filter(video_task::Column::UserId.eq(user));
        }
        if let Some(status) = search.status {
            query = query.filter(video_task::Column::Status.eq(status.code()));
        }
        let pages = query
            .order_by_desc(video_task::Column::UpdatedMs)
            .order_by_desc(video_task::Column::Id)
            .paginate(&self.db, Ord::max(size, 1));
        let total = pages.num_items().await?;
        let rows = pages.fetch_page(page.saturating_sub(1)).await?;
        Ok((rows.into_iter().map(task_row).collect(), total))
    }

    /// The render attempts of `tenant`'s task `id`, newest first; a job not yet started shows as
    /// one attempt with no start.
    pub async fn attempts(&self, tenant: &str, id: i64) -> Result<Vec<Attempt>, TaskError> {
        video_task::Entity::find_by_id(id)
            .filter(video_task::Column::Tenant.eq(tenant))
            .one(&self.db)
            .await?
            .ok_or(TaskError::NotFound(id))?;
        let jobs = render_job::Entity::find()
            .filter(render_job::Column::TaskId.eq(id))
            .filter(render_job::Column::Tenant.eq(tenant))
            .order_by_desc(render_job::Column::CreatedMs)
            .all(&self.db)
            .await?;
        let mut out = Vec::new();
        for job in jobs {
            let mut runs = render_attempt::Entity::find()
                .filter(render_attempt::Column::JobId.eq(&job.id))
                .order_by_desc(render_attempt::Column::Attempt)
                .all(&self.db)
                .await?;
            if runs.first().is_none_or(|r| r.attempt < job.attempt) && ACTIVE.contains(&job.state.as_str()) {
                // The current attempt is waiting for a worker.
                runs.insert(0, render_attempt::Model {
                    id: attempt_key(&job.id, job.attempt),
                    job_id: job.id.clone(),
                    task_id: id,
                    tenant: tenant.to_owned(),
                    attempt: job.attempt,
                    started_ms: 0,
                    ended_ms: 0,
                    error: String::new(),
                });
            }
            let latest = runs.first().map(|r| r.attempt);
            for r in runs {
                let state = if Some(r.attempt) == latest { job.state.clone() } else { "retried".into() };
                out.push(Attempt {
                    job_id: r.job_id,
                    attempt: u32::try_from(r.attempt).unwrap_or(0),
                    state,
                    queued_ms: job.created_ms,
                    started_ms: r.started_ms,
                    ended_ms: r.ended_ms,
                    error: r.error,
                });
            }
        }
        Ok(out)
    }

    /// Queues a new render of `tenant`'s failed task `id` through the outbox, as its owner's run
    /// would, and audits it; a task that is not failed is refused, naming its state.
    pub async fn requeue(&self, tenant: &str, actor: &str, id: i64) -> Result<Run, TaskError> {
        let task = video_task::Entity::find_by_id(id)
            .filter(video_task::Column::Tenant.eq(tenant))
            .one(&self.db)
            .await?
            .ok_or(TaskError::NotFound(id))?;
        let status = TaskStatus::from_code(task.status).unwrap_or(TaskStatus::New);
        if status != TaskStatus::Error {
            return Err(TaskError::Invalid(format!("taskId: task {id} is {}, only a failed task is requeued", status.key())));
        }
        if !task.tool_type.is_empty() {
            return Err(TaskError::NotAWork(id));
        }
        let owner = Owner { tenant: tenant.to_owned(), user_id: task.user_id.clone() };
        let run = self.run(&owner, id).await?;
        let entry = AuditInput {
            actor: actor.to_owned(),
            action: "requeue".into(),
            item: format!("task:{id}"),
            before: format!("error: {}", task.reason),
            after: format!("wait: job {}", run.job_id),
        };
        self.audit(tenant, &entry).await?;
        Ok(run)
    }

    /// Records one administrator action of `tenant`.
    pub async fn audit(&self, tenant: &str, entry: &AuditInput) -> Result<(), TaskError> {
        audit_row(tenant, entry).insert(&self.db).await?;
        Ok(())
    }

    /// `tenant`'s audit trail, newest first: of one item, or of every item when `item` is empty.
    pub async fn audit_trail(&self, tenant: &str, item: &str, limit: u64) -> Result<Vec<AuditEntry>, TaskError> {
        let mut query = maintain_audit::Entity::find().filter(maintain_audit::Column::Tenant.eq(tenant));
        if !item.is_empty() {
            query = query.filter(maintain_audit::Column::Item.eq(item));
        }
        let rows = query.order_by_desc(maintain_audit::Column::Id).limit(limit).all(&self.db).await?;
        Ok(rows
            .into_iter()
            .map(|r| AuditEntry { actor: r.actor, action: r.action, item: r.item, before: r.before, after: r.after, at_ms: r.at_ms })
            .collect())
    }

    /// `tenant`'s run-time settings, each with its value or default.
    pub async fn settings(&self, tenant: &str) -> Result<Vec<Setting>, TaskError> {
        let rows = maintain_config::Entity::find().filter(maintain_config::Column::Tenant.eq(tenant)).all(&self.db).await?;
        Ok(SETTINGS
            .iter()
            .map(|def| Setting {
                def: *def,
                value: rows.iter().find(|r| r.key == def.key).map_or_else(|| def.default.to_owned(), |r| r.value.clone()),
            })
            .collect())
    }

    /// `tenant`'s value of setting `key` (its default when none is set).
    async fn setting(&self, tenant: &str, key: &str) -> Result<String, TaskError> {
        Ok(self.settings(tenant).await?.into_iter().find(|s| s.def.key == key).map(|s| s.value).unwrap_or_default())
    }

    /// Sets `tenant`'s setting `key` after checking its range (the message names the key),
    /// audited in the same transaction; the calls that read it see the new value at once.
    pub async fn set_setting(&self, tenant: &str, actor: &str, key: &str, value: &str) -> Result<Setting, TaskError> {
        let (def, value) = parse_setting(key, value)?;
        let before = self.setting(tenant, key).await?;
        let entry = AuditInput { actor: actor.to_owned(), action: "config".into(), item: format!("config:{key}"), before, after: value.clone() };
        self.put_config(tenant, key, &value, &entry).await?;
        Ok(Setting { def, value })
    }

    /// Writes `tenant`'s configuration value `key` and its audit entry in one transaction.
    async fn put_config(&self, tenant: &str, key: &str, value: &str, entry: &AuditInput) -> Result<(), TaskError> {
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let row = maintain_config::ActiveModel {
            tenant: Set(tenant.to_owned()),
            key: Set(key.to_owned()),
            value: Set(value.to_owned()),
            changed_by: Set(entry.actor.clone()),
            changed_ms: Set(now_millis()),
        };
        maintain_config::Entity::insert(row)
            .on_conflict(
                OnConflict::columns([maintain_config::Column::Tenant, maintain_config::Column::Key])
                    .update_columns([maintain_config::Column::Value, maintain_config::Column::ChangedBy, maintain_config::Column::ChangedMs])
                    .to_owned(),
            )
            .exec(&txn)
            .await?;
        audit_row(tenant, entry).insert(&txn).await?;
        txn.commit().await?;
        Ok(())
    }

    /// `tenant`'s offer of `catalogue`: every entry once, in the tenant's order.
    pub async fn catalogue_offer(&self, tenant: &str, catalogue: Catalogue) -> Result<Vec<OfferItem>, TaskError> {
        let row = maintain_config::Entity::find()
            .filter(maintain_config::Column::Tenant.eq(tenant))
            .filter(maintain_config::Column::Key.eq(catalogue.config_key()))
            .one(&self.db)
            .await?;
        Ok(offer::resolve(catalogue, row.as_ref().map(|r| r.value.as_str())))
    }

    /// Sets `tenant`'s offer of `catalogue` after checking it (the message names what is wrong),
    /// audited with the hidden keys before and after.
    pub async fn set_catalogue_offer(&self, tenant: &str, actor: &str, catalogue: Catalogue, items: &[OfferItem]) -> Result<Vec<OfferItem>, TaskError> {
        offer::check(catalogue, items)?;
        let before = offer::hidden(&self.catalogue_offer(tenant, catalogue).await?);
        let entry = AuditInput { actor: actor.to_owned(), action: "catalogue".into(), item: catalogue.audit_item(), before, after: offer::hidden(items) };
        self.put_config(tenant, &catalogue.config_key(), &offer::stored(items), &entry).await?;
        Ok(items.to_vec())
    }

    /// Refuses a new tool run of `owner` when the tenant turned tool runs off or the owner has as
    /// many queued or running as the tenant allows.
    pub(super) async fn refuse_tool_run(&self, owner: &Owner) -> Result<(), TaskError> {
        let settings = self.settings(&owner.tenant).await?;
        let value = |key: &str| settings.iter().find(|s| s.def.key == key).map(|s| s.value.clone()).unwrap_or_default();
        if value(TOOLBOX_ENABLED) == "false" {
            return Err(TaskError::Invalid(format!("{TOOLBOX_ENABLED}: tool runs are turned off for this tenant")));
        }
        let max: u64 = value(TOOLBOX_MAX_ACTIVE).parse().unwrap_or(u64::MAX);
        let active = render_job::Entity::find()
            .filter(render_job::Column::Tenant.eq(&owner.tenant))
            .filter(render_job::Column::UserId.eq(&owner.user_id))
            .filter(render_job::Column::ToolType.ne(""))
            .filter(render_job::Column::State.is_in(ACTIVE))
            .count(&self.db)
            .await?;
        if active >= max {
            return Err(TaskError::Invalid(format!(
                "{TOOLBOX_MAX_ACTIVE}: {active} tool runs are already queued or running (at most {max} at once); wait for one to end"
            )));
        }
        Ok(())
    }
}
