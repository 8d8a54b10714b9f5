//! The tonic server of the ring service: the caller (tenant, user, role) comes from the verified
//! token; proto ⇄ domain conversions; every error becomes a status once, here, carrying its stable
//! reason (and a profile refusal its violations) in metadata for the gateway.

use std::collections::BTreeMap;
use std::sync::Arc;

use reelforge_kit::config::DeliveryProfile;
use reelforge_kit::identity::{self, Role};
use reelforge_kit::status::{REASON_METADATA, VIOLATIONS_METADATA, to_status};
use reelforge_proto::common::Empty;
use reelforge_proto::ring::{self as pb, ring_service_server::RingService};
use tonic::metadata::MetadataValue;
use tonic::{Request, Response, Status};

use crate::check::Checker;
use crate::domain::{self, NewOrder, Order, OrderState, Phone, RingError, profile};
use crate::platform::Platforms;
use crate::store::{Copyright, RingStore};
use crate::tasks::Tasks;

/// The gRPC face of the ring service.
pub struct RingGrpc {
    store: RingStore,
    tasks: Arc<dyn Tasks>,
    platforms: Platforms,
    profiles: BTreeMap<String, DeliveryProfile>,
    checker: Checker,
}

impl RingGrpc {
    /// Serves `store`, reading tasks from `tasks`, asking `platforms` about numbers, checking videos
    /// with `checker` against `profiles`.
    pub fn new(
        store: RingStore,
        tasks: Arc<dyn Tasks>,
        platforms: Platforms,
        profiles: BTreeMap<String, DeliveryProfile>,
        checker: Checker,
    ) -> Self {
        Self {
            store,
            tasks,
            platforms,
            profiles,
            checker,
        }
    }

    /// The caller's finished task `id`, with the output of its one-click fix `fix_id` as its
    /// video when one is named.
    async fn video(&self, tenant: &str, user: &str, id: i64, fix_id: i64) -> Result<domain::FinishedTask, Status> {
        let task = self.tasks.finished(tenant, user, id).await.map_err(refusal)?;
        if fix_id == 0 {
            return Ok(task);
        }
        self.tasks.fixed(tenant, user, task, fix_id).await.map_err(refusal)
    }

    fn profile(&self, tenant: &str) -> DeliveryProfile {
        profile::profile_of(&self.profiles, tenant).into_owned()
    }
}

/// The status of a failed call: its stable reason in `x-reason`, a profile refusal's violations in
/// `x-violations-bin`.
fn refusal(e: RingError) -> Status {
    let reason = e.reason();
    let violations = match &e {
        RingError::ProfileViolation { violations, .. } => serde_json::to_vec(violations).ok(),
        _ => None,
    };
    let mut status = to_status(e);
    if let Some(value) = reason.and_then(|r| r.parse().ok()) {
        status.metadata_mut().insert(REASON_METADATA, value);
    }
    if let Some(bytes) = violations {
        status
            .metadata_mut()
            .insert_bin(VIOLATIONS_METADATA, MetadataValue::from_bytes(&bytes));
    }
    status
}

/// The verified tenant and user the call acts for.
fn owner<T>(req: &Request<T>) -> Result<(String, String), Status> {
    let caller = identity::caller(req)?;
    let (tenant, user) = caller.owner().map_err(to_status)?;
    Ok((tenant.to_owned(), user.to_owned()))
}

fn order_pb(o: Order, masked: bool) -> pb::Order {
    pb::Order {
        id: o.id,
        task_id: o.task_id,
        task_name: o.task_name,
        cover_key: o.cover_key,
        phone: if masked {
            domain::mask(&o.phone)
        } else {
            o.phone
        },
        state: o.state.code(),
        reason: o.reason,
        platform_ref: o.platform_ref,
        attempts: o.attempts,
        created_ms: o.created_ms,
        updated_ms: o.updated_ms,
        user_id: o.user_id,
        copyright_id: o.copyright_id,
    }
}

fn copyright_pb(c: Copyright) -> pb::Copyright {
    pb::Copyright {
        id: c.id,
        name: c.name,
        key: c.key,
        format: c.format,
        bytes: c.bytes,
    }
}

fn page_pb((total, list): (u64, Vec<Order>)) -> pb::OrderPage {
    pb::OrderPage {
        total,
        list: list.into_iter().map(|o| order_pb(o, true)).collect(),
    }
}

fn json(value: &impl serde::Serialize) -> Result<Response<pb::JsonDocument>, Status> {
    let json =
        serde_json::to_string(value).map_err(|e| Status::internal(format!("answer: {e}")))?;
    Ok(Response::new(pb::JsonDocument { json }))
}

#[tonic::async_trait]
impl RingService for RingGrpc {
    #[tracing::instrument(skip_all)]
    async fn profile(&self, req: Request<Empty>) -> Result<Response<pb::JsonDocument>, Status> {
        let (tenant, _) = owner(&req)?;
        json(&profile::ProfileView::new(&tenant, &self.profile(&tenant)))
    }

    #[tracing::instrument(skip_all)]
    async fn precheck(
        &self,
        req: Request<pb::PrecheckRequest>,
    ) -> Result<Response<pb::JsonDocument>, Status> {
        let (tenant, _) = owner(&req)?;
        let r = req.into_inner();
        let report = self
            .checker
            .precheck(&self.profile(&tenant), r.width, r.height, r.seconds);
        json(&report)
    }

    #[tracing::instrument(skip_all)]
    async fn check(
        &self,
        req: Request<pb::TaskRequest>,
    ) -> Result<Response<pb::JsonDocument>, Status> {
        let (tenant, user) = owner(&req)?;
        let r = req.into_inner();
        let task = self.video(&tenant, &user, r.task_id, r.fix_id).await?;
        let report = self
            .checker
            .check(&self.profile(&tenant), &task.video_key)
            .await
            .map_err(refusal)?;
        json(&report)
    }

    #[tracing::instrument(skip_all)]
    async fn fix(&self, req: Request<pb::TaskRequest>) -> Result<Response<pb::FixReply>, Status> {
        let (tenant, user) = owner(&req)?;
        let id = req.into_inner().task_id;
        let task = self.tasks.finished(&tenant, &user, id).await.map_err(refusal)?;
        let profile = self.profile(&tenant);
        let report = self.checker.check(&profile, &task.video_key).await.map_err(refusal)?;
        if report.conforms {
            return Err(refusal(RingError::NothingToFix));
        }
        let unfixable: Vec<&str> = report.violations.iter().filter(|v| !v.fixable).map(|v| v.message.as_str()).collect();
        if !unfixable.is_empty() {
            return Err(refusal(RingError::NotFixable(unfixable.join("; "))));
        }
        let (fix_id, job_id) = self.tasks.run_fix(&tenant, &user, id, &profile).await.map_err(refusal)?;
        tracing::info!(task_id = id, fix_id, "ring fix queued");
        Ok(Response::new(pb::FixReply { fix_id, job_id }))
    }

    #[tracing::instrument(skip_all)]
    async fn if_download_by_phone(
        &self,
        req: Request<pb::PhoneRequest>,
    ) -> Result<Response<pb::PhoneAnswer>, Status> {
        let (tenant, _) = owner(&req)?;
        let phone = Phone::parse(&req.into_inner().phone).map_err(refusal)?;
        let joined = self.platforms.of(&tenant).joined(&phone).await;
        Ok(Response::new(pb::PhoneAnswer {
            phone: phone.as_str().to_owned(),
            allowed: joined,
            state: if joined {
                OrderState::NotSet.code()
            } else {
                OrderState::NotJoin.code()
            },
            reason: if joined {
                String::new()
            } else {
                RingError::PhoneNotJoined.to_string()
            },
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn save_ring(
        &self,
        req: Request<pb::SaveRingRequest>,
    ) -> Result<Response<pb::Order>, Status> {
        let (tenant, user) = owner(&req)?;
        let r = req.into_inner();
        let phone = Phone::parse(&r.phone).map_err(refusal)?;
        let copyright_id = r.copyright_id.trim().to_owned();
        if copyright_id.is_empty() && !r.copyright_agreed {
            return Err(refusal(RingError::CopyrightMissing));
        }
        if !copyright_id.is_empty() {
            self.store
                .copyright(&tenant, &user, &copyright_id)
                .await
                .map_err(refusal)?;
        }
        let task = self.video(&tenant, &user, r.task_id, r.fix_id).await?;
        if !self.platforms.of(&tenant).joined(&phone).await {
            return Err(refusal(RingError::PhoneNotJoined));
        }
        self.checker
            .require_conforming(&self.profile(&tenant), &task.video_key)
            .await
            .map_err(refusal)?;
        let order = self
            .store
            .save(NewOrder {
                tenant,
                user_id: user,
                task,
                phone,
                copyright_id,
            })
            .await
            .map_err(refusal)?;
        Ok(Response::new(order_pb(order, false)))
    }

    #[tracing::instrument(skip_all)]
    async fn ring_upload(
        &self,
        req: Request<pb::OrderRequest>,
    ) -> Result<Response<pb::Order>, Status> {
        let (tenant, user) = owner(&req)?;
        let order = self
            .store
            .upload(&tenant, &user, req.into_inner().order_id)
            .await
            .map_err(refusal)?;
        Ok(Response::new(order_pb(order, false)))
    }

    #[tracing::instrument(skip_all)]
    async fn cancel(&self, req: Request<pb::OrderRequest>) -> Result<Response<pb::Order>, Status> {
        let (tenant, user) = owner(&req)?;
        let order = self
            .store
            .cancel(&tenant, &user, req.into_inner().order_id)
            .await
            .map_err(refusal)?;
        Ok(Response::new(order_pb(order, false)))
    }

    #[tracing::instrument(skip_all)]
    async fn list_orders(
        &self,
        req: Request<pb::ListOrdersRequest>,
    ) -> Result<Response<pb::OrderPage>, Status> {
        let (tenant, user) = owner(&req)?;
        let r = req.into_inner();
        let (page, size, state) = domain::page(r.page, r.size, r.state).map_err(refusal)?;
        let found = self
            .store
            .list(&tenant, Some(&user), page, size, state)
            .await
            .map_err(refusal)?;
        Ok(Response::new(page_pb(found)))
    }

    #[tracing::instrument(skip_all)]
    async fn list_tenant_orders(
        &self,
        req: Request<pb::ListOrdersRequest>,
    ) -> Result<Response<pb::OrderPage>, Status> {
        let caller = identity::caller(&req)?;
        caller
            .require_role(Role::TemplateManager)
            .map_err(to_status)?;
        let r = req.into_inner();
        let (page, size, state) = domain::page(r.page, r.size, r.state).map_err(refusal)?;
        let found = self
            .store
            .list(&caller.tenant, None, page, size, state)
            .await
            .map_err(refusal)?;
        Ok(Response::new(page_pb(found)))
    }

    #[tracing::instrument(skip_all)]
    async fn record_copyright(
        &self,
        req: Request<pb::CopyrightRecord>,
    ) -> Result<Response<pb::Copyright>, Status> {
        let (tenant, user) = owner(&req)?;
        let r = req.into_inner();
        let prefix = reelforge_kit::blob::user_copyright_prefix(&tenant, &user);
        if uuid::Uuid::parse_str(&r.id).is_err()
            || !r.key.starts_with(&format!("{prefix}{}/", r.id))
        {
            return Err(refusal(RingError::Invalid(
                "key: not a copyright proof of the caller".into(),
            )));
        }
        if !matches!(r.format.as_str(), "jpeg" | "png" | "pdf") {
            return Err(refusal(RingError::Invalid(format!(
                "format: `{}` is not jpeg, png or pdf",
                r.format
            ))));
        }
        let name: String = r
            .name
            .chars()
            .filter(|c| !c.is_control())
            .take(200)
            .collect();
        let c = Copyright {
            id: r.id,
            name,
            key: r.key,
            format: r.format,
            bytes: r.bytes,
        };
        let recorded = self
            .store
            .record_copyright(&tenant, &user, c)
            .await
            .map_err(refusal)?;
        Ok(Response::new(copyright_pb(recorded)))
    }

    #[tracing::instrument(skip_all)]
    async fn get_copyright(
        &self,
        req: Request<pb::CopyrightRequest>,
    ) -> Result<Response<pb::Copyright>, Status> {
        let (tenant, user) = owner(&req)?;
        let c = self
            .store
            .copyright(&tenant, &user, &req.into_inner().id)
            .await
            .map_err(refusal)?;
        Ok(Response::new(copyright_pb(c)))
    }
}
