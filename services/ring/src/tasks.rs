//! The tasks a ring order is made from, as the task service answers them: asked with a short
//! service token acting for the caller, so the task service's own isolation decides what the
//! caller may order.

use reelforge_kit::identity::{self, Keyring};
use reelforge_proto::task::GetTaskRequest;
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

#[async_trait::async_trait]
impl Tasks for TaskService {
    async fn finished(&self, tenant: &str, user: &str, id: i64) -> Result<FinishedTask, RingError> {
        if id <= 0 {
            return Err(RingError::TaskNotFound(id));
        }
        let token = self
            .keys
            .service_token(tenant, Some(user), TOKEN_SECONDS)
            .map_err(|e| RingError::Tasks(e.to_string()))?;
        let req = identity::request(GetTaskRequest { task_id: id }, &token)
            .map_err(|e| RingError::Tasks(e.to_string()))?;
        let task = match self.client.clone().get(req).await {
            Ok(t) => t.into_inner(),
            Err(s)
                if matches!(
                    s.code(),
                    tonic::Code::NotFound
                        | tonic::Code::InvalidArgument
                        | tonic::Code::PermissionDenied
                ) =>
            {
                return Err(RingError::TaskNotFound(id));
            }
            Err(s) => return Err(RingError::Tasks(s.message().to_owned())),
        };
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
