//! The task, render-job and outbox tables and their queries; entities never leave this module.
//! Every state change of a render is a conditional update, so a duplicate or late report changes
//! nothing.

mod collection;
mod contest;
mod enterprise;
mod entity;
mod fair;
mod maintain;
mod market;
mod migration;
mod one_click;
mod template;
pub use one_click::OneClickTemplate;
pub use template::TEMPLATE_PAGE_MAX;

use std::sync::Arc;

use entity::{render_job, render_outbox, video_task};
use prost::Message;
use reelforge_kit::db::now_millis;
use sea_orm::sea_query::{Expr, ExprTrait};
use sea_orm::{
    ActiveModelTrait, ColumnTrait, Condition, DatabaseConnection, EntityTrait, PaginatorTrait, QueryFilter, QueryOrder, QuerySelect,
    Set, SqlErr,
};
use sea_orm_migration::MigratorTrait;
use tokio::sync::Notify;

use crate::domain::{
    COPY_SUFFIX, DEFAULT_NAME, FinishOutcome, JobRef, Library, MAX_NAME_CHARS, NoLibrary, Order, Owner, Run, Stage, Task, TaskDraft,
    TaskError, TaskFilter, TaskState, TaskStatus, ToolRun, blank_rule, check_rule_for, confirm_inputs, confirm_materials,
    template_grant,
};
use reelforge_timeline::MaterialRef;
use reelforge_timeline::source::{Access, Grant};

/// Runs the service's migrations.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::up(db, None).await
}

/// The service's migrations as this binary carries them, for the upgrade page's listing.
pub fn migration_book() -> reelforge_kit::db::MigrationBook {
    reelforge_kit::db::MigrationBook::of::<migration::Migrator>("task")
}

/// Undoes the service's migrations, dropping what they made: the down path, which the migration
/// test runs up, down and up again.
pub async fn unmigrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::down(db, None).await
}

/// Task queries and render runs, scoped to tenant and user (workers: tenant and job).
#[derive(Clone)]
pub struct TaskStore {
    db: DatabaseConnection,
    outbox: Arc<Notify>,
    library: Arc<dyn Library>,
    providers: Arc<dyn crate::market::Providers>,
    directory: Arc<dyn crate::enterprise::Directory>,
}

/// A grant as `render_job.granted` keeps it.
#[derive(serde::Serialize, serde::Deserialize, Default)]
struct StoredGrant {
    owner: String,
    keys: Vec<String>,
    materials: Vec<String>,
}

fn grant_text(g: &Grant) -> String {
    if g.is_empty() {
        return String::new();
    }
    let stored = StoredGrant { owner: g.owner.clone(), keys: g.keys.iter().cloned().collect(), materials: g.materials.iter().cloned().collect() };
    serde_json::to_string(&stored).unwrap_or_default()
}

fn grant_of(text: &str) -> StoredGrant {
    if text.is_empty() {
        return StoredGrant::default();
    }
    serde_json::from_str(text).unwrap_or_else(|e| {
        tracing::warn!(error = %e, "unreadable job grant: the job gets none");
        StoredGrant::default()
    })
}

/// The keys a job's video and cover must be stored under: `t/{tenant}/tasks/{taskId}/renders/{jobId}`.
pub fn render_keys(tenant: &str, task_id: i64, job_id: &str) -> (String, String) {
    let base = format!("{}renders/{job_id}", renders_prefix(tenant, task_id));
    (format!("{base}.mp4"), format!("{base}.jpg"))
}

/// Render-job states.
/// The `usedFor` of a plain work in the editor's default mode (spec editor-core §2).
const PLAIN_WORK: &str = "ALL";
const JOB_QUEUED: &str = "queued";
const JOB_RUNNING: &str = "running";
const JOB_DONE: &str = "done";
const JOB_FAILED: &str = "failed";
const JOB_CANCELLED: &str = "cancelled";
const ACTIVE: [&str; 2] = [JOB_QUEUED, JOB_RUNNING];

fn to_domain(m: video_task::Model) -> Task {
    Task {
        id: m.id,
        name: m.name,
        task_info: m.task_info,
        status: TaskStatus::from_code(m.status).unwrap_or(TaskStatus::New),
        size_category_id: m.size_category_id,
        used_for: m.used_for,
        video_key: m.video_key,
        cover_key: m.cover_key,
        reason: m.reason,
        percent: u32::try_from(m.percent.clamp(0, 100)).unwrap_or(0),
        created_ms: m.created_ms,
        updated_ms: m.updated_ms,
        version: m.version,
        duration_ms: m.duration_ms,
        loudness: m.loudness,
        tool: (!m.tool_type.is_empty()).then(|| ToolRun {
            tool_type: m.tool_type,
            params: m.tool_params,
            material_ids: serde_json::from_str(&m.tool_inputs).unwrap_or_default(),
            outputs: serde_json::from_str(&m.tool_outputs).unwrap_or_default(),
        }),
    }
}

/// The storage prefix of a tool job's outputs, under its task's renders prefix (so a deleted
/// run's outputs go with it): `t/{tenant}/tasks/{taskId}/renders/{jobId}/`.
pub fn tool_prefix(tenant: &str, task_id: i64, job_id: &str) -> String {
    format!("{}renders/{job_id}/", renders_prefix(tenant, task_id))
}

/// A deleted task: what its owner's storage held for it, and the render to stop.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Deleted {
    /// The task.
    pub task_id: i64,
    /// Its queued or running render job, if any.
    pub active_job: Option<String>,
    /// The objects to remove: its render and cover.
    pub keys: Vec<String>,
}

/// The storage prefix of a task's renders (the worker stores each render and cover under it).
pub fn renders_prefix(tenant: &str, task_id: i64) -> String {
    format!("t/{tenant}/tasks/{task_id}/")
}

/// Returns `name` with the copy suffix, shortened to fit [`MAX_NAME_CHARS`].
fn copy_name(name: &str) -> String {
    let keep = MAX_NAME_CHARS.saturating_sub(COPY_SUFFIX.chars().count());
    let base: String = name.chars().take(keep).collect();
    format!("{base}{COPY_SUFFIX}")
}

/// Escapes `%`, `_` and `\` for a LIKE pattern with `\` as the escape character.
fn like_escape(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    for c in text.chars() {
        if matches!(c, '%' | '_' | '\\') {
            out.push('\\');
        }
        out.push(c);
    }
    out
}

const RENDERING: [i32; 2] = [0, 1];

/// A render job waiting in the outbox.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct OutboxEntry {
    /// The outbox row (also the queue message id: job id and attempt).
    pub id: String,
    /// The encoded `RenderJob`.
    pub body: Vec<u8>,
    /// Failed publishes so far.
    pub tries: u32,
    /// When the row fell due (a claim compares it, so two relays never both claim the row).
    pub due_ms: i64,
}

/// A job the reaper took back from a silent worker.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Reaped {
    /// Queued again with the next attempt.
    Requeued(JobRef),
    /// Out of attempts: the task failed.
    Failed(JobRef),
}

fn job_body(job: &render_job::Model) -> Vec<u8> {
    let grant = grant_of(&job.granted);
    reelforge_proto::render::RenderJob {
        job_id: job.id.clone(),
        task_id: job.task_id,
        tenant: job.tenant.clone(),
        attempt: u32::try_from(job.attempt).unwrap_or(1),
        task_info: job.task_info.clone(),
        user_id: job.user_id.clone(),
        grant_owner: grant.owner,
        granted_keys: grant.keys,
        granted_materials: grant.materials,
        tool_type: job.tool_type.clone(),
        tool_params: job.tool_params.clone(),
        material_ids: serde_json::from_str(&job.tool_inputs).unwrap_or_default(),
    }
    .encode_to_vec()
}

fn outbox_row(job: &render_job::Model, now: i64) -> render_outbox::ActiveModel {
    render_outbox::ActiveModel {
        id: Set(format!("{}:{}", job.id, job.attempt)),
        job_id: Set(job.id.clone()),
        body: Set(job_body(job)),
        tries: Set(0),
        next_ms: Set(now),
        created_ms: Set(now),
    }
}

fn job_ref(job: &render_job::Model) -> JobRef {
    JobRef {
        tenant: job.tenant.clone(),
        task_id: job.task_id,
        job_id: job.id.clone(),
        attempt: u32::try_from(job.attempt).unwrap_or(0),
    }
}

fn attempt_of(job: &JobRef) -> i32 {
    i32::try_from(job.attempt).unwrap_or(i32::MAX)
}

/// A new task row of `owner` (not yet inserted), status new, version 1.
fn new_task_row(owner: &Owner, draft: TaskDraft) -> video_task::ActiveModel {
    let now = now_millis();
    video_task::ActiveModel {
        tenant: Set(owner.tenant.clone()),
        user_id: Set(owner.user_id.clone()),
        name: Set(draft.name),
        task_info: Set(draft.task_info),
        status: Set(TaskStatus::New.code()),
        size_category_id: Set(draft.size_category_id),
        used_for: Set(draft.used_for),
        video_key: Set(String::new()),
        cover_key: Set(String::new()),
        reason: Set(String::new()),
        percent: Set(0),
        created_ms: Set(now),
        updated_ms: Set(now),
        version: Set(1),
        duration_ms: Set(draft.duration_ms),
        template_id: Set(draft.template_id),
        ..Default::default()
    }
}

impl TaskStore {
    /// Wraps a migrated database.
    pub fn new(db: DatabaseConnection) -> Self {
        Self { db, outbox: Arc::new(Notify::new()), library: Arc::new(NoLibrary), providers: Arc::new(crate::market::NoProviders), directory: Arc::new(crate::enterprise::NoDirectory) }
    }

    /// The same store, confirming the materials documents name by address in `library`.
    pub fn with_library(self, library: Arc<dyn Library>) -> Self {
        Self { library, ..self }
    }

    /// The store asking `providers` who is a service provider (the marketplace).
    pub fn with_providers(self, providers: Arc<dyn crate::market::Providers>) -> Self {
        Self { providers, ..self }
    }

    /// The store asking `directory` who the users of a tenant are (adding an enterprise member).
    pub fn with_directory(self, directory: Arc<dyn crate::enterprise::Directory>) -> Self {
        Self { directory, ..self }
    }

    /// What template `id` of `tenant` lends the tasks made from it (nothing for 0 or a template
    /// that is gone).
    pub(crate) async fn template_grant(&self, tenant: &str, id: i64) -> Result<Grant, TaskError> {
        if id <= 0 {
            return Ok(Grant::default());
        }
        let row = entity::video_template::Entity::find_by_id(id)
            .filter(entity::video_template::Column::Tenant.eq(tenant))
            .one(&self.db)
            .await?;
        Ok(row.map(|t| template_grant(&t.creator_id, &t.task_info)).unwrap_or_default())
    }

    /// The template the owner's task `id` was made from (0: none).
    pub(crate) async fn made_from(&self, owner: &Owner, id: i64) -> Result<i64, TaskError> {
        Ok(self.owned(owner, id).await?.template_id)
    }

    /// The sources the owner's task `id` may name: the owner's, the tenant's system materials and
    /// what the template it was made from lends; a new task (id 0 or below) is made from none.
    pub async fn access(&self, owner: &Owner, id: i64) -> Result<Access, TaskError> {
        if id <= 0 {
            return Ok(owner.access());
        }
        let task = self.work(owner, id).await?;
        Ok(owner.access().with_grant(self.template_grant(&owner.tenant, task.template_id).await?))
    }

    /// Refuses, naming its field, a material named by address that is not the owner's own or a
    /// system material (the library's answer); the template's were taken out before.
    pub async fn confirm(&self, owner: &Owner, refs: &[MaterialRef]) -> Result<(), TaskError> {
        confirm_materials(self.library.as_ref(), owner, refs).await
    }

    /// Woken when a run commits a job to the outbox, and when a job leaves the queue (started,
    /// ended, cancelled or deleted), which may let its tenant's next job go out.
    pub fn outbox_signal(&self) -> Arc<Notify> {
        self.outbox.clone()
    }

    async fn owned(&self, owner: &Owner, id: i64) -> Result<video_task::Model, TaskError> {
        video_task::Entity::find_by_id(id)
            .filter(video_task::Column::Tenant.eq(&owner.tenant))
            .filter(video_task::Column::UserId.eq(&owner.user_id))
            .one(&self.db)
            .await?
            .ok_or(TaskError::NotFound(id))
    }

    /// The owner's editor work `id`; a toolbox run is refused (the editor's calls never act on one).
    async fn work(&self, owner: &Owner, id: i64) -> Result<video_task::Model, TaskError> {
        let task = self.owned(owner, id).await?;
        if !task.tool_type.is_empty() {
            return Err(TaskError::NotAWork(id));
        }
        Ok(task)
    }

    /// Refuses a task `id` that is not the owner's editor work (none, another's, or a toolbox run).
    pub async fn confirm_work(&self, owner: &Owner, id: i64) -> Result<(), TaskError> {
        self.work(owner, id).await.map(|_| ())
    }

    /// Inserts a new task or overwrites the owner's task; returns its id. An overwrite naming the
    /// version it was based on is one compare-and-set `UPDATE … WHERE version = ?`: a newer stored
    /// version refuses it as stale and nothing changes. Every overwrite increments the version.
    pub async fn save(&self, owner: &Owner, draft: TaskDraft) -> Result<i64, TaskError> {
        let now = now_millis();
        match draft.task_id {
            None => Ok(new_task_row(owner, draft).insert(&self.db).await?.id),
            Some(id) => {
                let mut update = video_task::Entity::update_many()
                    .col_expr(video_task::Column::Name, Expr::value(draft.name))
                    .col_expr(video_task::Column::TaskInfo, Expr::value(draft.task_info))
                    .col_expr(video_task::Column::SizeCategoryId, Expr::value(draft.size_category_id))
                    .col_expr(video_task::Column::UsedFor, Expr::value(draft.used_for))
                    .col_expr(video_task::Column::DurationMs, Expr::value(draft.duration_ms))
                    .col_expr(video_task::Column::UpdatedMs, Expr::value(now))
                    .col_expr(video_task::Column::Version, Expr::col(video_task::Column::Version).add(1))
                    .filter(video_task::Column::Id.eq(id))
                    .filter(video_task::Column::Tenant.eq(&owner.tenant))
                    .filter(video_task::Column::UserId.eq(&owner.user_id))
                    .filter(video_task::Column::ToolType.eq(""));
                if let Some(version) = draft.version {
                    update = update.filter(video_task::Column::Version.eq(version));
                }
                if update.exec(&self.db).await?.rows_affected == 0 {
                    // Not the owner's task, a toolbox run, or a newer version is stored.
                    self.work(owner, id).await?;
                    return Err(TaskError::Stale);
                }
                Ok(id)
            }
        }
    }

    /// Returns the owner's tasks of `ids` in the order given; any id not the owner's fails.
    pub async fn of_ids(&self, owner: &Owner, ids: &[i64]) -> Result<Vec<Task>, TaskError> {
        let rows = video_task::Entity::find()
            .filter(video_task::Column::Id.is_in(ids.iter().copied()))
            .filter(video_task::Column::Tenant.eq(&owner.tenant))
            .filter(video_task::Column::UserId.eq(&owner.user_id))
            .all(&self.db)
            .await?;
        ids.iter()
            .map(|id| rows.iter().find(|r| r.id == *id).cloned().map(to_domain).ok_or(TaskError::NotFound(*id)))
            .collect()
    }

    /// Renames the owner's task (its document and version unchanged); returns it.
    pub async fn rename(&self, owner: &Owner, id: i64, name: &str) -> Result<Task, TaskError> {
        self.work(owner, id).await?;
        let updated = video_task::Entity::update_many()
            .col_expr(video_task::Column::Name, Expr::value(name.to_owned()))
            .col_expr(video_task::Column::UpdatedMs, Expr::value(now_millis()))
            .filter(video_task::Column::Id.eq(id))
            .filter(video_task::Column::Tenant.eq(&owner.tenant))
            .filter(video_task::Column::UserId.eq(&owner.user_id))
            .exec(&self.db)
            .await?;
        if updated.rows_affected == 0 {
            return Err(TaskError::NotFound(id));
        }
        self.get(owner, id).await
    }

    /// Copies the owner's task as a new task never run, named "{name} 副本"; returns its id.
    pub async fn duplicate(&self, owner: &Owner, id: i64) -> Result<i64, TaskError> {
        let from = self.work(owner, id).await?;
        // A copy is a new task saved with the original's document: one way to make a task row.
        let draft = TaskDraft {
            task_id: None,
            name: copy_name(&from.name),
            task_info: from.task_info,
            size_category_id: from.size_category_id,
            used_for: from.used_for,
            version: None,
            duration_ms: from.duration_ms,
            warnings: Vec::new(),
            template_id: from.template_id,
        };
        self.save(owner, draft).await
    }

    /// Resets the owner's task to one blank scene, named 未命名, status new (a new version);
    /// returns it and the keys of its former render and cover, for the caller to remove. A task
    /// being rendered is refused.
    pub async fn clear(&self, owner: &Owner, id: i64) -> Result<(Task, Vec<String>), TaskError> {
        let task = self.work(owner, id).await?;
        let blank = blank_rule(&task.task_info, &task.used_for);
        let access = owner.access().with_grant(self.template_grant(&owner.tenant, task.template_id).await?);
        let checked = check_rule_for(&blank, &access)?;
        let cleared = video_task::Entity::update_many()
            .col_expr(video_task::Column::Name, Expr::value(DEFAULT_NAME.to_owned()))
            .col_expr(video_task::Column::TaskInfo, Expr::value(blank))
            .col_expr(video_task::Column::Status, Expr::value(TaskStatus::New.code()))
            .col_expr(video_task::Column::VideoKey, Expr::value(String::new()))
            .col_expr(video_task::Column::CoverKey, Expr::value(String::new()))
            .col_expr(video_task::Column::Reason, Expr::value(String::new()))
            .col_expr(video_task::Column::Percent, Expr::value(0))
            .col_expr(video_task::Column::DurationMs, Expr::value(checked.duration_ms))
            .col_expr(video_task::Column::Loudness, Expr::value(Option::<f64>::None))
            .col_expr(video_task::Column::UpdatedMs, Expr::value(now_millis()))
            .col_expr(video_task::Column::Version, Expr::col(video_task::Column::Version).add(1))
            .filter(video_task::Column::Id.eq(id))
            .filter(video_task::Column::Status.is_not_in(RENDERING))
            .exec(&self.db)
            .await?;
        if cleared.rows_affected == 0 {
            return Err(TaskError::Rendering(id));
        }
        let keys = [task.video_key, task.cover_key].into_iter().filter(|k| !k.is_empty()).collect();
        Ok((self.get(owner, id).await?, keys))
    }

    /// Deletes the owner's tasks of `ids`, all or none (any id not the owner's fails, nothing
    /// deleted), with their render jobs and unsent outbox rows, in one transaction. A worker
    /// rendering one finds its job gone at its next heartbeat and stops. Returns what each held in
    /// storage, for the caller to remove once the rows are gone.
    pub async fn delete(&self, owner: &Owner, ids: &[i64]) -> Result<Vec<Deleted>, TaskError> {
        let tasks = self.of_ids(owner, ids).await?;
        let ids: Vec<i64> = tasks.iter().map(|t| t.id).collect();
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let jobs = render_job::Entity::find().filter(render_job::Column::TaskId.is_in(ids.clone())).all(&txn).await?;
        let job_ids: Vec<String> = jobs.iter().map(|j| j.id.clone()).collect();
        if !job_ids.is_empty() {
            render_outbox::Entity::delete_many().filter(render_outbox::Column::JobId.is_in(job_ids)).exec(&txn).await?;
            render_job::Entity::delete_many().filter(render_job::Column::TaskId.is_in(ids.clone())).exec(&txn).await?;
        }
        let removed = video_task::Entity::delete_many()
            .filter(video_task::Column::Id.is_in(ids.clone()))
            .filter(video_task::Column::Tenant.eq(&owner.tenant))
            .filter(video_task::Column::UserId.eq(&owner.user_id))
            .exec(&txn)
            .await?;
        if removed.rows_affected != ids.len() as u64 {
            // A concurrent delete took some: this one answers for none of them.
            txn.rollback().await?;
            return Err(TaskError::NotFound(ids.first().copied().unwrap_or_default()));
        }
        txn.commit().await?;
        self.outbox.notify_one();
        Ok(tasks
            .into_iter()
            .map(|t| Deleted {
                active_job: jobs.iter().find(|j| j.task_id == t.id && ACTIVE.contains(&j.state.as_str())).map(|j| j.id.clone()),
                keys: [t.video_key, t.cover_key].into_iter().filter(|k| !k.is_empty()).collect(),
                task_id: t.id,
            })
            .collect())
    }

    /// Returns the owner's task.
    pub async fn get(&self, owner: &Owner, id: i64) -> Result<Task, TaskError> {
        Ok(to_domain(self.owned(owner, id).await?))
    }

    /// Returns one page (1-based) of the owner's tasks that pass `filter`, in its order, with the
    /// total that pass.
    pub async fn mine(&self, owner: &Owner, filter: &TaskFilter, page: u64, size: u64) -> Result<(Vec<Task>, u64), TaskError> {
        let mut query = video_task::Entity::find()
            .filter(video_task::Column::Tenant.eq(&owner.tenant))
            .filter(video_task::Column::UserId.eq(&owner.user_id))
            .filter(video_task::Column::UsedFor.ne(crate::template::PREVIEW_USED_FOR))
            .filter(video_task::Column::ToolType.eq(""));
        if !filter.states.is_empty() {
            query = query.filter(video_task::Column::Status.is_in(filter.states.iter().copied()));
        }
        if !filter.size_category_ids.is_empty() {
            query = query.filter(video_task::Column::SizeCategoryId.is_in(filter.size_category_ids.iter().copied()));
        }
        if let Some(used_for) = &filter.used_for {
            // A plain work is saved as `ALL` by the editor (its default mode) and as empty by a
            // bare API save: asking for either finds both.
            let used_for = used_for.trim();
            query = if used_for.is_empty() || used_for == PLAIN_WORK {
                query.filter(video_task::Column::UsedFor.is_in(["", PLAIN_WORK]))
            } else {
                query.filter(video_task::Column::UsedFor.eq(used_for))
            };
        }
        let name = filter.name.trim();
        if !name.is_empty() {
            let pattern = format!("%{}%", like_escape(&name.to_lowercase()));
            query = query.filter(
                Expr::expr(sea_orm::sea_query::Func::lower(Expr::col(video_task::Column::Name))).like(
                    sea_orm::sea_query::LikeExpr::new(pattern).escape('\\'),
                ),
            );
        }
        query = match filter.order {
            Order::Newest => query.order_by_desc(video_task::Column::UpdatedMs).order_by_desc(video_task::Column::Id),
            Order::Oldest => query.order_by_asc(video_task::Column::CreatedMs).order_by_asc(video_task::Column::Id),
        };
        let pages = query.paginate(&self.db, Ord::max(size, 1));
        let total = pages.num_items().await?;
        let rows = pages.fetch_page(page.saturating_sub(1)).await?;
        Ok((rows.into_iter().map(to_domain).collect(), total))
    }

    /// Returns the owner's task state as the database knows it (progress lives in the cache).
    pub async fn state(&self, owner: &Owner, id: i64) -> Result<TaskState, TaskError> {
        let t = self.get(owner, id).await?;
        let job_id = self.active_run(id).await?.map(|r| r.job_id);
        Ok(TaskState {
            job_id,
            updated_ms: t.updated_ms,
            task_id: t.id,
            status: t.status,
            percent: t.percent,
            stage: Stage::of_status(t.status),
            video_key: t.video_key,
            reason: t.reason,
            frames: (0, 0),
            eta_seconds: None,
        })
    }

    async fn active_run(&self, task_id: i64) -> Result<Option<Run>, TaskError> {
        let job = render_job::Entity::find()
            .filter(render_job::Column::TaskId.eq(task_id))
            .filter(render_job::Column::State.is_in(ACTIVE))
            .one(&self.db)
            .await?;
        Ok(job.map(|j| Run {
            status: if j.state == JOB_RUNNING { TaskStatus::Executing } else { TaskStatus::Wait },
            job_id: j.id,
        }))
    }

    /// Queues a render of the owner's saved rule and returns its job; a task already queued or
    /// rendering answers its current job. One transaction marks the task waiting and writes the job
    /// row and its outbox row; the partial unique index on active jobs makes a concurrent second
    /// run fail its insert and answer the first run's job instead.
    pub async fn run(&self, owner: &Owner, id: i64) -> Result<Run, TaskError> {
        let task = self.work(owner, id).await?;
        if let Some(run) = self.active_run(id).await? {
            return Ok(run);
        }
        self.refuse_in_maintenance(&owner.tenant).await?;
        // Checked again: the document may predate a rule, and what the owner may use can change.
        let access = owner.access().with_grant(self.template_grant(&owner.tenant, task.template_id).await?);
        let checked = check_rule_for(&task.task_info, &access)?;
        self.confirm(owner, &checked.materials).await?;
        let now = now_millis();
        let job = render_job::Model {
            id: uuid::Uuid::new_v4().to_string(),
            task_id: id,
            tenant: owner.tenant.clone(),
            user_id: owner.user_id.clone(),
            state: JOB_QUEUED.to_owned(),
            attempt: 1,
            heartbeat_ms: 0,
            task_info: task.task_info,
            created_ms: now,
            granted: grant_text(&access.grant),
            tool_type: String::new(),
            tool_params: String::new(),
            tool_inputs: String::new(),
        };
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        // The insert comes first so SQLite takes its write lock before any read of this transaction.
        let inserted = render_job::ActiveModel::from(job.clone()).insert(&txn).await;
        if let Err(e) = inserted {
            txn.rollback().await?;
            if matches!(e.sql_err(), Some(SqlErr::UniqueConstraintViolation(_))) {
                // A concurrent run won; its job may even have ended already, then this one is its answer.
                return match self.active_run(id).await? {
                    Some(run) => Ok(run),
                    None => Err(TaskError::Invalid(format!("taskId: task {id} changed state during the run; run it again"))),
                };
            }
            return Err(e.into());
        }
        video_task::Entity::update_many()
            .col_expr(video_task::Column::Status, Expr::value(TaskStatus::Wait.code()))
            .col_expr(video_task::Column::Percent, Expr::value(0))
            .col_expr(video_task::Column::Reason, Expr::value(String::new()))
            .col_expr(video_task::Column::UpdatedMs, Expr::value(now))
            .filter(video_task::Column::Id.eq(id))
            .exec(&txn)
            .await?;
        outbox_row(&job, now).insert(&txn).await?;
        txn.commit().await?;
        self.outbox.notify_one();
        tracing::info!(task_id = id, job_id = %job.id, "render queued");
        Ok(Run { job_id: job.id, status: TaskStatus::Wait })
    }

    /// Queues a tool run of the owner: its inputs confirmed in the material library, then one
    /// transaction writes the task (waiting), its job and the job's outbox row. Returns the task
    /// and its job; nothing is written when the inputs are refused.
    pub async fn run_tool(&self, owner: &Owner, mut tool: ToolRun) -> Result<(i64, Run), TaskError> {
        self.refuse_in_maintenance(&owner.tenant).await?;
        self.refuse_tool_run(owner).await?;
        // An audit of a work carries the work's document to the worker, as a render does.
        let mut job_info = String::new();
        if tool.tool_type == reelforge_tools::ring_fix::RING_FIX {
            tool.params = self.ring_fix_source(owner, &tool.params).await?;
        } else if tool.tool_type == reelforge_ai::audit::VIDEO_AUDIT && tool.material_ids.is_empty() {
            (tool.params, job_info) = self.audit_source(owner, &tool.params).await?;
        } else {
            confirm_inputs(self.library.as_ref(), owner, &tool.material_ids).await?;
        }
        let now = now_millis();
        let inputs = serde_json::to_string(&tool.material_ids).unwrap_or_default();
        let name = reelforge_tools::ToolType::parse(&tool.tool_type).map_or(tool.tool_type.as_str(), |t| t.path()).to_owned();
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let task = video_task::ActiveModel {
            status: Set(TaskStatus::Wait.code()),
            tool_type: Set(tool.tool_type.clone()),
            tool_params: Set(tool.params.clone()),
            tool_inputs: Set(inputs.clone()),
            tool_outputs: Set(String::new()),
            ..new_task_row(owner, TaskDraft {
                task_id: None,
                name,
                task_info: String::new(),
                size_category_id: 0,
                used_for: String::new(),
                version: None,
                duration_ms: 0,
                warnings: Vec::new(),
                template_id: 0,
            })
        }
        .insert(&txn)
        .await?;
        let job = render_job::Model {
            id: uuid::Uuid::new_v4().to_string(),
            task_id: task.id,
            tenant: owner.tenant.clone(),
            user_id: owner.user_id.clone(),
            state: JOB_QUEUED.to_owned(),
            attempt: 1,
            heartbeat_ms: 0,
            task_info: job_info,
            created_ms: now,
            granted: String::new(),
            tool_type: tool.tool_type,
            tool_params: tool.params,
            tool_inputs: inputs,
        };
        render_job::ActiveModel::from(job.clone()).insert(&txn).await?;
        outbox_row(&job, now).insert(&txn).await?;
        txn.commit().await?;
        self.outbox.notify_one();
        tracing::info!(task_id = task.id, job_id = %job.id, tool = %job.tool_type, "tool run queued");
        Ok((task.id, Run { job_id: job.id, status: TaskStatus::Wait }))
    }

    /// A video audit's source work: the owner's own editor work, whose document (`taskInfo`) the
    /// job carries and whose finished render's key, when it has one, the parameters gain.
    async fn audit_source(&self, owner: &Owner, params: &str) -> Result<(String, String), TaskError> {
        let mut value: serde_json::Value = serde_json::from_str(params).map_err(|e| TaskError::Invalid(format!("params: {e}")))?;
        let id = value.get("sourceTaskId").and_then(serde_json::Value::as_i64).unwrap_or_default();
        let source = match self.work(owner, id).await {
            Err(TaskError::NotFound(_) | TaskError::NotAWork(_)) => return Err(TaskError::Invalid(format!("taskId: work {id} does not exist among your works"))),
            r => r?,
        };
        if source.status == TaskStatus::Success.code() && !source.video_key.is_empty() {
            value["sourceKey"] = serde_json::Value::String(source.video_key);
        }
        Ok((value.to_string(), source.task_info))
    }

    /// Adds to a RING_FIX run's parameters the video key of its source work, which must be the
    /// owner's own editor work with a finished render (the worker reads that key, under the
    /// owner's tenant, as the run's input).
    async fn ring_fix_source(&self, owner: &Owner, params: &str) -> Result<String, TaskError> {
        let mut value: serde_json::Value = serde_json::from_str(params).map_err(|e| TaskError::Invalid(format!("params: {e}")))?;
        let id = value.get("sourceTaskId").and_then(serde_json::Value::as_i64).unwrap_or_default();
        let source = self.owned(owner, id).await?;
        if !source.tool_type.is_empty() || source.status != TaskStatus::Success.code() || source.video_key.is_empty() {
            return Err(TaskError::Invalid(format!("sourceTaskId: task {id} has no finished video to fix")));
        }
        value["sourceKey"] = serde_json::Value::String(source.video_key);
        Ok(value.to_string())
    }

    /// Returns one page (1-based) of the owner's toolbox runs (not the ringtone's fixes,
    /// dubbings, audits, recognitions nor pictures), of `tool_type` when given, newest first, with the total.
    pub async fn mine_tools(&self, owner: &Owner, tool_type: Option<&str>, page: u64, size: u64) -> Result<(Vec<Task>, u64), TaskError> {
        let mut query = video_task::Entity::find()
            .filter(video_task::Column::Tenant.eq(&owner.tenant))
            .filter(video_task::Column::UserId.eq(&owner.user_id))
            .filter(video_task::Column::ToolType.ne(""))
            .filter(video_task::Column::ToolType.ne(reelforge_tools::ring_fix::RING_FIX))
            .filter(video_task::Column::ToolType.ne(reelforge_ai::speech::TEXT_TO_VOICE))
            .filter(video_task::Column::ToolType.ne(reelforge_ai::audit::VIDEO_AUDIT))
            .filter(video_task::Column::ToolType.ne(reelforge_ai::asr::VOICE_TO_TEXT))
            .filter(video_task::Column::ToolType.ne(reelforge_ai::picture::TEXT_TO_IMAGE))
            .filter(video_task::Column::ToolType.ne(reelforge_ai::picture::SIMILAR_IMAGE));
        if let Some(t) = tool_type {
            query = query.filter(video_task::Column::ToolType.eq(t));
        }
        let pages = query
            .order_by_desc(video_task::Column::CreatedMs)
            .order_by_desc(video_task::Column::Id)
            .paginate(&self.db, Ord::max(size, 1));
        let total = pages.num_items().await?;
        let rows = pages.fetch_page(page.saturating_sub(1)).await?;
        Ok((rows.into_iter().map(to_domain).collect(), total))
    }

    /// Refuses (and logs) a worker's call naming a job that was published for another task or
    /// tenant: the job row records both, written at run time. A job id no row has is left to the
    /// conditional update, which changes nothing.
    async fn bound(&self, job: &JobRef) -> Result<(), TaskError> {
        let row = render_job::Entity::find_by_id(job.job_id.clone()).one(&self.db).await?;
        match row {
            Some(r) if r.task_id != job.task_id || r.tenant != job.tenant => {
                tracing::warn!(job_id = %job.job_id, task_id = job.task_id, tenant = %job.tenant, job_task_id = r.task_id,
                    job_tenant = %r.tenant, "worker call refused: the job was published for another task or tenant");
                Err(TaskError::JobMismatch(job.job_id.clone()))
            }
            _ => Ok(()),
        }
    }

    /// Takes a delivery of a job for rendering: it must carry the job's current attempt, and the
    /// job must be queued, or running with a silent worker (heartbeat older than `stale_ms`).
    /// Returns false for a delivery to drop: cancelled, ended, superseded, or rendered elsewhere.
    pub async fn start(&self, job: &JobRef, stale_ms: i64) -> Result<bool, TaskError> {
        self.bound(job).await?;
        let now = now_millis();
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let took = render_job::Entity::update_many()
            .col_expr(render_job::Column::State, Expr::value(JOB_RUNNING))
            .col_expr(render_job::Column::HeartbeatMs, Expr::value(now))
            .filter(render_job::Column::Id.eq(&job.job_id))
            .filter(render_job::Column::Tenant.eq(&job.tenant))
            .filter(render_job::Column::TaskId.eq(job.task_id))
            .filter(render_job::Column::Attempt.eq(attempt_of(job)))
            .filter(
                Condition::any().add(render_job::Column::State.eq(JOB_QUEUED)).add(
                    Condition::all()
                        .add(render_job::Column::State.eq(JOB_RUNNING))
                        .add(render_job::Column::HeartbeatMs.lt(now - stale_ms)),
                ),
            )
            .exec(&txn)
            .await?;
        if took.rows_affected == 0 {
            txn.rollback().await?;
            return Ok(false);
        }
        maintain::record_start(&txn, job, now).await?;
        video_task::Entity::update_many()
            .col_expr(video_task::Column::Status, Expr::value(TaskStatus::Executing.code()))
            .col_expr(video_task::Column::UpdatedMs, Expr::value(now))
            .filter(video_task::Column::Id.eq(job.task_id))
            .filter(video_task::Column::Status.is_in(RENDERING))
            .exec(&txn)
            .await?;
        txn.commit().await?;
        self.outbox.notify_one();
        Ok(true)
    }

    /// Records that a worker still renders this attempt; false when the job is no longer its own
    /// (cancelled, or taken back by the reaper).
    pub async fn heartbeat(&self, job: &JobRef) -> Result<bool, TaskError> {
        self.bound(job).await?;
        let beat = render_job::Entity::update_many()
            .col_expr(render_job::Column::HeartbeatMs, Expr::value(now_millis()))
            .filter(render_job::Column::Id.eq(&job.job_id))
            .filter(render_job::Column::Tenant.eq(&job.tenant))
            .filter(render_job::Column::TaskId.eq(job.task_id))
            .filter(render_job::Column::Attempt.eq(attempt_of(job)))
            .filter(render_job::Column::State.eq(JOB_RUNNING))
            .exec(&self.db)
            .await?;
        Ok(beat.rows_affected > 0)
    }

    /// Puts a job a worker started back to queued (the worker hands its delivery back), so the
    /// next delivery of the same attempt may start it; false when it is no longer running.
    pub async fn release(&self, job: &JobRef) -> Result<bool, TaskError> {
        self.bound(job).await?;
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let released = render_job::Entity::update_many()
            .col_expr(render_job::Column::State, Expr::value(JOB_QUEUED))
            .filter(render_job::Column::Id.eq(&job.job_id))
            .filter(render_job::Column::Tenant.eq(&job.tenant))
            .filter(render_job::Column::TaskId.eq(job.task_id))
            .filter(render_job::Column::Attempt.eq(attempt_of(job)))
            .filter(render_job::Column::State.eq(JOB_RUNNING))
            .exec(&txn)
            .await?;
        if released.rows_affected == 0 {
            txn.rollback().await?;
            return Ok(false);
        }
        video_task::Entity::update_many()
            .col_expr(video_task::Column::Status, Expr::value(TaskStatus::Wait.code()))
            .filter(video_task::Column::Id.eq(job.task_id))
            .filter(video_task::Column::Tenant.eq(&job.tenant))
            .filter(video_task::Column::Status.eq(TaskStatus::Executing.code()))
            .exec(&txn)
            .await?;
        txn.commit().await?;
        Ok(true)
    }

    /// Ends a render once: the job moves from running (this attempt) to done or failed, and the
    /// task with it, in one transaction. A dead letter fails the job whatever its attempt, as long as
    /// it has not ended. Returns whether anything changed; a duplicate or late report changes nothing.
    pub async fn finish(&self, job: &JobRef, dead_letter: bool, outcome: FinishOutcome) -> Result<bool, TaskError> {
        self.bound(job).await?;
        if let FinishOutcome::Tool { outputs } = &outcome {
            let prefix = tool_prefix(&job.tenant, job.task_id, &job.job_id);
            if let Some(o) = outputs.iter().find(|o| !o.key.starts_with(&prefix) || o.key.contains("..")) {
                tracing::warn!(task_id = job.task_id, job_id = %job.job_id, tenant = %job.tenant, key = %o.key,
                    "finish refused: a tool output is not stored under the job's own keys");
                return Err(TaskError::JobMismatch(job.job_id.clone()));
            }
        }
        if let FinishOutcome::Done { video_key, cover_key, .. } = &outcome {
            let (video, cover) = render_keys(&job.tenant, job.task_id, &job.job_id);
            if *video_key != video || !(cover_key.is_empty() || *cover_key == cover) {
                tracing::warn!(task_id = job.task_id, job_id = %job.job_id, tenant = %job.tenant, %video_key, %cover_key,
                    "finish refused: the render is not stored under the job's own keys");
                return Err(TaskError::JobMismatch(job.job_id.clone()));
            }
        }
        let now = now_millis();
        let preview = match &outcome {
            FinishOutcome::Done { video_key, cover_key, .. } => Some((video_key.clone(), cover_key.clone())),
            FinishOutcome::Tool { .. } | FinishOutcome::Failed { .. } => None,
        };
        let error = match &outcome {
            FinishOutcome::Failed { reason } => reason.clone(),
            FinishOutcome::Done { .. } | FinishOutcome::Tool { .. } => String::new(),
        };
        let (job_state, task_update) = match outcome {
            FinishOutcome::Done { video_key, cover_key, loudness } => (
                JOB_DONE,
                video_task::Entity::update_many()
                    .col_expr(video_task::Column::Status, Expr::value(TaskStatus::Success.code()))
                    .col_expr(video_task::Column::Loudness, Expr::value(loudness))
                    .col_expr(video_task::Column::Percent, Expr::value(100))
                    .col_expr(video_task::Column::VideoKey, Expr::value(video_key))
                    .col_expr(video_task::Column::CoverKey, Expr::value(cover_key))
                    .col_expr(video_task::Column::Reason, Expr::value(String::new())),
            ),
            FinishOutcome::Tool { outputs } => (
                JOB_DONE,
                video_task::Entity::update_many()
                    .col_expr(video_task::Column::Status, Expr::value(TaskStatus::Success.code()))
                    .col_expr(video_task::Column::Percent, Expr::value(100))
                    .col_expr(video_task::Column::ToolOutputs, Expr::value(serde_json::to_string(&outputs).unwrap_or_default()))
                    .col_expr(video_task::Column::Reason, Expr::value(String::new())),
            ),
            FinishOutcome::Failed { reason } => (
                JOB_FAILED,
                video_task::Entity::update_many()
                    .col_expr(video_task::Column::Status, Expr::value(TaskStatus::Error.code()))
                    .col_expr(video_task::Column::Reason, Expr::value(reason)),
            ),
        };
        let txn = reelforge_kit::db::begin_write(&self.db).await?;
        let mut ended = render_job::Entity::update_many()
            .col_expr(render_job::Column::State, Expr::value(job_state))
            .filter(render_job::Column::Id.eq(&job.job_id))
            .filter(render_job::Column::Tenant.eq(&job.tenant))
            .filter(render_job::Column::TaskId.eq(job.task_id));
        ended = if dead_letter {
            ended.filter(render_job::Column::State.is_in(ACTIVE))
        } else {
            ended.filter(render_job::Column::Attempt.eq(attempt_of(job))).filter(render_job::Column::State.eq(JOB_RUNNING))
        };
        if ended.exec(&txn).await?.rows_affected == 0 {
            txn.rollback().await?;
            tracing::info!(task_id = job.task_id, job_id = %job.job_id, attempt = job.attempt, "late or repeated finish ignored");
            return Ok(false);
        }
        maintain::record_end(&txn, &job.job_id, now, &error).await?;
        task_update
            .col_expr(video_task::Column::UpdatedMs, Expr::value(now))
            .filter(video_task::Column::Id.eq(job.task_id))
            .filter(video_task::Column::Tenant.eq(&job.tenant))
            .filter(video_task::Column::Status.is_in(RENDERING))
            .exec(&txn)
            .await?;
        if let Some((video_key, cover_key)) = preview {
            // The task is a template's preview: the template shows this render.
            entity::video_template::Entity::update_many()
                .col_expr(entity::video_template::Column::VideoKey, Expr::value(video_key))
                .col_expr(entity::video_template::Column::CoverKey, Expr::value(cover_key))
                .filter(entity::video_template::Column::PreviewTaskId.eq(job.task_id))
                .filter(entity::video_template::Column::Tenant.eq(&job.tenant))
                .exec(&txn)
                .await?;
        }
        txn.commit().await?;
        self.outbox.notify_one();
        Ok(true)
    }

    /// Cancels the owner's renders of `ids` (every id must be the owner's task); returns the jobs
    /// that were queued or running. A cancelled job's later delivery is dropped at its start.
    pub async fn cancel(&self, owner: &Owner, ids: &[i64]) -> Result<Vec<JobRef>, TaskError> {
        for id in ids {
            self.owned(owner, *id).await?;
        }
        let mut cancelled = Vec::new();
        for id in ids {
            let txn = reelforge_kit::db::begin_write(&self.db).await?;
            let now = now_millis();
            let moved = video_task::Entity::update_many()
                .col_expr(video_task::Column::Status, Expr::value(TaskStatus::Cancelled.code()))
                .col_expr(video_task::Column::Reason, Expr::value("cancelled by the user".to_owned()))
                .col_expr(video_task::Column::UpdatedMs, Expr::value(now))
                .filter(video_task::Column::Id.eq(*id))
                .filter(video_task::Column::Status.is_in(RENDERING))
                .exec(&txn)
                .await?;
            let job = render_job::Entity::find()
                .filter(render_job::Column::TaskId.eq(*id))
                .filter(render_job::Column::State.is_in(ACTIVE))
                .one(&txn)
                .await?;
            if let Some(job) = job {
                render_job::Entity::update_many()
                    .col_expr(render_job::Column::State, Expr::value(JOB_CANCELLED))
                    .filter(render_job::Column::Id.eq(&job.id))
                    .exec(&txn)
                    .await?;
                // A row still in the outbox is never published: its delivery would only be dropped.
                render_outbox::Entity::delete_many().filter(render_outbox::Column::JobId.eq(&job.id)).exec(&txn).await?;
                cancelled.push(job_ref(&job));
            } else if moved.rows_affected > 0 {
                cancelled.push(JobRef { tenant: owner.tenant.clone(), task_id: *id, job_id: String::new(), attempt: 0 });
            }
            txn.commit().await?;
        }
        self.outbox.notify_one();
        Ok(cancelled)
    }

    /// The number of render jobs queued and not yet started.
    pub async fn queued_jobs(&self) -> Result<u64, TaskError> {
        Ok(render_job::Entity::find().filter(render_job::Column::State.eq(JOB_QUEUED)).count(&self.db).await?)
    }

    /// Returns up to `max` outbox rows due for publishing, oldest first.
    pub async fn outbox_due(&self, max: u64) -> Result<Vec<OutboxEntry>, TaskError> {
        let rows = render_outbox::Entity::find()
            .filter(render_outbox::Column::NextMs.lte(now_millis()))
            .order_by_asc(render_outbox::Column::CreatedMs)
            .limit(max)
            .all(&self.db)
            .await?;
        Ok(rows
            .into_iter()
            .map(|r| OutboxEntry { id: r.id, body: r.body, tries: u32::try_from(r.tries).unwrap_or(0), due_ms: r.next_ms })
            .collect())
    }

    /// Removes an outbox row once the broker confirmed its message.
    pub async fn outbox_sent(&self, id: &str) -> Result<(), TaskError> {
        render_outbox::Entity::delete_by_id(id.to_owned()).exec(&self.db).await?;
        Ok(())
    }

    /// Puts an outbox row off until `next_ms` after a failed publish.
    pub async fn outbox_postpone(&self, id: &str, tries: u32, next_ms: i64) -> Result<(), TaskError> {
        render_outbox::Entity::update_many()
            .col_expr(render_outbox::Column::Tries, Expr::value(i32::try_from(tries).unwrap_or(i32::MAX)))
            .col_expr(render_outbox::Column::NextMs, Expr::value(next_ms))
            .filter(render_outbox::Column::Id.eq(id))
            .exec(&self.db)
            .await?;
        Ok(())
    }

    /// Takes back running jobs whose heartbeat is older than `stale_ms`: each is queued again with
    /// the next attempt through the outbox, or, past `max_attempts`, fails its task. The update is
    /// conditional on the heartbeat still being old, so a worker that beats keeps its job.
    pub async fn reap(&self, stale_ms: i64, max_attempts: u32) -> Result<Vec<Reaped>, TaskError> {
        let cutoff = now_millis() - stale_ms;
        let silent = render_job::Entity::find()
            .filter(render_job::Column::State.eq(JOB_RUNNING))
            .filter(render_job::Column::HeartbeatMs.lt(cutoff))
            .limit(100)
            .all(&self.db)
            .await?;
        let mut out = Vec::new();
        for mut job in silent {
            let give_up = u32::try_from(job.attempt).unwrap_or(u32::MAX) >= max_attempts;
            let now = now_millis();
            let txn = reelforge_kit::db::begin_write(&self.db).await?;
            let mut take = render_job::Entity::update_many()
                .filter(render_job::Column::Id.eq(&job.id))
                .filter(render_job::Column::Attempt.eq(job.attempt))
                .filter(render_job::Column::State.eq(JOB_RUNNING))
                .filter(render_job::Column::HeartbeatMs.lt(cutoff));
            take = if give_up {
                take.col_expr(render_job::Column::State, Expr::value(JOB_FAILED))
            } else {
                take.col_expr(render_job::Column::State, Expr::value(JOB_QUEUED))
                    .col_expr(render_job::Column::Attempt, Expr::value(job.attempt + 1))
            };
            if take.exec(&txn).await?.rows_affected == 0 {
                txn.rollback().await?;
                continue;
            }
            maintain::record_end(&txn, &job.id, now, "the render worker stopped responding").await?;
            let mut task = video_task::Entity::update_many()
                .col_expr(video_task::Column::UpdatedMs, Expr::value(now))
                .filter(video_task::Column::Id.eq(job.task_id))
                .filter(video_task::Column::Status.is_in(RENDERING));
            task = if give_up {
                task.col_expr(video_task::Column::Status, Expr::value(TaskStatus::Error.code())).col_expr(
                    video_task::Column::Reason,
                    Expr::value("task composition failed: the render worker stopped responding".to_owned()),
                )
            } else {
                task.col_expr(video_task::Column::Status, Expr::value(TaskStatus::Wait.code()))
            };
            task.exec(&txn).await?;
            if give_up {
                txn.commit().await?;
                out.push(Reaped::Failed(job_ref(&job)));
                continue;
            }
            job.attempt += 1;
            outbox_row(&job, now).insert(&txn).await?;
            txn.commit().await?;
            out.push(Reaped::Requeued(job_ref(&job)));
        }
        if out.iter().any(|r| matches!(r, Reaped::Requeued(_))) {
            self.outbox.notify_one();
        }
        Ok(out)
    }
}
