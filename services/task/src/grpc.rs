//! The tonic server: proto ⇄ domain conversions; errors become statuses here, once.

use reelforge_kit::status::to_status;
use reelforge_proto::common::{Caller, Empty};
use reelforge_proto::task::{self as pb, task_service_server::TaskService};
use tonic::{Request, Response, Status};

use crate::domain::{self, FinishOutcome, Owner, Task, TaskError};
use crate::store::TaskStore;

/// The gRPC face of the task service.
pub struct TaskGrpc {
    store: TaskStore,
}

impl TaskGrpc {
    /// Serves `store`.
    pub fn new(store: TaskStore) -> Self {
        Self { store }
    }
}

fn owner(caller: Option<Caller>) -> Result<Owner, Status> {
    match caller {
        Some(c) if !c.tenant.is_empty() && !c.user_id.is_empty() => Ok(Owner { tenant: c.tenant, user_id: c.user_id }),
        _ => Err(to_status(TaskError::Invalid("caller: tenant and user are required".into()))),
    }
}

fn time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M:%S").to_string())
        .unwrap_or_default()
}

fn to_pb(t: Task) -> pb::Task {
    pb::Task {
        id: t.id,
        task_name: t.name,
        task_info: t.task_info,
        status: t.status.code(),
        video_relative_path: t.video_key,
        brief_picture: t.cover_key,
        create_time: time(t.created_ms),
        update_time: time(t.updated_ms),
        size_category_id: t.size_category_id,
        used_for: t.used_for,
        reason: t.reason,
    }
}

#[tonic::async_trait]
impl TaskService for TaskGrpc {
    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn save(&self, req: Request<pb::SaveTaskRequest>) -> Result<Response<pb::SaveTaskReply>, Status> {
        let req = req.into_inner();
        let owner = owner(req.caller)?;
        let draft = domain::parse_draft(req.task_id, &req.task_name, &req.task_info, req.size_category_id, &req.used_for)
            .map_err(to_status)?;
        let task_id = self.store.save(&owner, draft).await.map_err(to_status)?;
        Ok(Response::new(pb::SaveTaskReply { task_id }))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn get(&self, req: Request<pb::GetTaskRequest>) -> Result<Response<pb::Task>, Status> {
        let req = req.into_inner();
        let owner = owner(req.caller)?;
        Ok(Response::new(to_pb(self.store.get(&owner, req.task_id).await.map_err(to_status)?)))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn run(&self, req: Request<pb::RunTaskRequest>) -> Result<Response<pb::RunTaskReply>, Status> {
        let req = req.into_inner();
        let owner = owner(req.caller)?;
        let job_id = self.store.run(&owner, req.task_id).await.map_err(to_status)?;
        Ok(Response::new(pb::RunTaskReply { job_id, status: domain::TaskStatus::Wait.code() }))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn state(&self, req: Request<pb::GetTaskRequest>) -> Result<Response<pb::TaskState>, Status> {
        let req = req.into_inner();
        let owner = owner(req.caller)?;
        let s = self.store.state(&owner, req.task_id).await.map_err(to_status)?;
        Ok(Response::new(pb::TaskState {
            task_id: s.task_id,
            status: s.status.code(),
            percent: s.percent,
            video_relative_path: s.video_key,
            reason: s.reason,
        }))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id, tenant = %req.get_ref().tenant))]
    async fn finish(&self, req: Request<pb::FinishRenderRequest>) -> Result<Response<Empty>, Status> {
        let req = req.into_inner();
        if req.tenant.is_empty() {
            return Err(to_status(TaskError::Invalid("tenant: is missing".into())));
        }
        let outcome = if req.ok {
            FinishOutcome::Done { video_key: req.video_key, cover_key: req.cover_key }
        } else {
            FinishOutcome::Failed { reason: req.reason }
        };
        self.store.finish(&req.tenant, req.task_id, &req.job_id, outcome).await.map_err(to_status)?;
        Ok(Response::new(Empty {}))
    }
}
