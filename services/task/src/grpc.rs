//! The tonic server: proto ⇄ domain conversions; errors become statuses here, once.

use std::pin::Pin;
use std::sync::Arc;

use reelforge_kit::db::now_millis;
use reelforge_kit::identity;
use reelforge_kit::status::{REASON_METADATA, to_status};
use reelforge_proto::render::RenderProgress;
use reelforge_proto::task::{self as pb, task_service_server::TaskService};
use tokio_stream::Stream;
use tonic::{Request, Response, Status};

use crate::domain::{
    self, FinishOutcome, JobRef, Order, Owner, SaveInput, SourceRange, Stage, Task, TaskError, TaskFilter, TaskState, TaskStatus,
    ToolOutput,
};
use crate::events::Events;
use crate::grpc_collection;
use crate::grpc_contest;
use crate::grpc_enterprise;
use crate::grpc_market;
use crate::grpc_maintain;
use crate::farm::FarmSettings;
use crate::history::HistoryStore;
use crate::store::{Deleted, TaskStore, renders_prefix};
use crate::watchers::{Watchers, current};
use crate::template::{AuditState, Replacement, SheetFormat, Template, TemplateFilter, TemplateKind, Viewer, slot_kind_name};
use reelforge_kit::BlobStore;

/// How many template names a category-use answer carries.
const CATEGORY_USE_NAMES: u64 = 5;

/// The gRPC face of the task service.
pub struct TaskGrpc {
    store: TaskStore,
    /// Every service's migrations as this binary carries them (the upgrade page's listing).
    migrations: Arc<Vec<reelforge_kit::db::MigrationBook>>,
    settings: FarmSettings,
    events: Arc<Events>,
    history: HistoryStore,
    blob: BlobStore,
    watchers: Arc<Watchers>,
}

impl TaskGrpc {
    /// Serves `store` with the farm's lease settings, its render events (which wake the shared
    /// feeds of watched tasks), the editor's autosave and the blob store of renders.
    pub fn new(store: TaskStore, settings: FarmSettings, events: Arc<Events>, history: HistoryStore, blob: BlobStore) -> Self {
        let watchers = Watchers::new(store.clone(), events.clone());
        Self { store, migrations: Arc::default(), settings, events, history, blob, watchers }
    }

    /// Lists `books`, every service's migrations as this binary carries them, on the upgrade page.
    pub fn with_migrations(mut self, books: Vec<reelforge_kit::db::MigrationBook>) -> Self {
        self.migrations = Arc::new(books);
        self
    }

    /// Removes the storage of deleted tasks once their rows are gone: every object under each
    /// task's renders prefix, and its recorded render and cover keys. A failure is logged, not
    /// answered: the rows are gone and a leftover object is unreachable.
    async fn remove_objects(&self, owner: &Owner, keys: Vec<String>, task_ids: &[i64]) {
        let mut all = keys;
        for id in task_ids {
            match self.blob.list(&renders_prefix(&owner.tenant, *id)).await {
                Ok(found) => all.extend(found),
                Err(e) => tracing::warn!(task_id = id, error = %e, "renders of a deleted task not listed"),
            }
        }
        all.sort();
        all.dedup();
        for key in all {
            if let Err(e) = self.blob.delete(&key).await {
                tracing::warn!(key, error = %e, "object of a deleted task not removed");
            }
        }
    }
}

fn ids_given(ids: Vec<i64>) -> Result<Vec<i64>, Status> {
    if ids.is_empty() {
        return Err(to_status(TaskError::Invalid("taskIds: no task id given".into())));
    }
    let mut seen = Vec::with_capacity(ids.len());
    for id in ids {
        if !seen.contains(&id) {
            seen.push(id);
        }
    }
    Ok(seen)
}

fn event_kind(status: TaskStatus) -> &'static str {
    match status {
        TaskStatus::Success => "done",
        TaskStatus::Error => "error",
        TaskStatus::Cancelled => "cancelled",
        _ => "progress",
    }
}

fn announcement(job: &JobRef, stage: Stage, percent: u32) -> RenderProgress {
    RenderProgress {
        job_id: job.job_id.clone(),
        task_id: job.task_id,
        stage: stage.name().to_owned(),
        tenant: job.tenant.clone(),
        percent,
        eta_seconds: -1,
        seq: now_millis(),
        ..Default::default()
    }
}

/// The verified tenant and user the call acts for.
fn owner<T>(req: &Request<T>) -> Result<Owner, Status> {
    let caller = identity::caller(req)?;
    let (tenant, user_id) = caller.owner().map_err(to_status)?;
    Ok(Owner { tenant: tenant.to_owned(), user_id: user_id.to_owned() })
}

/// The job a worker's call names, in the tenant of its service token: only workers report on jobs,
/// and only on their tenant's.
fn job_ref<T>(req: &Request<T>, task_id: i64, job_id: &str, attempt: u32) -> Result<JobRef, Status> {
    let caller = identity::caller(req)?;
    caller.require_service().map_err(to_status)?;
    if job_id.is_empty() {
        return Err(to_status(TaskError::Invalid("jobId: required".into())));
    }
    Ok(JobRef { tenant: caller.tenant, task_id, job_id: job_id.to_owned(), attempt })
}

fn time(ms: i64) -> String {
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M:%S").to_string())
        .unwrap_or_default()
}

fn to_pb(t: Task) -> pb::Task {
    let tool = t.tool.unwrap_or_default();
    pb::Task {
        tool_type: tool.tool_type,
        tool_params: tool.params,
        material_ids: tool.material_ids,
        outputs: tool.outputs.into_iter().map(output_to_pb).collect(),
        created_ms: t.created_ms,
        updated_ms: t.updated_ms,
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
        version: t.version,
        duration: t.duration_ms as f64 / 1000.0,
        loudness: t.loudness,
    }
}

fn output_to_pb(o: ToolOutput) -> pb::ToolOutput {
    let ranges = o.ranges.into_iter().map(|r| pb::SourceRange { start_ms: r.start_ms, end_ms: r.end_ms }).collect();
    pb::ToolOutput { key: o.key, kind: o.kind, name: o.name, size: o.size, duration_ms: o.duration_ms, width: o.width, height: o.height, ranges }
}

fn output_of_pb(o: pb::ToolOutput) -> ToolOutput {
    let ranges = o.ranges.into_iter().map(|r| SourceRange { start_ms: r.start_ms, end_ms: r.end_ms }).collect();
    ToolOutput { key: o.key, kind: o.kind, name: o.name, size: o.size, duration_ms: o.duration_ms, width: o.width, height: o.height, ranges }
}

fn state_to_pb(s: TaskState) -> pb::TaskState {
    pb::TaskState {
        task_id: s.task_id,
        status: s.status.code(),
        percent: s.percent,
        video_relative_path: s.video_key,
        reason: s.reason,
        stage: s.stage.name().to_owned(),
        frames_done: s.frames.0,
        frames_total: s.frames.1,
        eta_seconds: s.eta_seconds.unwrap_or(-1),
    }
}

/// The caller as a template viewer: a TEMPLATE_MANAGER or not, from the verified token.
fn viewer<T>(req: &Request<T>) -> Result<Viewer, Status> {
    let caller = identity::caller(req)?;
    let manager = caller.role() == Some(identity::Role::TemplateManager);
    let (tenant, user_id) = caller.owner().map_err(to_status)?;
    Ok(Viewer { owner: Owner { tenant: tenant.to_owned(), user_id: user_id.to_owned() }, manager })
}

/// A template as the wire carries it; the document and IVVR info only for a detail.
pub(crate) fn template_to_pb(t: Template, detail: bool) -> pb::Template {
    let ivvr_info = if detail {
        reelforge_timeline::task::parse_ivvr_info(&t.ivvr_info)
            .into_iter()
            .map(|i| pb::IvvrEntry { pic: i.pic, video: i.video })
            .collect()
    } else {
        Vec::new()
    };
    pb::Template {
        id: t.id,
        task_name: t.name,
        kind: t.kind.name().to_owned(),
        used_for: t.used_for,
        size_category_id: t.size_category_id,
        category_ids: t.category_ids,
        cover_key: t.cover_key,
        video_key: t.video_key,
        duration: t.duration_ms as f64 / 1000.0,
        replace_word: t.counts.0,
        replace_picture: t.counts.1,
        replace_video: t.counts.2,
        audit_state: t.audit.name().to_owned(),
        reason: t.reason,
        push: t.push,
        creator_id: t.creator_id,
        task_id: t.task_id,
        create_time: time(t.created_ms),
        update_time: time(t.updated_ms),
        task_info: if detail { t.task_info } else { String::new() },
        ivvr_info,
    }
}

fn template_page(items: Vec<Template>, total: u64) -> pb::TemplatePage {
    pb::TemplatePage { items: items.into_iter().map(|t| template_to_pb(t, false)).collect(), total }
}

/// Page number and size of a template list (default 12, at most the store's largest page).
fn template_paging(page: Option<reelforge_proto::common::Page>) -> (u64, u64) {
    let page = page.unwrap_or_default();
    let size = match u64::from(page.page_size) {
        0 => 12,
        n => n.min(crate::store::TEMPLATE_PAGE_MAX),
    };
    (u64::from(page.page_num.max(1)), size)
}

fn template_filter(req: &pb::TemplateListRequest) -> Result<TemplateFilter, Status> {
    let kind = match req.kind.trim() {
        "" => None,
        k => Some(TemplateKind::parse(k).map_err(to_status)?),
    };
    Ok(TemplateFilter {
        kind,
        size_category_ids: req.size_category_ids.clone(),
        category_id: (req.category_id > 0).then_some(req.category_id),
        name: req.name.clone(),
        order: Order::from_type(req.order_type),
    })
}

/// Tells the watchers a run queued its job (as `Run` does).
async fn announce_queued(events: &Events, owner: &Owner, task_id: i64, run: &crate::domain::Run) {
    if run.status == TaskStatus::Wait {
        let job = JobRef { tenant: owner.tenant.clone(), task_id, job_id: run.job_id.clone(), attempt: 1 };
        events.announce(announcement(&job, Stage::Queued, 0)).await;
    }
}

/// Default and largest page of `Mine`.
const PAGE_DEFAULT: u64 = 10;
const PAGE_MAX: u64 = 100;

#[tonic::async_trait]
impl TaskService for TaskGrpc {
    type WatchStream = Pin<Box<dyn Stream<Item = Result<pb::TaskEvent, Status>> + Send>>;

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn save(&self, req: Request<pb::SaveTaskRequest>) -> Result<Response<pb::SaveTaskReply>, Status> {
        let owner = owner(&req)?;
        let req = req.into_inner();
        // A task made from a template may name the template's materials too.
        let access = self.store.access(&owner, req.task_id).await.map_err(to_status)?;
        let input = SaveInput {
            task_id: req.task_id,
            name: &req.task_name,
            task_info: &req.task_info,
            size_category_id: req.size_category_id,
            used_for: &req.used_for,
            version: req.version,
        };
        let (draft, by_address) = domain::parse_draft_for(&access, input).map_err(to_status)?;
        self.store.confirm(&owner, &by_address).await.map_err(to_status)?;
        let warnings = draft.warnings.clone();
        let task_id = self.store.save(&owner, draft).await.map_err(save_refusal)?;
        Ok(Response::new(pb::SaveTaskReply { task_id, warnings }))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn get(&self, req: Request<pb::GetTaskRequest>) -> Result<Response<pb::Task>, Status> {
        let owner = owner(&req)?;
        let task_id = req.get_ref().task_id;
        Ok(Response::new(to_pb(self.store.get(&owner, task_id).await.map_err(to_status)?)))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn run(&self, req: Request<pb::RunTaskRequest>) -> Result<Response<pb::RunTaskReply>, Status> {
        let owner = owner(&req)?;
        let task_id = req.get_ref().task_id;
        let run = self.store.run(&owner, task_id).await.map_err(to_status)?;
        if run.status == TaskStatus::Wait {
            let job = JobRef { tenant: owner.tenant, task_id, job_id: run.job_id.clone(), attempt: 1 };
            self.events.announce(announcement(&job, Stage::Queued, 0)).await;
        }
        Ok(Response::new(pb::RunTaskReply { job_id: run.job_id, status: run.status.code() }))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn state(&self, req: Request<pb::GetTaskRequest>) -> Result<Response<pb::TaskState>, Status> {
        let owner = owner(&req)?;
        let (_, s) = current(&self.store, &self.events, &owner, req.get_ref().task_id).await.map_err(to_status)?;
        Ok(Response::new(state_to_pb(s)))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn watch(&self, req: Request<pb::WatchRequest>) -> Result<Response<Self::WatchStream>, Status> {
        let owner = owner(&req)?;
        let (task_id, mut last) = (req.get_ref().task_id, req.get_ref().after_seq);
        let mut feed = self.watchers.watch(&owner, task_id);
        let first = feed.wait_for(Option::is_some).await.map_err(|_| Status::unavailable("the task's watch ended, please retry"))?.clone();
        if let Some(Err(refused)) = first {
            return Err(refused);
        }
        let (tx, rx) = tokio::sync::mpsc::channel(16);
        tokio::spawn(async move {
            loop {
                let reading = feed.borrow_and_update().clone();
                match reading {
                    Some(Ok((seq, state))) => {
                        let at_rest = !state.status.is_rendering();
                        if seq > last {
                            last = seq;
                            let event = pb::TaskEvent { seq, kind: event_kind(state.status).to_owned(), state: Some(state_to_pb(state)) };
                            if tx.send(Ok(event)).await.is_err() {
                                return;
                            }
                        }
                        if at_rest {
                            return;
                        }
                    }
                    Some(Err(e)) => {
                        let _ = tx.send(Err(e)).await;
                        return;
                    }
                    None => {}
                }
                tokio::select! {
                    _ = tx.closed() => return,
                    moved = feed.changed() => if moved.is_err() {
                        // The feed stopped without a last word (the bus went away); the browser
                        // reconnects from its last event.
                        return;
                    },
                }
            }
        });
        Ok(Response::new(Box::pin(tokio_stream::wrappers::ReceiverStream::new(rx))))
    }

    #[tracing::instrument(skip_all)]
    async fn mine(&self, req: Request<pb::ListTasksRequest>) -> Result<Response<pb::TaskPage>, Status> {
        let owner = owner(&req)?;
        let req = req.into_inner();
        let page = req.page.unwrap_or_default();
        let num = u64::from(page.page_num.max(1));
        let size = match u64::from(page.page_size) {
            0 => PAGE_DEFAULT,
            n => n.min(PAGE_MAX),
        };
        let filter = TaskFilter {
            states: req.states,
            size_category_ids: req.size_category_ids,
            name: req.name,
            used_for: req.used_for,
            order: Order::from_type(req.order_type),
        };
        let (items, total) = self.store.mine(&owner, &filter, num, size).await.map_err(to_status)?;
        Ok(Response::new(pb::TaskPage { items: items.into_iter().map(to_pb).collect(), total }))
    }

    #[tracing::instrument(skip_all)]
    async fn of_ids(&self, req: Request<pb::TaskIdsRequest>) -> Result<Response<pb::TaskList>, Status> {
        let owner = owner(&req)?;
        let ids = ids_given(req.into_inner().task_ids)?;
        let tasks = self.store.of_ids(&owner, &ids).await.map_err(to_status)?;
        Ok(Response::new(pb::TaskList { items: tasks.into_iter().map(to_pb).collect() }))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn rename(&self, req: Request<pb::RenameTaskRequest>) -> Result<Response<pb::Task>, Status> {
        let owner = owner(&req)?;
        let req = req.into_inner();
        let name = domain::check_name(&req.task_name).map_err(to_status)?;
        let task = self.store.rename(&owner, req.task_id, &name).await.map_err(to_status)?;
        Ok(Response::new(to_pb(task)))
    }

    #[tracing::instrument(skip_all)]
    async fn delete(&self, req: Request<pb::TaskIdsRequest>) -> Result<Response<pb::DeleteTasksReply>, Status> {
        let owner = owner(&req)?;
        let ids = ids_given(req.into_inner().task_ids)?;
        let deleted = self.store.delete(&owner, &ids).await.map_err(to_status)?;
        for d in &deleted {
            if let Some(job_id) = &d.active_job {
                self.events.cancel_job(job_id).await;
            }
            if let Err(e) = self.history.forget(&owner, d.task_id).await {
                tracing::warn!(task_id = d.task_id, error = %e, "autosave of a deleted task not forgotten");
            }
        }
        let ids: Vec<i64> = deleted.iter().map(|d| d.task_id).collect();
        let keys = deleted.into_iter().flat_map(|d: Deleted| d.keys).collect();
        self.remove_objects(&owner, keys, &ids).await;
        Ok(Response::new(pb::DeleteTasksReply { deleted: ids }))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn duplicate(&self, req: Request<pb::GetTaskRequest>) -> Result<Response<pb::SaveTaskReply>, Status> {
        let owner = owner(&req)?;
        let task_id = self.store.duplicate(&owner, req.get_ref().task_id).await.map_err(to_status)?;
        Ok(Response::new(pb::SaveTaskReply { task_id, warnings: Vec::new() }))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn clear(&self, req: Request<pb::GetTaskRequest>) -> Result<Response<pb::Task>, Status> {
        let owner = owner(&req)?;
        let task_id = req.get_ref().task_id;
        let (task, keys) = self.store.clear(&owner, task_id).await.map_err(to_status)?;
        self.remove_objects(&owner, keys, &[task_id]).await;
        Ok(Response::new(to_pb(task)))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn store_history(&self, req: Request<pb::StoreHistoryRequest>) -> Result<Response<pb::HistoryReply>, Status> {
        let owner = owner(&req)?;
        let req = req.into_inner();
        if req.task_id > 0 {
            self.store.confirm_work(&owner, req.task_id).await.map_err(to_status)?;
        }
        let stored_ms = self.history.store(&owner, req.task_id, &req.history).await.map_err(to_status)?;
        Ok(Response::new(pb::HistoryReply { stored_ms, history: String::new() }))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn get_history(&self, req: Request<pb::GetTaskRequest>) -> Result<Response<pb::HistoryReply>, Status> {
        let owner = owner(&req)?;
        let task_id = req.get_ref().task_id;
        if task_id > 0 {
            self.store.confirm_work(&owner, task_id).await.map_err(to_status)?;
        }
        let h = self.history.get(&owner, task_id).await.map_err(to_status)?;
        Ok(Response::new(pb::HistoryReply { stored_ms: h.stored_ms, history: h.history }))
    }

    #[tracing::instrument(skip_all)]
    async fn cancel(&self, req: Request<pb::CancelTasksRequest>) -> Result<Response<pb::CancelTasksReply>, Status> {
        let owner = owner(&req)?;
        let ids = req.into_inner().task_ids;
        if ids.is_empty() {
            return Err(to_status(TaskError::Invalid("taskIds: no task id given".into())));
        }
        let jobs = self.store.cancel(&owner, &ids).await.map_err(to_status)?;
        for job in &jobs {
            if !job.job_id.is_empty() {
                self.events.cancel_job(&job.job_id).await;
            }
            self.events.announce(announcement(job, Stage::Cancelled, 0)).await;
        }
        Ok(Response::new(pb::CancelTasksReply { cancelled: jobs.into_iter().map(|j| j.task_id).collect() }))
    }

    #[tracing::instrument(skip_all, fields(job_id = %req.get_ref().job_id, attempt = req.get_ref().attempt))]
    async fn start(&self, req: Request<pb::JobRef>) -> Result<Response<pb::StartReply>, Status> {
        let job = job_ref(&req, req.get_ref().task_id, &req.get_ref().job_id, req.get_ref().attempt)?;
        let start = self.store.start(&job, self.settings.stale_ms()).await.map_err(to_status)?;
        Ok(Response::new(pb::StartReply { start }))
    }

    #[tracing::instrument(skip_all, fields(job_id = %req.get_ref().job_id, attempt = req.get_ref().attempt))]
    async fn heartbeat(&self, req: Request<pb::JobRef>) -> Result<Response<pb::HeartbeatReply>, Status> {
        let job = job_ref(&req, req.get_ref().task_id, &req.get_ref().job_id, req.get_ref().attempt)?;
        let keep = self.store.heartbeat(&job).await.map_err(to_status)?;
        Ok(Response::new(pb::HeartbeatReply { keep }))
    }

    #[tracing::instrument(skip_all, fields(job_id = %req.get_ref().job_id, attempt = req.get_ref().attempt))]
    async fn release(&self, req: Request<pb::JobRef>) -> Result<Response<pb::ReleaseReply>, Status> {
        let job = job_ref(&req, req.get_ref().task_id, &req.get_ref().job_id, req.get_ref().attempt)?;
        let released = self.store.release(&job).await.map_err(to_status)?;
        Ok(Response::new(pb::ReleaseReply { released }))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id, job_id = %req.get_ref().job_id))]
    async fn finish(&self, req: Request<pb::FinishRenderRequest>) -> Result<Response<pb::FinishReply>, Status> {
        let job = job_ref(&req, req.get_ref().task_id, &req.get_ref().job_id, req.get_ref().attempt)?;
        let req = req.into_inner();
        let (outcome, mut end) = if req.ok {
            let mut end = announcement(&job, Stage::Done, 100);
            end.video_key = req.video_key.clone();
            // A figure no mix can measure (gated loudness lies within -70..0 LUFS, a little above
            // after gain) is not stored.
            let loudness = req.loudness.filter(|l| (-70.0..=10.0).contains(l));
            if req.outputs.is_empty() {
                (FinishOutcome::Done { video_key: req.video_key, cover_key: req.cover_key, loudness }, end)
            } else {
                (FinishOutcome::Tool { outputs: req.outputs.into_iter().map(output_of_pb).collect() }, end)
            }
        } else {
            let mut end = announcement(&job, Stage::Error, 0);
            end.reason = req.reason.clone();
            (FinishOutcome::Failed { reason: req.reason }, end)
        };
        let applied = self.store.finish(&job, req.dead_letter, outcome).await.map_err(to_status)?;
        if applied {
            end.seq = now_millis();
            self.events.announce(end).await;
        }
        Ok(Response::new(pb::FinishReply { applied }))
    }

    #[tracing::instrument(skip_all, fields(tool = %req.get_ref().tool_type))]
    async fn run_tool(&self, req: Request<pb::RunToolRequest>) -> Result<Response<pb::RunToolReply>, Status> {
        let owner = owner(&req)?;
        let req = req.into_inner();
        let tool = if req.tool_type.trim() == reelforge_tools::ring_fix::RING_FIX && req.source_task_id != 0 {
            domain::parse_ring_fix(&req.params, req.source_task_id).map_err(to_status)?
        } else if req.tool_type.trim() == reelforge_ai::speech::TEXT_TO_VOICE {
            domain::parse_speech(&req.params, &req.material_ids).map_err(to_status)?
        } else if req.tool_type.trim() == reelforge_ai::asr::VOICE_TO_TEXT {
            domain::parse_recognition(&req.params, &req.material_ids).map_err(to_status)?
        } else if [reelforge_ai::picture::TEXT_TO_IMAGE, reelforge_ai::picture::SIMILAR_IMAGE].contains(&req.tool_type.trim()) {
            domain::parse_picture(&req.tool_type, &req.params, &req.material_ids).map_err(to_status)?
        } else if req.tool_type.trim() == reelforge_ai::audit::VIDEO_AUDIT {
            domain::parse_audit(&req.params, &req.material_ids, req.source_task_id).map_err(to_status)?
        } else {
            domain::parse_tool_run(&req.tool_type, &req.params, &req.material_ids).map_err(to_status)?
        };
        let (task_id, run) = self.store.run_tool(&owner, tool).await.map_err(to_status)?;
        announce_queued(&self.events, &owner, task_id, &run).await;
        Ok(Response::new(pb::RunToolReply { task_id, job_id: run.job_id }))
    }

    #[tracing::instrument(skip_all)]
    async fn mine_tools(&self, req: Request<pb::MineToolsRequest>) -> Result<Response<pb::TaskPage>, Status> {
        let owner = owner(&req)?;
        let req = req.into_inner();
        let page = req.page.unwrap_or_default();
        let size = match u64::from(page.page_size) {
            0 => PAGE_DEFAULT,
            n => n.min(PAGE_MAX),
        };
        let tool_type = Some(req.tool_type.trim()).filter(|t| !t.is_empty());
        let (items, total) =
            self.store.mine_tools(&owner, tool_type, u64::from(page.page_num.max(1)), size).await.map_err(to_status)?;
        Ok(Response::new(pb::TaskPage { items: items.into_iter().map(to_pb).collect(), total }))
    }

    #[tracing::instrument(skip_all)]
    async fn admin_search(&self, req: Request<pb::AdminSearchRequest>) -> Result<Response<pb::AdminTaskPage>, Status> {
        let admin = grpc_maintain::administrator(&req)?;
        let (search, page, size) = grpc_maintain::search_of(req.get_ref())?;
        let (rows, total) = self.store.search(&admin.tenant, &search, page, size).await.map_err(to_status)?;
        let items = rows.into_iter().map(|r| pb::AdminTask { user_id: r.user_id, task: Some(to_pb(r.task)) }).collect();
        Ok(Response::new(pb::AdminTaskPage { items, total }))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn admin_attempts(&self, req: Request<pb::GetTaskRequest>) -> Result<Response<pb::AttemptList>, Status> {
        let admin = grpc_maintain::administrator(&req)?;
        let attempts = self.store.attempts(&admin.tenant, req.get_ref().task_id).await.map_err(to_status)?;
        let items = attempts
            .into_iter()
            .map(|a| pb::Attempt {
                job_id: a.job_id,
                attempt: a.attempt,
                state: a.state,
                queued_ms: a.queued_ms,
                started_ms: a.started_ms,
                ended_ms: a.ended_ms,
                error: a.error,
            })
            .collect();
        Ok(Response::new(pb::AttemptList { items }))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn admin_requeue(&self, req: Request<pb::GetTaskRequest>) -> Result<Response<pb::RunTaskReply>, Status> {
        let admin = grpc_maintain::administrator(&req)?;
        let task_id = req.get_ref().task_id;
        let run = self.store.requeue(&admin.tenant, &admin.user_id, task_id).await.map_err(to_status)?;
        announce_queued(&self.events, &admin, task_id, &run).await;
        Ok(Response::new(pb::RunTaskReply { job_id: run.job_id, status: run.status.code() }))
    }

    #[tracing::instrument(skip_all)]
    async fn audit_record(&self, req: Request<pb::AuditEntry>) -> Result<Response<pb::AuditList>, Status> {
        let admin = grpc_maintain::administrator(&req)?;
        let entry = grpc_maintain::audit_input(&admin, req.into_inner())?;
        self.store.audit(&admin.tenant, &entry).await.map_err(to_status)?;
        Ok(Response::new(grpc_maintain::trail(&self.store, &admin, &entry.item).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn audit_trail(&self, req: Request<pb::AuditTrailRequest>) -> Result<Response<pb::AuditList>, Status> {
        let admin = grpc_maintain::administrator(&req)?;
        Ok(Response::new(grpc_maintain::trail(&self.store, &admin, &req.get_ref().item).await?))
    }

    #[tracing::instrument(skip_all)]
    async fn farm_state(&self, req: Request<pb::FarmRequest>) -> Result<Response<pb::FarmReply>, Status> {
        let admin = grpc_maintain::administrator(&req)?;
        Ok(Response::new(grpc_maintain::farm_to_pb(self.store.farm(&admin.tenant).await.map_err(to_status)?)))
    }

    #[tracing::instrument(skip_all)]
    async fn migrations(&self, req: Request<pb::FarmRequest>) -> Result<Response<pb::MigrationList>, Status> {
        grpc_maintain::administrator(&req)?;
        let states = self.store.migrations(&self.migrations).await.map_err(to_status)?;
        Ok(Response::new(pb::MigrationList { items: states.into_iter().map(grpc_maintain::migration_to_pb).collect() }))
    }

    #[tracing::instrument(skip_all)]
    async fn settings(&self, req: Request<pb::FarmRequest>) -> Result<Response<pb::SettingList>, Status> {
        let admin = grpc_maintain::administrator(&req)?;
        let items = self.store.settings(&admin.tenant).await.map_err(to_status)?;
        Ok(Response::new(pb::SettingList { items: items.into_iter().map(grpc_maintain::setting_to_pb).collect() }))
    }

    #[tracing::instrument(skip_all)]
    async fn set_setting(&self, req: Request<pb::SetSettingRequest>) -> Result<Response<pb::Setting>, Status> {
        let admin = grpc_maintain::administrator(&req)?;
        let r = req.get_ref();
        let s = self.store.set_setting(&admin.tenant, &admin.user_id, r.key.trim(), &r.value).await.map_err(to_status)?;
        Ok(Response::new(grpc_maintain::setting_to_pb(s)))
    }

    #[tracing::instrument(skip_all)]
    async fn catalogue_offer(&self, req: Request<pb::OfferRequest>) -> Result<Response<pb::Offer>, Status> {
        let viewer = viewer(&req)?;
        let catalogue = crate::offer::Catalogue::parse(&req.get_ref().catalogue).map_err(to_status)?;
        let items = self.store.catalogue_offer(&viewer.owner.tenant, catalogue).await.map_err(to_status)?;
        Ok(Response::new(grpc_maintain::offer_to_pb(catalogue, items)))
    }

    #[tracing::instrument(skip_all)]
    async fn set_catalogue_offer(&self, req: Request<pb::Offer>) -> Result<Response<pb::Offer>, Status> {
        let admin = grpc_maintain::administrator(&req)?;
        let (catalogue, items) = grpc_maintain::offer_of(req.into_inner())?;
        let items = self.store.set_catalogue_offer(&admin.tenant, &admin.user_id, catalogue, &items).await.map_err(to_status)?;
        Ok(Response::new(grpc_maintain::offer_to_pb(catalogue, items)))
    }

    #[tracing::instrument(skip_all)]
    async fn list_contests(&self, req: Request<pb::ContestListRequest>) -> Result<Response<pb::ContestList>, Status> {
        let viewer = viewer(&req)?;
        let now = now_millis();
        let items = self.store.contests(&viewer.owner.tenant).await.map_err(to_status)?;
        Ok(Response::new(pb::ContestList { items: items.into_iter().map(|c| grpc_contest::contest_to_pb(c, now)).collect() }))
    }

    #[tracing::instrument(skip_all, fields(contest_id = req.get_ref().id))]
    async fn get_contest(&self, req: Request<pb::ContestIdRequest>) -> Result<Response<pb::ContestDetail>, Status> {
        let viewer = viewer(&req)?;
        let now = now_millis();
        let (c, entries) = self.store.contest_detail(&viewer.owner, req.get_ref().id, now).await.map_err(to_status)?;
        Ok(Response::new(pb::ContestDetail {
            contest: Some(grpc_contest::contest_to_pb(c, now)),
            entries: entries.into_iter().map(grpc_contest::entry_to_pb).collect(),
        }))
    }

    #[tracing::instrument(skip_all, fields(contest_id = req.get_ref().id))]
    async fn save_contest(&self, req: Request<pb::SaveContestRequest>) -> Result<Response<pb::Contest>, Status> {
        let viewer = viewer(&req)?;
        let c = self.store.save_contest(&viewer, &grpc_contest::input_of(req.into_inner())).await.map_err(to_status)?;
        Ok(Response::new(grpc_contest::contest_to_pb(c, now_millis())))
    }

    #[tracing::instrument(skip_all, fields(contest_id = req.get_ref().id))]
    async fn delete_contest(&self, req: Request<pb::ContestIdRequest>) -> Result<Response<pb::ContestDone>, Status> {
        let viewer = viewer(&req)?;
        self.store.delete_contest(&viewer, req.get_ref().id).await.map_err(to_status)?;
        Ok(Response::new(pb::ContestDone {}))
    }

    #[tracing::instrument(skip_all, fields(contest_id = req.get_ref().contest_id, task_id = req.get_ref().task_id))]
    async fn submit_entry(&self, req: Request<pb::SubmitEntryRequest>) -> Result<Response<pb::ContestEntry>, Status> {
        let viewer = viewer(&req)?;
        let r = req.get_ref();
        let e = self.store.submit_entry(&viewer.owner, r.contest_id, r.task_id, now_millis()).await.map_err(to_status)?;
        Ok(Response::new(grpc_contest::entry_to_pb(e)))
    }

    #[tracing::instrument(skip_all, fields(entry_id = req.get_ref().entry_id))]
    async fn withdraw_entry(&self, req: Request<pb::EntryIdRequest>) -> Result<Response<pb::ContestDone>, Status> {
        let viewer = viewer(&req)?;
        self.store.withdraw_entry(&viewer.owner, req.get_ref().entry_id, now_millis()).await.map_err(to_status)?;
        Ok(Response::new(pb::ContestDone {}))
    }

    #[tracing::instrument(skip_all, fields(entry_id = req.get_ref().entry_id))]
    async fn like_entry(&self, req: Request<pb::EntryIdRequest>) -> Result<Response<pb::ContestEntry>, Status> {
        let viewer = viewer(&req)?;
        let e = self.store.like_entry(&viewer.owner, req.get_ref().entry_id, now_millis()).await.map_err(to_status)?;
        Ok(Response::new(grpc_contest::entry_to_pb(e)))
    }

    #[tracing::instrument(skip_all, fields(entry_id = req.get_ref().entry_id))]
    async fn score_entry(&self, req: Request<pb::ScoreEntryRequest>) -> Result<Response<pb::ContestEntry>, Status> {
        let viewer = viewer(&req)?;
        let r = req.get_ref();
        let e = self.store.score_entry(&viewer, r.entry_id, r.score).await.map_err(to_status)?;
        Ok(Response::new(grpc_contest::entry_to_pb(e)))
    }

    #[tracing::instrument(skip_all)]
    async fn list_services(&self, req: Request<pb::ServiceListRequest>) -> Result<Response<pb::ServiceList>, Status> {
        let viewer = viewer(&req)?;
        let kind = grpc_market::kind_filter(&req.get_ref().kind).map_err(to_status)?;
        let items = self.store.services(&viewer.owner, kind).await.map_err(to_status)?;
        Ok(Response::new(pb::ServiceList { items: items.into_iter().map(grpc_market::service_to_pb).collect() }))
    }

    #[tracing::instrument(skip_all, fields(service_id = req.get_ref().id))]
    async fn get_service(&self, req: Request<pb::ServiceIdRequest>) -> Result<Response<pb::ServiceDetail>, Status> {
        let viewer = viewer(&req)?;
        let (service, samples, mine) = self.store.service(&viewer.owner, req.get_ref().id).await.map_err(to_status)?;
        Ok(Response::new(pb::ServiceDetail {
            service: Some(grpc_market::service_to_pb(service)),
            samples: samples.into_iter().map(grpc_market::sample_to_pb).collect(),
            my_requests: mine.into_iter().map(grpc_market::request_to_pb).collect(),
        }))
    }

    #[tracing::instrument(skip_all)]
    async fn my_market(&self, req: Request<pb::ServiceListRequest>) -> Result<Response<pb::MyMarketReply>, Status> {
        let viewer = viewer(&req)?;
        let (services, received, sent) = self.store.my_market(&viewer.owner).await.map_err(to_status)?;
        Ok(Response::new(pb::MyMarketReply {
            services: services.into_iter().map(grpc_market::service_to_pb).collect(),
            received: received.into_iter().map(grpc_market::request_to_pb).collect(),
            sent: sent.into_iter().map(grpc_market::request_to_pb).collect(),
        }))
    }

    #[tracing::instrument(skip_all, fields(service_id = req.get_ref().id))]
    async fn save_service(&self, req: Request<pb::SaveServiceRequest>) -> Result<Response<pb::MarketService>, Status> {
        let viewer = viewer(&req)?;
        let s = self.store.save_service(&viewer.owner, &grpc_market::input_of(req.into_inner())).await.map_err(to_status)?;
        Ok(Response::new(grpc_market::service_to_pb(s)))
    }

    #[tracing::instrument(skip_all, fields(service_id = req.get_ref().id))]
    async fn publish_service(&self, req: Request<pb::PublishServiceRequest>) -> Result<Response<pb::MarketService>, Status> {
        let viewer = viewer(&req)?;
        let r = req.get_ref();
        let s = self.store.publish_service(&viewer.owner, r.id, r.published).await.map_err(to_status)?;
        Ok(Response::new(grpc_market::service_to_pb(s)))
    }

    #[tracing::instrument(skip_all, fields(service_id = req.get_ref().service_id))]
    async fn place_request(&self, req: Request<pb::PlaceRequestRequest>) -> Result<Response<pb::MarketRequest>, Status> {
        let viewer = viewer(&req)?;
        let r = req.get_ref();
        let placed = self.store.place_request(&viewer.owner, r.service_id, &r.note).await.map_err(to_status)?;
        Ok(Response::new(grpc_market::request_to_pb(placed)))
    }

    #[tracing::instrument(skip_all, fields(request_id = req.get_ref().request_id))]
    async fn withdraw_request(&self, req: Request<pb::RequestIdRequest>) -> Result<Response<pb::MarketRequest>, Status> {
        let viewer = viewer(&req)?;
        let r = self.store.withdraw_request(&viewer.owner, req.get_ref().request_id).await.map_err(to_status)?;
        Ok(Response::new(grpc_market::request_to_pb(r)))
    }

    #[tracing::instrument(skip_all, fields(request_id = req.get_ref().request_id))]
    async fn decline_request(&self, req: Request<pb::DeclineRequestRequest>) -> Result<Response<pb::MarketRequest>, Status> {
        let viewer = viewer(&req)?;
        let r = req.get_ref();
        let declined = self.store.decline_request(&viewer.owner, r.request_id, &r.reason).await.map_err(to_status)?;
        Ok(Response::new(grpc_market::request_to_pb(declined)))
    }

    #[tracing::instrument(skip_all, fields(request_id = req.get_ref().request_id, task_id = req.get_ref().task_id))]
    async fn deliver_request(&self, req: Request<pb::DeliverRequestRequest>) -> Result<Response<pb::MarketRequest>, Status> {
        let viewer = viewer(&req)?;
        let r = req.get_ref();
        let delivered = self.store.deliver_request(&viewer.owner, r.request_id, r.task_id, &self.blob).await.map_err(to_status)?;
        Ok(Response::new(grpc_market::request_to_pb(delivered)))
    }

    #[tracing::instrument(skip_all)]
    async fn list_collections(&self, req: Request<pb::CollectionListRequest>) -> Result<Response<pb::CollectionList>, Status> {
        let viewer = viewer(&req)?;
        let kind = grpc_collection::kind_filter(&req.get_ref().kind)?;
        let cards = self.store.collections(&viewer, kind, req.get_ref().manage).await.map_err(to_status)?;
        Ok(Response::new(grpc_collection::list_to_pb(cards)))
    }

    #[tracing::instrument(skip_all, fields(collection_id = req.get_ref().id))]
    async fn get_collection(&self, req: Request<pb::CollectionIdRequest>) -> Result<Response<pb::Collection>, Status> {
        let viewer = viewer(&req)?;
        let d = self.store.collection(&viewer, req.get_ref().id, req.get_ref().manage).await.map_err(to_status)?;
        Ok(Response::new(grpc_collection::detail_to_pb(d)))
    }

    #[tracing::instrument(skip_all, fields(collection_id = req.get_ref().id))]
    async fn save_collection(&self, req: Request<pb::SaveCollectionRequest>) -> Result<Response<pb::Collection>, Status> {
        let viewer = viewer(&req)?;
        let input = grpc_collection::input_of(req.into_inner())?;
        let d = self.store.save_collection(&viewer, input).await.map_err(to_status)?;
        Ok(Response::new(grpc_collection::detail_to_pb(d)))
    }

    #[tracing::instrument(skip_all, fields(collection_id = req.get_ref().id))]
    async fn publish_collection(&self, req: Request<pb::PublishCollectionRequest>) -> Result<Response<pb::Collection>, Status> {
        let viewer = viewer(&req)?;
        let d = self.store.publish_collection(&viewer, req.get_ref().id, req.get_ref().published).await.map_err(to_status)?;
        Ok(Response::new(grpc_collection::detail_to_pb(d)))
    }

    #[tracing::instrument(skip_all)]
    async fn order_collections(&self, req: Request<pb::OrderCollectionsRequest>) -> Result<Response<pb::CollectionList>, Status> {
        let viewer = viewer(&req)?;
        let kind = crate::collection::CollectionKind::parse(&req.get_ref().kind).map_err(to_status)?;
        let cards = self.store.order_collections(&viewer, kind, &req.get_ref().ids).await.map_err(to_status)?;
        Ok(Response::new(grpc_collection::list_to_pb(cards)))
    }

    #[tracing::instrument(skip_all, fields(collection_id = req.get_ref().id))]
    async fn delete_collection(&self, req: Request<pb::CollectionIdRequest>) -> Result<Response<pb::DeleteCollectionReply>, Status> {
        let viewer = viewer(&req)?;
        self.store.delete_collection(&viewer, req.get_ref().id).await.map_err(to_status)?;
        Ok(Response::new(pb::DeleteCollectionReply {}))
    }

    #[tracing::instrument(skip_all)]
    async fn enterprise_space(&self, req: Request<pb::EnterpriseSpaceRequest>) -> Result<Response<pb::EnterpriseSpaceReply>, Status> {
        let actor = grpc_enterprise::actor(&req)?;
        let space = self.store.enterprise_space(&actor).await.map_err(to_status)?;
        Ok(Response::new(pb::EnterpriseSpaceReply {
            enterprise: space.enterprise.map(grpc_enterprise::enterprise_to_pb),
            admin: space.admin,
            shares: space.shares.into_iter().map(grpc_enterprise::share_to_pb).collect(),
        }))
    }

    #[tracing::instrument(skip_all, fields(kind = %req.get_ref().kind))]
    async fn enterprise_share(&self, req: Request<pb::EnterpriseShareRequest>) -> Result<Response<pb::EnterpriseShareItem>, Status> {
        let actor = grpc_enterprise::actor(&req)?;
        let r = req.get_ref();
        let share = self.store.enterprise_share(&actor, &r.kind, &r.item_id).await.map_err(to_status)?;
        Ok(Response::new(grpc_enterprise::share_to_pb(share)))
    }

    #[tracing::instrument(skip_all, fields(share_id = req.get_ref().share_id))]
    async fn enterprise_unshare(&self, req: Request<pb::EnterpriseShareIdRequest>) -> Result<Response<pb::EnterpriseDone>, Status> {
        let actor = grpc_enterprise::actor(&req)?;
        self.store.enterprise_unshare(&actor, req.get_ref().share_id).await.map_err(to_status)?;
        Ok(Response::new(pb::EnterpriseDone {}))
    }

    #[tracing::instrument(skip_all, fields(share_id = req.get_ref().share_id))]
    async fn enterprise_copy(&self, req: Request<pb::EnterpriseShareIdRequest>) -> Result<Response<pb::SaveTaskReply>, Status> {
        let actor = grpc_enterprise::actor(&req)?;
        let task_id = self.store.enterprise_copy(&actor, req.get_ref().share_id, &self.blob).await.map_err(to_status)?;
        Ok(Response::new(pb::SaveTaskReply { task_id, warnings: Vec::new() }))
    }

    #[tracing::instrument(skip_all, fields(enterprise_id = req.get_ref().enterprise_id))]
    async fn enterprise_add_member(&self, req: Request<pb::EnterpriseMemberRequest>) -> Result<Response<pb::EnterpriseMember>, Status> {
        let actor = grpc_enterprise::actor(&req)?;
        let r = req.get_ref();
        let member = self.store.enterprise_add_member(&actor, r.enterprise_id, &r.user_id).await.map_err(to_status)?;
        Ok(Response::new(grpc_enterprise::member_to_pb(member)))
    }

    #[tracing::instrument(skip_all, fields(enterprise_id = req.get_ref().enterprise_id))]
    async fn enterprise_remove_member(&self, req: Request<pb::EnterpriseMemberRequest>) -> Result<Response<pb::EnterpriseDone>, Status> {
        let actor = grpc_enterprise::actor(&req)?;
        let r = req.get_ref();
        self.store.enterprise_remove_member(&actor, r.enterprise_id, &r.user_id).await.map_err(to_status)?;
        Ok(Response::new(pb::EnterpriseDone {}))
    }

    #[tracing::instrument(skip_all)]
    async fn enterprise_list(&self, req: Request<pb::EnterpriseSpaceRequest>) -> Result<Response<pb::EnterpriseListReply>, Status> {
        let actor = grpc_enterprise::actor(&req)?;
        let items = self.store.enterprises(&actor).await.map_err(to_status)?;
        Ok(Response::new(pb::EnterpriseListReply { items: items.into_iter().map(grpc_enterprise::enterprise_to_pb).collect() }))
    }

    #[tracing::instrument(skip_all, fields(enterprise_id = req.get_ref().id))]
    async fn enterprise_save(&self, req: Request<pb::EnterpriseSaveRequest>) -> Result<Response<pb::Enterprise>, Status> {
        let actor = grpc_enterprise::actor(&req)?;
        let r = req.get_ref();
        let e = self.store.enterprise_save(&actor, r.id, &r.name).await.map_err(to_status)?;
        Ok(Response::new(grpc_enterprise::enterprise_to_pb(e)))
    }

    #[tracing::instrument(skip_all)]
    async fn set_maintenance(&self, req: Request<pb::FarmRequest>) -> Result<Response<pb::FarmReply>, Status> {
        let admin = grpc_maintain::administrator(&req)?;
        let farm = self.store.set_maintenance(&admin.tenant, &admin.user_id, req.get_ref().maintenance).await.map_err(to_status)?;
        Ok(Response::new(grpc_maintain::farm_to_pb(farm)))
    }

    #[tracing::instrument(skip_all)]
    async fn template_list(&self, req: Request<pb::TemplateListRequest>) -> Result<Response<pb::TemplatePage>, Status> {
        let viewer = viewer(&req)?;
        let req = req.into_inner();
        let filter = template_filter(&req)?;
        let (num, size) = template_paging(req.page);
        let (items, total) = self.store.approved_templates(&viewer, &filter, num, size).await.map_err(to_status)?;
        Ok(Response::new(template_page(items, total)))
    }

    #[tracing::instrument(skip_all, fields(template_id = req.get_ref().template_id))]
    async fn template_get(&self, req: Request<pb::TemplateIdRequest>) -> Result<Response<pb::Template>, Status> {
        let viewer = viewer(&req)?;
        if req.get_ref().check {
            viewer.require_manager().map_err(to_status)?;
        }
        let t = self.store.template(&viewer, req.get_ref().template_id).await.map_err(to_status)?;
        Ok(Response::new(template_to_pb(t, true)))
    }

    #[tracing::instrument(skip_all, fields(template_id = req.get_ref().template_id))]
    async fn template_slots(&self, req: Request<pb::TemplateIdRequest>) -> Result<Response<pb::SlotList>, Status> {
        let viewer = viewer(&req)?;
        let slots = self.store.template_slots(&viewer, req.get_ref().template_id).await.map_err(to_status)?;
        let items = slots
            .into_iter()
            .map(|s| pb::Slot {
                id: s.id,
                scene_index: s.scene_index,
                material_type: slot_kind_name(s.kind).to_owned(),
                content: s.content,
                max_length: s.max_length,
                width: s.width,
                height: s.height,
            })
            .collect();
        Ok(Response::new(pb::SlotList { items }))
    }

    #[tracing::instrument(skip_all, fields(category_id = req.get_ref().category_id))]
    async fn one_click_choose(&self, req: Request<pb::OneClickChooseRequest>) -> Result<Response<pb::OneClickChoice>, Status> {
        let viewer = viewer(&req)?;
        let req = req.into_inner();
        let items = self.store.one_click_templates(&viewer, req.category_id, req.time_length).await.map_err(to_status)?;
        let items = items
            .into_iter()
            .map(|c| pb::OneClickTemplate {
                template: Some(template_to_pb(c.template, false)),
                video_slots: c.video_slots.into_iter().map(|s| pb::OneClickSlot { id: s.id, scene_index: s.scene_index, seconds: s.seconds }).collect(),
            })
            .collect();
        Ok(Response::new(pb::OneClickChoice { items }))
    }

    #[tracing::instrument(skip_all, fields(template_id = req.get_ref().template_id))]
    async fn one_click_assemble(&self, req: Request<pb::OneClickAssembleRequest>) -> Result<Response<pb::OneClickAssembly>, Status> {
        let viewer = viewer(&req)?;
        let req = req.into_inner();
        let (task_id, placed) = self
            .store
            .one_click_assemble(&viewer, req.template_id, &req.material_ids, &req.picture_ids, &req.task_name)
            .await
            .map_err(to_status)?;
        let placed = placed
            .into_iter()
            .map(|p| pb::OneClickPlaced { held: p.held(), slot_id: p.slot_id, material_id: p.material_id, start: p.start, end: p.end, slot: p.slot })
            .collect();
        Ok(Response::new(pb::OneClickAssembly { task_id, placed }))
    }

    #[tracing::instrument(skip_all, fields(template_id = req.get_ref().template_id))]
    async fn template_fill(&self, req: Request<pb::FillTemplateRequest>) -> Result<Response<pb::SaveTaskReply>, Status> {
        let viewer = viewer(&req)?;
        let req = req.into_inner();
        let replaces: Vec<Replacement> = req.replaces.into_iter().map(|r| Replacement { id: r.id, content: r.replace_content }).collect();
        let task_id = self.store.fill_template(&viewer, req.template_id, &req.task_name, &replaces).await.map_err(to_status)?;
        Ok(Response::new(pb::SaveTaskReply { task_id, warnings: Vec::new() }))
    }

    #[tracing::instrument(skip_all, fields(task_id = req.get_ref().task_id))]
    async fn template_submit(&self, req: Request<pb::SubmitTemplateRequest>) -> Result<Response<pb::Template>, Status> {
        let viewer = viewer(&req)?;
        let req = req.into_inner();
        let kind = TemplateKind::parse(&req.kind).map_err(to_status)?;
        let size = (req.size_category_id > 0).then_some(req.size_category_id);
        let t = self.store.submit_template(&viewer, req.task_id, kind, &req.category_ids, size).await.map_err(to_status)?;
        Ok(Response::new(template_to_pb(t, true)))
    }

    #[tracing::instrument(skip_all)]
    async fn template_mine(&self, req: Request<pb::TemplateListRequest>) -> Result<Response<pb::TemplatePage>, Status> {
        let viewer = viewer(&req)?;
        let (num, size) = template_paging(req.into_inner().page);
        let (items, total) = self.store.my_templates(&viewer, num, size).await.map_err(to_status)?;
        Ok(Response::new(template_page(items, total)))
    }

    #[tracing::instrument(skip_all)]
    async fn template_check_list(&self, req: Request<pb::TemplateListRequest>) -> Result<Response<pb::TemplatePage>, Status> {
        let viewer = viewer(&req)?;
        viewer.require_manager().map_err(to_status)?;
        let req = req.into_inner();
        let state = match req.state.trim() {
            "" => AuditState::Pending,
            s => AuditState::parse(s).map_err(to_status)?,
        };
        let filter = template_filter(&req)?;
        let (num, size) = template_paging(req.page);
        let (items, total) = self.store.templates_to_check(&viewer, state, &filter, num, size).await.map_err(to_status)?;
        Ok(Response::new(template_page(items, total)))
    }

    #[tracing::instrument(skip_all, fields(template_id = req.get_ref().template_id))]
    async fn template_audit(&self, req: Request<pb::AuditTemplateRequest>) -> Result<Response<pb::Template>, Status> {
        let viewer = viewer(&req)?;
        let req = req.into_inner();
        let t = self.store.audit_template(&viewer, req.template_id, req.approve, &req.reason).await.map_err(to_status)?;
        Ok(Response::new(template_to_pb(t, true)))
    }

    #[tracing::instrument(skip_all, fields(template_id = req.get_ref().template_id))]
    async fn template_categories(&self, req: Request<pb::TemplateCategoriesRequest>) -> Result<Response<pb::Template>, Status> {
        let viewer = viewer(&req)?;
        let req = req.into_inner();
        let size = (req.size_category_id > 0).then_some(req.size_category_id);
        let t = self.store.set_template_categories(&viewer, req.template_id, &req.category_ids, size).await.map_err(to_status)?;
        Ok(Response::new(template_to_pb(t, true)))
    }

    #[tracing::instrument(skip_all)]
    async fn template_set_push(&self, req: Request<pb::SetPushRequest>) -> Result<Response<pb::SetPushReply>, Status> {
        let viewer = viewer(&req)?;
        let req = req.into_inner();
        if req.template_ids.is_empty() {
            return Err(to_status(TaskError::Invalid("ids: no template id given".into())));
        }
        let ids = self.store.set_template_push(&viewer, &req.template_ids, req.push).await.map_err(to_status)?;
        Ok(Response::new(pb::SetPushReply { template_ids: ids }))
    }

    #[tracing::instrument(skip_all)]
    async fn category_use(&self, req: Request<pb::CategoryUseRequest>) -> Result<Response<pb::CategoryUseReply>, Status> {
        let caller = identity::caller(&req)?;
        caller.require_service().map_err(to_status)?;
        let ids = req.into_inner().category_ids;
        let (templates, names) = self.store.category_use(&caller.tenant, &ids, CATEGORY_USE_NAMES).await.map_err(to_status)?;
        Ok(Response::new(pb::CategoryUseReply { templates, names }))
    }

    #[tracing::instrument(skip_all, fields(template_id = req.get_ref().template_id))]
    async fn card_sheet(&self, req: Request<pb::CardSheetRequest>) -> Result<Response<pb::CardSheetReply>, Status> {
        let viewer = viewer(&req)?;
        let req = req.into_inner();
        let (_, _, fields) = self.store.card_template(&viewer, req.template_id).await.map_err(to_status)?;
        let (content, file_name, content_type) = match req.format.as_str() {
            "csv" => (crate::template::header_csv(&fields), "business-card.csv", "text/csv; charset=utf-8"),
            "xlsx" => (
                crate::template::header_xlsx(&fields),
                "business-card.xlsx",
                "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet",
            ),
            other => return Err(to_status(TaskError::Invalid(format!("format: `{other}` is neither csv nor xlsx")))),
        };
        Ok(Response::new(pb::CardSheetReply {
            content: content.map_err(to_status)?,
            file_name: file_name.to_owned(),
            content_type: content_type.to_owned(),
        }))
    }

    #[tracing::instrument(skip_all, fields(template_id = req.get_ref().template_id))]
    async fn card_batch(&self, req: Request<pb::CardBatchRequest>) -> Result<Response<pb::CardBatchReply>, Status> {
        let viewer = viewer(&req)?;
        let req = req.into_inner();
        SheetFormat::of_name(&req.file_name).map_err(to_status)?;
        let report = self.store.card_batch(&viewer, req.template_id, &req.file_name, &req.content).await.map_err(to_status)?;
        let mut made = Vec::with_capacity(report.made.len());
        for (row, task_id, job_id) in report.made {
            let run = crate::domain::Run { job_id: job_id.clone(), status: TaskStatus::Wait };
            announce_queued(&self.events, &viewer.owner, task_id, &run).await;
            made.push(pb::CardMade { row, task_id, job_id });
        }
        let failed = report.failed.into_iter().map(|(row, reason)| pb::CardFailed { row, reason }).collect();
        Ok(Response::new(pb::CardBatchReply { made, failed }))
    }

    #[tracing::instrument(skip_all, fields(template_id = req.get_ref().template_id))]
    async fn card_one(&self, req: Request<pb::CardOneRequest>) -> Result<Response<pb::SaveTaskReply>, Status> {
        let viewer = viewer(&req)?;
        let req = req.into_inner();
        let values = req.fields.into_iter().collect();
        let (task_id, run) = self.store.card(&viewer, req.template_id, &values).await.map_err(to_status)?;
        announce_queued(&self.events, &viewer.owner, task_id, &run).await;
        Ok(Response::new(pb::SaveTaskReply { task_id, warnings: Vec::new() }))
    }
}

/// The status of a failed save: a stale one carries its reason in the `x-reason` metadata, which the
/// gateway answers as `data.reason`, so the editor can offer to load the newer version or keep its own.
fn save_refusal(e: TaskError) -> Status {
    let reason = e.reason();
    let mut status = to_status(e);
    if let Some(value) = reason.and_then(|r| r.parse().ok()) {
        status.metadata_mut().insert(REASON_METADATA, value);
    }
    status
}
