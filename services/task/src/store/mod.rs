//! The task and render-job tables, their queries, and publishing runs; entities never leave this module.

mod entity;
mod migration;

use std::sync::Arc;

use entity::{render_job, video_task};
use prost::Message;
use reelforge_kit::JobQueue;
use reelforge_kit::db::now_millis;
use sea_orm::sea_query::Expr;
use sea_orm::{ActiveModelTrait, ColumnTrait, DatabaseConnection, EntityTrait, QueryFilter, Set};
use sea_orm_migration::MigratorTrait;

use crate::RENDER_QUEUE;
use crate::domain::{FinishOutcome, Owner, Task, TaskDraft, TaskError, TaskState, TaskStatus};

/// Runs the service's migrations.
pub async fn migrate(db: &DatabaseConnection) -> Result<(), sea_orm::DbErr> {
    migration::Migrator::up(db, None).await
}

/// Task queries and render runs, scoped to tenant and user (workers: tenant only).
#[derive(Clone)]
pub struct TaskStore {
    db: DatabaseConnection,
    queue: Arc<dyn JobQueue>,
}

/// Render-job states.
const JOB_QUEUED: &str = "queued";
const JOB_RUNNING: &str = "running";
const JOB_DONE: &str = "done";
const JOB_FAILED: &str = "failed";

fn to_domain(m: video_task::Model) -> Task {
    Task {
        id: m.id,
        name: m.name,
        task_info: m.task_info,
        status: TaskStatus::from_code(m.status),
        size_category_id: m.size_category_id,
        used_for: m.used_for,
        video_key: m.video_key,
        cover_key: m.cover_key,
        reason: m.reason,
        percent: u32::try_from(m.percent.clamp(0, 100)).unwrap_or(0),
        created_ms: m.created_ms,
        updated_ms: m.updated_ms,
    }
}

const RENDERING: [i32; 2] = [0, 1];

impl TaskStore {
    /// Wraps a migrated database and the job queue.
    pub fn new(db: DatabaseConnection, queue: Arc<dyn JobQueue>) -> Self {
        Self { db, queue }
    }

    async fn owned(&self, owner: &Owner, id: i64) -> Result<video_task::Model, TaskError> {
        video_task::Entity::find_by_id(id)
            .filter(video_task::Column::Tenant.eq(&owner.tenant))
            .filter(video_task::Column::UserId.eq(&owner.user_id))
            .one(&self.db)
            .await?
            .ok_or(TaskError::NotFound(id))
    }

    /// Inserts a new task or overwrites the owner's task; returns its id.
    pub async fn save(&self, owner: &Owner, draft: TaskDraft) -> Result<i64, TaskError> {
        let now = now_millis();
        match draft.task_id {
            None => {
                let m = video_task::ActiveModel {
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
                    ..Default::default()
                }
                .insert(&self.db)
                .await?;
                Ok(m.id)
            }
            Some(id) => {
                let updated = video_task::Entity::update_many()
                    .col_expr(video_task::Column::Name, Expr::value(draft.name))
                    .col_expr(video_task::Column::TaskInfo, Expr::value(draft.task_info))
                    .col_expr(video_task::Column::SizeCategoryId, Expr::value(draft.size_category_id))
                    .col_expr(video_task::Column::UsedFor, Expr::value(draft.used_for))
                    .col_expr(video_task::Column::UpdatedMs, Expr::value(now))
                    .filter(video_task::Column::Id.eq(id))
                    .filter(video_task::Column::Tenant.eq(&owner.tenant))
                    .filter(video_task::Column::UserId.eq(&owner.user_id))
                    .exec(&self.db)
                    .await?;
                if updated.rows_affected == 0 {
                    return Err(TaskError::NotFound(id));
                }
                Ok(id)
            }
        }
    }

    /// Returns the owner's task.
    pub async fn get(&self, owner: &Owner, id: i64) -> Result<Task, TaskError> {
        Ok(to_domain(self.owned(owner, id).await?))
    }

    /// Returns the owner's task state.
    pub async fn state(&self, owner: &Owner, id: i64) -> Result<TaskState, TaskError> {
        let t = self.get(owner, id).await?;
        Ok(TaskState { task_id: t.id, status: t.status, percent: t.percent, video_key: t.video_key, reason: t.reason })
    }

    /// Queues a render of the owner's task and returns the job id. The job row is written, the job
    /// published, and only then is the task set to wait; a failed publish removes the row again.
    pub async fn run(&self, owner: &Owner, id: i64) -> Result<String, TaskError> {
        let task = self.owned(owner, id).await?;
        if TaskStatus::from_code(task.status).is_rendering() {
            return Err(TaskError::Conflict(id));
        }
        let job_id = uuid::Uuid::new_v4().to_string();
        render_job::ActiveModel {
            id: Set(job_id.clone()),
            task_id: Set(id),
            tenant: Set(owner.tenant.clone()),
            state: Set(JOB_QUEUED.to_owned()),
            attempt: Set(1),
            created_ms: Set(now_millis()),
        }
        .insert(&self.db)
        .await?;
        let body = reelforge_proto::render::RenderJob { job_id: job_id.clone(), task_id: id, tenant: owner.tenant.clone(), attempt: 1, task_info: task.task_info.clone() }
            .encode_to_vec();
        if let Err(e) = self.queue.publish(RENDER_QUEUE, &job_id, &body).await {
            if let Err(cleanup) = render_job::Entity::delete_by_id(job_id.clone()).exec(&self.db).await {
                tracing::error!(error = %cleanup, job_id, "cannot remove the unpublished render job");
            }
            return Err(e.into());
        }
        video_task::Entity::update_many()
            .col_expr(video_task::Column::Status, Expr::value(TaskStatus::Wait.code()))
            .col_expr(video_task::Column::Percent, Expr::value(0))
            .col_expr(video_task::Column::Reason, Expr::value(String::new()))
            .col_expr(video_task::Column::UpdatedMs, Expr::value(now_millis()))
            .filter(video_task::Column::Id.eq(id))
            .exec(&self.db)
            .await?;
        tracing::info!(task_id = id, job_id, "render queued");
        Ok(job_id)
    }

    /// Moves a waiting task to executing (a worker took its job); returns whether it moved.
    pub async fn mark_executing(&self, tenant: &str, task_id: i64) -> Result<bool, TaskError> {
        let moved = video_task::Entity::update_many()
            .col_expr(video_task::Column::Status, Expr::value(TaskStatus::Executing.code()))
            .col_expr(video_task::Column::UpdatedMs, Expr::value(now_millis()))
            .filter(video_task::Column::Id.eq(task_id))
            .filter(video_task::Column::Tenant.eq(tenant))
            .filter(video_task::Column::Status.eq(TaskStatus::Wait.code()))
            .exec(&self.db)
            .await?;
        render_job::Entity::update_many()
            .col_expr(render_job::Column::State, Expr::value(JOB_RUNNING))
            .filter(render_job::Column::TaskId.eq(task_id))
            .filter(render_job::Column::Tenant.eq(tenant))
            .filter(render_job::Column::State.eq(JOB_QUEUED))
            .exec(&self.db)
            .await?;
        Ok(moved.rows_affected > 0)
    }

    /// Records render progress (clamped to 0–100) of a task that is rendering; returns whether it applied.
    pub async fn set_progress(&self, tenant: &str, task_id: i64, percent: u32) -> Result<bool, TaskError> {
        let percent = i32::try_from(percent.min(100)).unwrap_or(100);
        let updated = video_task::Entity::update_many()
            .col_expr(video_task::Column::Percent, Expr::value(percent))
            .col_expr(video_task::Column::UpdatedMs, Expr::value(now_millis()))
            .filter(video_task::Column::Id.eq(task_id))
            .filter(video_task::Column::Tenant.eq(tenant))
            .filter(video_task::Column::Status.is_in(RENDERING))
            .exec(&self.db)
            .await?;
        Ok(updated.rows_affected > 0)
    }

    /// Ends a render: only a waiting or executing task moves, to success or error, once. Returns
    /// whether it moved; a repeated or late report is ignored. The job must belong to the task.
    pub async fn finish(&self, tenant: &str, task_id: i64, job_id: &str, outcome: FinishOutcome) -> Result<bool, TaskError> {
        let job = render_job::Entity::find_by_id(job_id.to_owned())
            .filter(render_job::Column::TaskId.eq(task_id))
            .filter(render_job::Column::Tenant.eq(tenant))
            .one(&self.db)
            .await?;
        if job.is_none() {
            return Err(TaskError::NotFound(task_id));
        }
        let mut update = video_task::Entity::update_many()
            .col_expr(video_task::Column::UpdatedMs, Expr::value(now_millis()))
            .filter(video_task::Column::Id.eq(task_id))
            .filter(video_task::Column::Tenant.eq(tenant))
            .filter(video_task::Column::Status.is_in(RENDERING));
        let job_state = match outcome {
            FinishOutcome::Done { video_key, cover_key } => {
                update = update
                    .col_expr(video_task::Column::Status, Expr::value(TaskStatus::Success.code()))
                    .col_expr(video_task::Column::Percent, Expr::value(100))
                    .col_expr(video_task::Column::VideoKey, Expr::value(video_key))
                    .col_expr(video_task::Column::CoverKey, Expr::value(cover_key))
                    .col_expr(video_task::Column::Reason, Expr::value(String::new()));
                JOB_DONE
            }
            FinishOutcome::Failed { reason } => {
                update = update
                    .col_expr(video_task::Column::Status, Expr::value(TaskStatus::Error.code()))
                    .col_expr(video_task::Column::Reason, Expr::value(reason));
                JOB_FAILED
            }
        };
        let moved = update.exec(&self.db).await?.rows_affected > 0;
        if moved {
            render_job::Entity::update_many()
                .col_expr(render_job::Column::State, Expr::value(job_state))
                .filter(render_job::Column::Id.eq(job_id))
                .exec(&self.db)
                .await?;
        } else {
            tracing::info!(task_id, job_id, "late or repeated finish ignored");
        }
        Ok(moved)
    }
}
