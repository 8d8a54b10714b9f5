//! The maintenance area's farm (issue 29, administrators of the caller's tenant; the task service
//! decides): `GET /maintain/task/list`, `GET /maintain/task/attempts/{id}`,
//! `POST /maintain/task/requeue`, `GET /maintain/audit`, `GET /maintain/farm`,
//! `POST /maintain/farm/maintenance` and `GET /maintain/migrations`.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::common::Page;
use reelforge_proto::task as pb;
use serde::{Deserialize, Serialize};

use crate::{ApiError, AppState, body, caller, envelope};

pub(crate) fn time(ms: i64) -> String {
    if ms <= 0 {
        return String::new();
    }
    chrono::DateTime::from_timestamp_millis(ms)
        .map(|t| t.with_timezone(&chrono::Local).format("%Y-%m-%d %H:%M:%S").to_string())
        .unwrap_or_default()
}

/// Query of the task search; each filter left out matches every task.
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct SearchQuery {
    /// One task id.
    task_id: Option<String>,
    /// The owner's user id.
    #[serde(default)]
    user_id: String,
    /// A task status code (-1 new, 0 waiting, 1 rendering, 9 failed, 10 done, 11 cancelled).
    status: Option<String>,
    #[serde(default)]
    page_num: u32,
    #[serde(default)]
    page_size: u32,
}

/// A task as the task page lists it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AdminTaskDto {
    id: i64,
    task_name: String,
    user_id: String,
    status: i32,
    reason: String,
    tool_type: String,
    create_time: String,
    update_time: String,
}

/// A page of tasks.
#[derive(Serialize, utoipa::ToSchema)]
pub struct AdminTaskList {
    total: u64,
    list: Vec<AdminTaskDto>,
}

/// Reads an optional number of the query, naming the field when it is not one.
fn number(name: &str, value: Option<&str>) -> Result<Option<i64>, ApiError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(None),
        Some(v) => v.parse().map(Some).map_err(|_| ApiError::BadRequest(format!("{name}: `{v}` is not a number"))),
    }
}

/// The tenant's tasks by id, owner or status, newest change first.
#[utoipa::path(get, path = "/diyvrbt/maintain/task/list", params(SearchQuery), responses((status = 200, body = AdminTaskList)))]
pub async fn list(req: HttpRequest, q: web::Query<SearchQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let q = q.into_inner();
    let task_id = number("taskId", q.task_id.as_deref())?.unwrap_or(0);
    let status = number("status", q.status.as_deref())?
        .map(|s| i32::try_from(s).map_err(|_| ApiError::BadRequest(format!("status: `{s}` is out of range"))))
        .transpose()?;
    let caller = caller::caller(&req, &state).await?;
    let r = pb::AdminSearchRequest {
        task_id,
        user_id: q.user_id.trim().to_owned(),
        status,
        page: Some(Page { page_num: q.page_num, page_size: q.page_size }),
    };
    let r = state.clients.task.clone().admin_search(caller.request(r)?).await?.into_inner();
    let list = r
        .items
        .into_iter()
        .filter_map(|t| {
            let task = t.task?;
            Some(AdminTaskDto {
                id: task.id,
                task_name: task.task_name,
                user_id: t.user_id,
                status: task.status,
                reason: task.reason,
                tool_type: task.tool_type,
                create_time: time(task.created_ms),
                update_time: time(task.updated_ms),
            })
        })
        .collect();
    Ok(envelope::ok(AdminTaskList { total: r.total, list }))
}

/// One render attempt.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AttemptDto {
    job_id: String,
    attempt: u32,
    /// queued, running, done, failed, cancelled or retried.
    state: String,
    queued_time: String,
    started_time: String,
    ended_time: String,
    error: String,
}

/// The render attempts of the tenant's task `id`, newest first.
#[utoipa::path(get, path = "/diyvrbt/maintain/task/attempts/{id}", params(("id" = i64, Path)), responses((status = 200, body = [AttemptDto])))]
pub async fn attempts(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let task_id = number("id", Some(id.as_str()))?.unwrap_or(0);
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().admin_attempts(caller.request(pb::GetTaskRequest { task_id })?).await?.into_inner();
    let list: Vec<AttemptDto> = r
        .items
        .into_iter()
        .map(|a| AttemptDto {
            job_id: a.job_id,
            attempt: a.attempt,
            state: a.state,
            queued_time: time(a.queued_ms),
            started_time: time(a.started_ms),
            ended_time: time(a.ended_ms),
            error: a.error,
        })
        .collect();
    Ok(envelope::ok(list))
}

/// Body of the requeue.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RequeueBody {
    task_id: i64,
}

/// The job of a requeued render.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Requeued {
    job_id: String,
}

/// Renders the tenant's failed task again as a new job through the outbox; a task that is not
/// failed is refused, naming its state. Audited on the task.
#[utoipa::path(post, path = "/diyvrbt/maintain/task/requeue", request_body = RequeueBody, responses((status = 200, body = Requeued)))]
pub async fn requeue(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: RequeueBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().admin_requeue(caller.request(pb::GetTaskRequest { task_id: b.task_id })?).await?.into_inner();
    Ok(envelope::ok_with(Requeued { job_id: r.job_id }, "已重新排队"))
}

/// Query of the audit trail.
#[derive(Deserialize, utoipa::IntoParams)]
pub struct AuditQuery {
    /// The item as `kind:id` (`task:17`, `material:…`, `farm:maintenance`); absent: every item.
    #[serde(default)]
    item: String,
}

/// One recorded administrator action.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditDto {
    actor: String,
    action: String,
    item: String,
    before: String,
    after: String,
    time: String,
}

/// The tenant's audit trail of one item (or all), newest first.
#[utoipa::path(get, path = "/diyvrbt/maintain/audit", params(AuditQuery), responses((status = 200, body = [AuditDto])))]
pub async fn audit(req: HttpRequest, q: web::Query<AuditQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().audit_trail(caller.request(pb::AuditTrailRequest { item: q.into_inner().item })?).await?.into_inner();
    Ok(envelope::ok(audit_list(r)))
}

pub(crate) fn audit_list(r: pb::AuditList) -> Vec<AuditDto> {
    r.items
        .into_iter()
        .map(|e| AuditDto { time: time(e.at_ms), actor: e.actor, action: e.action, item: e.item, before: e.before, after: e.after })
        .collect()
}

/// Records an administrator's action in the tenant's audit trail; a failure is logged, not
/// answered: the action itself is done.
pub(crate) async fn record(state: &AppState, caller: &caller::Caller, action: &str, item: String, before: String, after: String) {
    let entry = pb::AuditEntry { action: action.to_owned(), item, before, after, ..Default::default() };
    let Ok(request) = caller.request(entry) else { return };
    if let Err(e) = state.clients.task.clone().audit_record(request).await {
        tracing::warn!(action, error = %e, "administrator action not audited");
    }
}

/// The tenant's render farm as the upgrade page shows it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FarmDto {
    /// On: new renders and tool runs are refused; running ones finish.
    maintenance: bool,
    changed_by: String,
    changed_time: String,
    /// Jobs waiting for a worker.
    queued: u64,
    /// Jobs a worker renders.
    running: u64,
    /// The running build: crate version and, when embedded at build, the git commit.
    version: String,
}

fn farm(r: pb::FarmReply) -> FarmDto {
    let commit = option_env!("REELFORGE_GIT_COMMIT").unwrap_or_default();
    let version = if commit.is_empty() { env!("CARGO_PKG_VERSION").to_owned() } else { format!("{} ({commit})", env!("CARGO_PKG_VERSION")) };
    FarmDto {
        maintenance: r.maintenance,
        changed_by: r.changed_by,
        changed_time: time(r.changed_ms),
        queued: r.queued,
        running: r.running,
        version,
    }
}

/// The tenant's farm: the maintenance switch and the jobs still queued and running.
#[utoipa::path(get, path = "/diyvrbt/maintain/farm", responses((status = 200, body = FarmDto)))]
pub async fn farm_state(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().farm_state(caller.request(pb::FarmRequest::default())?).await?.into_inner();
    Ok(envelope::ok(farm(r)))
}

/// One database migration of a service, as the upgrade page lists it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MigrationDto {
    /// The service (auth, material, category, favourite, font, task, ring).
    service: String,
    name: String,
    /// Whether the database has it.
    applied: bool,
    /// When the database applied it; empty while pending.
    applied_time: String,
    /// False: the database has it from a newer version, which this one does not carry.
    known: bool,
}

/// Every service's database migrations and where the database stands with each, in the order
/// each service applies them (the deployment's, shared by its tenants; read only).
#[utoipa::path(get, path = "/diyvrbt/maintain/migrations", responses((status = 200, body = [MigrationDto])))]
pub async fn migrations(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().migrations(caller.request(pb::FarmRequest::default())?).await?.into_inner();
    let items: Vec<MigrationDto> = r
        .items
        .into_iter()
        .map(|m| MigrationDto {
            service: m.service,
            name: m.name,
            applied: m.applied_ms > 0,
            applied_time: time(m.applied_ms),
            known: m.known,
        })
        .collect();
    Ok(envelope::ok(items))
}

/// Body of the maintenance switch.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct MaintenanceBody {
    /// On refuses new renders and tool runs (running ones finish); off resumes.
    maintenance: bool,
}

/// Switches the tenant's maintenance mode (stored, audited).
#[utoipa::path(post, path = "/diyvrbt/maintain/farm/maintenance", request_body = MaintenanceBody, responses((status = 200, body = FarmDto)))]
pub async fn set_maintenance(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: MaintenanceBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().set_maintenance(caller.request(pb::FarmRequest { maintenance: b.maintenance })?).await?.into_inner();
    Ok(envelope::ok(farm(r)))
}

/// A run-time setting of the tenant with its range.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SettingDto {
    key: String,
    value: String,
    /// switch or number.
    kind: String,
    min: i64,
    max: i64,
    default_value: String,
}

fn setting(s: pb::Setting) -> SettingDto {
    SettingDto { key: s.key, value: s.value, kind: s.kind, min: s.min, max: s.max, default_value: s.default_value }
}

/// The tenant's run-time settings (toolbox switch and per-user limit), each with its range.
#[utoipa::path(get, path = "/diyvrbt/maintain/config", responses((status = 200, body = [SettingDto])))]
pub async fn settings(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().settings(caller.request(pb::FarmRequest::default())?).await?.into_inner();
    Ok(envelope::ok(r.items.into_iter().map(setting).collect::<Vec<_>>()))
}

/// Body of a setting change.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct SettingBody {
    key: String,
    /// The new value (`true`/`false`, or a whole number within the range), as text or JSON.
    #[schema(value_type = String)]
    value: serde_json::Value,
}

/// Changes one run-time setting of the tenant; a value out of range is refused, naming the key.
/// Audited; the calls that read it see it at once.
#[utoipa::path(post, path = "/diyvrbt/maintain/config", request_body = SettingBody, responses((status = 200, body = SettingDto)))]
pub async fn set_setting(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: SettingBody = body::parse(&req, &bytes)?;
    let value = match b.value {
        serde_json::Value::String(s) => s,
        other => other.to_string(),
    };
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.task.clone().set_setting(caller.request(pb::SetSettingRequest { key: b.key, value })?).await?.into_inner();
    Ok(envelope::ok_with(setting(r), "修改成功"))
}
