//! The tasks a ring order is made from, as the task service answers them: asked with a short
//! service token acting for the caller, so the task service's own isolation decides what the
//! caller may order.

use reelforge_kit::identity::{self, Keyring};
use reelforge_kit::config::DeliveryProfile;
use reelforge_proto::task::{GetTaskRequest, RunToolRequest, Task};
use reelforge_proto::task::task_service_client::TaskServiceClient;
use tonic::transport::Channel;

use crate::domain::{FinishedTask, RingError};

/// Seconds the service token of one task read lives.
const TOKEN_SECONDS: u64 = 60;

/// The status of a task whose render succeeded.
const SUCCESS: i32 = 10;

/// Where finished tasks are read.
#[async_trait::async_trait]
pub trait Tasks: Send + Sync {
    /// The caller's task `id` with its finished video; refuses another's task (not found) and one
    /// not rendered (not finished).
    async fn finished(&self, tenant: &str, user: &str, id: i64) -> Result<FinishedTask, RingError>;

    /// `task` with the output of its finished one-click fix `fix_id` as its video; refuses a fix
    /// that is not the caller's RING_FIX run of this task (not found) or not done (not finished).
    async fn fixed(&self, tenant: &str, user: &str, task: FinishedTask, fix_id: i64) -> Result<FinishedTask, RingError>;

    /// Queues a RING_FIX run of the caller's task `id` to `profile`; returns its task and job ids.
    async fn run_fix(&self, tenant: &str, user: &str, id: i64, profile: &DeliveryProfile) -> Result<(i64, String), RingError>;
}

/// The task service at the other end of a channel.
#[derive(Clone)]
pub struct TaskService {
    client: TaskServiceClient<Channel>,
    keys: Keyring,
}

impl TaskService {
    /// The task service behind `channel`, asked with service tokens signed by `keys`.
    pub fn new(channel: Channel, keys: Keyring) -> Self {
        Self {
            client: TaskServiceClient::new(channel),
            keys,
        }
    }
}

impl TaskService {
    /// A request carrying a short service token acting for the caller.
    fn request<T>(&self, tenant: &str, user: &str, body: T) -> Result<tonic::Request<T>, RingError> {
        let token = self
            .keys
            .service_token(tenant, Some(user), TOKEN_SECONDS)
            .map_err(|e| RingError::Tasks(e.to_string()))?;
        identity::request(body, &token).map_err(|e| RingError::Tasks(e.to_string()))
    }

    /// The caller's task `id`, `None` when it is not theirs.
    async fn get(&self, tenant: &str, user: &str, id: i64) -> Result<Option<Task>, RingError> {
        let req = self.request(tenant, user, GetTaskRequest { task_id: id })?;
        match self.client.clone().get(req).await {
            Ok(t) => Ok(Some(t.into_inner())),
            Err(s)
                if matches!(
                    s.code(),
                    tonic::Code::NotFound
                        | tonic::Code::InvalidArgument
                        | tonic::Code::PermissionDenied
                ) =>
            {
                Ok(None)
            }
            Err(s) => Err(RingError::Tasks(s.message().to_owned())),
        }
    }
}

#[async_trait::async_trait]
impl Tasks for TaskService {
    async fn fixed(&self, tenant: &str, user: &str, task: FinishedTask, fix_id: i64) -> Result<FinishedTask, RingError> {
        let fix = match self.get(tenant, user, fix_id).await? {
            Some(f) if fix_id > 0 && f.tool_type == reelforge_tools::ring_fix::RING_FIX => f,
            _ => return Err(RingError::FixNotFound(fix_id)),
        };
        let source = serde_json::from_str::<serde_json::Value>(&fix.tool_params)
            .ok()
            .and_then(|v| v.get("sourceTaskId").and_then(serde_json::Value::as_i64));
        if source != Some(task.id) {
            return Err(RingError::FixNotFound(fix_id));
        }
        let video = fix.outputs.into_iter().find(|o| o.kind == "video");
        match video {
            Some(o) if fix.status == SUCCESS => Ok(FinishedTask { video_key: o.key, ..task }),
            _ => Err(RingError::FixNotFinished(fix_id)),
        }
    }

    async fn run_fix(&self, tenant: &str, user: &str, id: i64, profile: &DeliveryProfile) -> Result<(i64, String), RingError> {
        let params = serde_json::json!({ "profile": profile }).to_string();
        let req = self.request(tenant, user, RunToolRequest {
            tool_type: reelforge_tools::ring_fix::RING_FIX.to_owned(),
            params,
            material_ids: Vec::new(),
            source_task_id: id,
        })?;
        match self.client.clone().run_tool(req).await {
            Ok(r) => {
                let r = r.into_inner();
                Ok((r.task_id, r.job_id))
            }
            Err(s) if s.code() == tonic::Code::NotFound => Err(RingError::TaskNotFound(id)),
            Err(s) if s.code() == tonic::Code::InvalidArgument => Err(RingError::TaskNotFinished(id)),
            Err(s) => Err(RingError::Tasks(s.message().to_owned())),
        }
    }

    async fn finished(&self, tenant: &str, user: &str, id: i64) -> Result<FinishedTask, RingError> {
        if id <= 0 {
            return Err(RingError::TaskNotFound(id));
        }
        let task = self
            .get(tenant, user, id)
            .await?
            .ok_or(RingError::TaskNotFound(id))?;
        if task.status != SUCCESS || task.video_relative_path.is_empty() {
            return Err(RingError::TaskNotFinished(id));
        }
        Ok(FinishedTask {
            id: task.id,
            name: task.task_name,
            video_key: task.video_relative_path,
            cover_key: task.brief_picture,
        })
    }
}
