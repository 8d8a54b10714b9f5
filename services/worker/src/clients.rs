//! The worker's gRPC clients and every call it makes, built in this one place. Each call carries a
//! fresh short-lived service token of the job's tenant, acting for the task's owner.

use reelforge_kit::config::TimeoutConfig;
use reelforge_kit::grpc::channel;
use reelforge_kit::identity::{self, Keyring};
use reelforge_proto::material::material_service_client::MaterialServiceClient;
use reelforge_proto::material::{GetMaterialRequest, Material};
use reelforge_proto::render::RenderJob;
use reelforge_proto::task::task_service_client::TaskServiceClient;
use reelforge_proto::task::{
    FinishRenderRequest, FinishReply, HeartbeatReply, JobRef, ReleaseReply, StartReply,
};
use tonic::transport::Channel;
use tonic::{Request, Status};

/// Seconds a worker's service token lives: enough for one call.
const SERVICE_TOKEN_SECONDS: u64 = 60;

/// The services a worker calls.
#[derive(Clone)]
pub struct Clients {
    tasks: TaskServiceClient<Channel>,
    library: MaterialServiceClient<Channel>,
    keys: Keyring,
}

fn job_ref(job: &RenderJob) -> JobRef {
    JobRef {
        task_id: job.task_id,
        job_id: job.job_id.clone(),
        attempt: job.attempt,
    }
}

impl Clients {
    /// Clients of the task and material services at their URLs, signing with `keys`, their calls
    /// timing out as `timeouts` says; must run inside a Tokio runtime.
    pub fn connect(
        task_url: &str,
        material_url: &str,
        keys: Keyring,
        timeouts: &TimeoutConfig,
    ) -> Result<Self, tonic::transport::Error> {
        Ok(Self {
            tasks: TaskServiceClient::new(channel(task_url, timeouts)?),
            library: MaterialServiceClient::new(channel(material_url, timeouts)?),
            keys,
        })
    }

    /// `msg` carrying a service token of the job's tenant that acts for the task's owner.
    fn request<T>(&self, job: &RenderJob, msg: T) -> Result<Request<T>, Status> {
        self.request_as(job, &job.user_id, msg)
    }

    /// `msg` carrying a service token of the job's tenant that acts for `user`.
    fn request_as<T>(&self, job: &RenderJob, user: &str, msg: T) -> Result<Request<T>, Status> {
        let token = self
            .keys
            .service_token(&job.tenant, Some(user), SERVICE_TOKEN_SECONDS)
            .map_err(|e| Status::internal(format!("service token: {e}")))?;
        identity::request(msg, &token).map_err(|e| Status::internal(format!("service token: {e}")))
    }

    /// Asks whether this delivery may render (moves the job to running).
    pub async fn start(&self, job: &RenderJob) -> Result<StartReply, Status> {
        Ok(self
            .tasks
            .clone()
            .start(self.request(job, job_ref(job))?)
            .await?
            .into_inner())
    }

    /// Beats the job's lease.
    pub async fn heartbeat(&self, job: &RenderJob) -> Result<HeartbeatReply, Status> {
        Ok(self
            .tasks
            .clone()
            .heartbeat(self.request(job, job_ref(job))?)
            .await?
            .into_inner())
    }

    /// Gives a started job back.
    pub async fn release(&self, job: &RenderJob) -> Result<ReleaseReply, Status> {
        Ok(self
            .tasks
            .clone()
            .release(self.request(job, job_ref(job))?)
            .await?
            .into_inner())
    }

    /// Reports the end of the job.
    pub async fn finish(
        &self,
        job: &RenderJob,
        report: FinishRenderRequest,
    ) -> Result<FinishReply, Status> {
        Ok(self
            .tasks
            .clone()
            .finish(self.request(job, report)?)
            .await?
            .into_inner())
    }

    /// Material `id` as `user` of the job's tenant sees it (the owner, or the creator of the
    /// template that lends it).
    pub async fn material_as(
        &self,
        job: &RenderJob,
        user: &str,
        id: &str,
    ) -> Result<Material, Status> {
        let req = GetMaterialRequest {
            material_id: id.to_owned(),
        };
        Ok(self
            .library
            .clone()
            .get(self.request_as(job, user, req)?)
            .await?
            .into_inner())
    }
}
