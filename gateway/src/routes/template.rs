//! Templates (issue 14): the tenant's approved templates with filters, detail, slots, filling a
//! template into a new task, submitting, the manager's audit flow, and business cards (header
//! sheet, batch from a sheet, one card). Role rules are the task service's; this maps the wire.

use actix_web::{HttpRequest, HttpResponse, web};
use futures::StreamExt;
use reelforge_proto::task as pb;
use serde::{Deserialize, Serialize};

use crate::caller::Caller;
use crate::media::{Preview, PreviewOf};
use crate::{ApiError, AppState, body, caller, envelope, upload};

/// Largest card sheet the gateway reads, bytes (the task service refuses a larger one too).
const SHEET_LIMIT: usize = 2 * 1024 * 1024;

/// Reads a number sent as a JSON number or a string.
pub(crate) fn lenient_i64<'de, D: serde::Deserializer<'de>>(d: D) -> Result<i64, D::Error> {
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::Number(n) => n.as_i64().ok_or_else(|| serde::de::Error::custom("not an integer")),
        serde_json::Value::String(s) if s.trim().is_empty() => Ok(0),
        serde_json::Value::String(s) => s.trim().parse().map_err(|_| serde::de::Error::custom(format!("`{s}` is not a number"))),
        serde_json::Value::Null => Ok(0),
        other => Err(serde::de::Error::custom(format!("`{other}` is not a number"))),
    }
}

/// Reads ids sent as an array (of numbers or strings) or a comma-joined string.
fn lenient_ids<'de, D: serde::Deserializer<'de>>(d: D) -> Result<Vec<i64>, D::Error> {
    let parse = |s: &str| s.trim().parse::<i64>().map_err(|_| serde::de::Error::custom(format!("`{s}` is not an id")));
    match serde_json::Value::deserialize(d)? {
        serde_json::Value::Array(items) => items
            .into_iter()
            .map(|v| match v {
                serde_json::Value::Number(n) => n.as_i64().ok_or_else(|| serde::de::Error::custom("not an id")),
                serde_json::Value::String(s) => parse(&s),
                other => Err(serde::de::Error::custom(format!("`{other}` is not an id"))),
            })
            .collect(),
        serde_json::Value::String(s) => s.split(',').filter(|p| !p.trim().is_empty()).map(parse).collect(),
        serde_json::Value::Number(n) => Ok(n.as_i64().into_iter().collect()),
        _ => Ok(Vec::new()),
    }
}

/// Reads a flag sent as a boolean, a number or a string.
fn lenient_bool<'de, D: serde::Deserializer<'de>>(d: D) -> Result<bool, D::Error> {
    Ok(match serde_json::Value::deserialize(d)? {
        serde_json::Value::Bool(b) => b,
        serde_json::Value::Number(n) => n.as_i64().unwrap_or(0) != 0,
        serde_json::Value::String(s) => matches!(s.trim(), "true" | "1" | "on"),
        _ => false,
    })
}

fn id_param(name: &str, value: &str) -> Result<i64, ApiError> {
    value.trim().parse::<i64>().map_err(|_| ApiError::BadRequest(format!("{name}: `{value}` is not a template id")))
}

/// A template as the browser reads it (the contract's Summary).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TemplateDto {
    id: i64,
    task_name: String,
    kind: String,
    used_for: String,
    size_category_id: i32,
    category_ids: Vec<i64>,
    /// '' until its preview exists.
    cover_url: String,
    /// '' until its preview render exists.
    video_url: String,
    /// Seconds.
    duration: f64,
    replace_word: i32,
    replace_picture: i32,
    replace_video: i32,
    audit_state: String,
    reason: String,
    push: bool,
    creator_id: String,
    /// The task it was offered from, shown to its creator only (its ring orders are the
    /// template's ring state on /mytemring and /channel-temring).
    #[serde(skip_serializing_if = "Option::is_none")]
    task_id: Option<i64>,
    create_time: String,
    update_time: String,
    /// The document (detail only).
    #[serde(skip_serializing_if = "Option::is_none")]
    video_create_info: Option<String>,
    /// The IVVR entries (detail only).
    #[serde(skip_serializing_if = "Option::is_none")]
    ivvr_info: Option<Vec<IvvrDto>>,
}

/// One IVVR entry.
#[derive(Serialize, utoipa::ToSchema)]
pub struct IvvrDto {
    pic: String,
    video: String,
}

/// Signs the preview addresses of the templates answered to `caller` (who may see them: the task
/// service answered them to this caller).
pub(crate) struct Previews<'a> {
    media: Option<&'a crate::media::Media>,
    caller: &'a Caller,
}

impl<'a> Previews<'a> {
    pub(crate) fn of(state: &'a AppState, caller: &'a Caller) -> Self {
        Self { media: state.media.as_ref(), caller }
    }

    pub(crate) fn urls(&self, t: &pb::Template) -> Result<(String, String), ApiError> {
        self.urls_of(PreviewOf::Template, t.id, &t.video_key, &t.cover_key)
    }

    /// The signed cover and video addresses of what `of` `id` shows ("" for a part it has not).
    pub(crate) fn urls_of(&self, of: PreviewOf, id: i64, video_key: &str, cover_key: &str) -> Result<(String, String), ApiError> {
        let Some(media) = self.media.filter(|_| !video_key.is_empty() || !cover_key.is_empty()) else {
            return Ok((String::new(), String::new()));
        };
        let user = self.caller.user()?.user_id.clone();
        let preview = Preview { of, id, video: video_key.to_owned(), cover: cover_key.to_owned() };
        let ticket = media.preview_ticket(&self.caller.tenant, &user, preview)?;
        let route = match of {
            PreviewOf::Template => "template",
            PreviewOf::ContestEntry => "contest",
            PreviewOf::ServiceSample => "market",
            PreviewOf::EnterpriseShare => "enterprise",
        };
        let url = |key: &str, part: &str| {
            if key.is_empty() { String::new() } else { format!("{}/{route}/media/{id}/{part}?ticket={ticket}", crate::BASE) }
        };
        Ok((url(cover_key, "cover"), url(video_key, "video")))
    }
}

pub(crate) fn template_dto(t: pb::Template, detail: bool, previews: &Previews<'_>) -> Result<TemplateDto, ApiError> {
    let (cover_url, video_url) = previews.urls(&t)?;
    let mine = previews.caller.user().is_ok_and(|u| u.user_id == t.creator_id);
    let task_id = (mine && t.task_id > 0).then_some(t.task_id);
    Ok(TemplateDto {
        cover_url,
        video_url,
        id: t.id,
        task_name: t.task_name,
        kind: t.kind,
        used_for: t.used_for,
        size_category_id: t.size_category_id,
        category_ids: t.category_ids,
        duration: t.duration,
        replace_word: t.replace_word,
        replace_picture: t.replace_picture,
        replace_video: t.replace_video,
        audit_state: t.audit_state,
        reason: t.reason,
        push: t.push,
        creator_id: t.creator_id,
        task_id,
        create_time: t.create_time,
        update_time: t.update_time,
        video_create_info: detail.then_some(t.task_info),
        ivvr_info: detail.then(|| t.ivvr_info.into_iter().map(|i| IvvrDto { pic: i.pic, video: i.video }).collect()),
    })
}

/// One page of templates.
#[derive(Serialize, utoipa::ToSchema)]
pub struct TemplatePage {
    total: u64,
    list: Vec<TemplateDto>,
}

fn page_dto(p: pb::TemplatePage, previews: &Previews<'_>) -> Result<TemplatePage, ApiError> {
    Ok(TemplatePage { total: p.total, list: p.items.into_iter().map(|t| template_dto(t, false, previews)).collect::<Result<_, _>>()? })
}

/// Query of the template lists: 1-based page (default 1 of 12); `kind`; `sizeCategoryId`
/// comma-joined; `categoryId` one of the template's categories; `name` part of the name;
/// `orderType` 1 last changed first, 2 oldest first; `state` (check list) pending, approved or
/// rejected.
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct ListQuery {
    page_num: Option<String>,
    page_size: Option<String>,
    kind: Option<String>,
    size_category_id: Option<String>,
    category_id: Option<String>,
    name: Option<String>,
    order_type: Option<String>,
    state: Option<String>,
}

fn positive(name: &str, value: Option<&str>, default: u32) -> Result<u32, ApiError> {
    match value.map(str::trim).filter(|v| !v.is_empty()) {
        None => Ok(default),
        Some(v) => match v.parse::<u32>() {
            Ok(n) if n > 0 => Ok(n),
            _ => Err(ApiError::BadRequest(format!("{name}: `{v}` is not a positive number"))),
        },
    }
}

fn list_request(q: &ListQuery) -> Result<pb::TemplateListRequest, ApiError> {
    let sizes = q
        .size_category_id
        .as_deref()
        .unwrap_or_default()
        .split(',')
        .map(str::trim)
        .filter(|p| !p.is_empty())
        .map(|p| p.parse::<i32>().map_err(|_| ApiError::BadRequest(format!("sizeCategoryId: `{p}` is not a number"))))
        .collect::<Result<Vec<_>, _>>()?;
    let category_id = match q.category_id.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        None => 0,
        Some(v) => v.parse::<i64>().map_err(|_| ApiError::BadRequest(format!("categoryId: `{v}` is not a number")))?,
    };
    let order_type = match q.order_type.as_deref().map(str::trim).filter(|v| !v.is_empty()) {
        None => 1,
        Some(v) => v.parse::<i32>().map_err(|_| ApiError::BadRequest(format!("orderType: `{v}` is not a number")))?,
    };
    Ok(pb::TemplateListRequest {
        page: Some(reelforge_proto::common::Page {
            page_num: positive("pageNum", q.page_num.as_deref(), 1)?,
            page_size: positive("pageSize", q.page_size.as_deref(), 12)?.min(100),
        }),
        kind: q.kind.clone().unwrap_or_default(),
        size_category_ids: sizes,
        category_id,
        name: q.name.clone().unwrap_or_default(),
        order_type,
        state: q.state.clone().unwrap_or_default(),
    })
}

/// The tenant's approved templates (the starter set is seeded on the tenant's first list).
#[utoipa::path(get, path = "/diyvrbt/template/list", params(ListQuery), responses((status = 200, body = TemplatePage)))]
pub async fn list(req: HttpRequest, q: web::Query<ListQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let list = list_request(&q)?;
    let caller = caller::caller(&req, &state).await?;
    let p = state.clients.task.clone().template_list(caller.request(list)?).await?.into_inner();
    Ok(envelope::ok(page_dto(p, &Previews::of(&state, &caller))?))
}

/// The caller's submitted templates, any state.
#[utoipa::path(get, path = "/diyvrbt/template/mine", params(ListQuery), responses((status = 200, body = TemplatePage)))]
pub async fn mine(req: HttpRequest, q: web::Query<ListQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let list = list_request(&q)?;
    let caller = caller::caller(&req, &state).await?;
    let p = state.clients.task.clone().template_mine(caller.request(list)?).await?.into_inner();
    Ok(envelope::ok(page_dto(p, &Previews::of(&state, &caller))?))
}

/// TEMPLATE_MANAGER: the tenant's templates in one audit state (default pending).
#[utoipa::path(get, path = "/diyvrbt/template/check", params(ListQuery), responses((status = 200, body = TemplatePage)))]
pub async fn check_list(req: HttpRequest, q: web::Query<ListQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let list = list_request(&q)?;
    let caller = caller::caller(&req, &state).await?;
    let p = state.clients.task.clone().template_check_list(caller.request(list)?).await?.into_inner();
    Ok(envelope::ok(page_dto(p, &Previews::of(&state, &caller))?))
}

async fn detail(req: &HttpRequest, state: &AppState, id: &str, check: bool) -> Result<HttpResponse, ApiError> {
    let template_id = id_param("id", id)?;
    let caller = caller::caller(req, state).await?;
    let t = state.clients.task.clone().template_get(caller.request(pb::TemplateIdRequest { template_id, check })?).await?.into_inner();
    Ok(envelope::ok(template_dto(t, true, &Previews::of(state, &caller))?))
}

/// One template: approved, the caller's own, or any of the tenant's for a TEMPLATE_MANAGER.
#[utoipa::path(get, path = "/diyvrbt/template/{id}", responses((status = 200, body = TemplateDto)))]
pub async fn get(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    detail(&req, &state, &id, false).await
}

/// TEMPLATE_MANAGER: one template of the tenant, any state.
#[utoipa::path(get, path = "/diyvrbt/template/check/{id}", responses((status = 200, body = TemplateDto)))]
pub async fn check_get(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    detail(&req, &state, &id, true).await
}

/// Query of a template's preview file: the ticket of its signed address.
#[derive(Deserialize, utoipa::IntoParams)]
pub struct PreviewQuery {
    #[serde(default)]
    pub(crate) ticket: String,
}

/// A template's preview video or cover (`part` video or cover), by the signed address a template
/// answer carries (`coverUrl`, `videoUrl`): the ticket names the template and the keys the task
/// service answered to a viewer allowed to see it; ranges answer 206.
#[utoipa::path(get, path = "/diyvrbt/template/media/{id}/{part}", params(PreviewQuery), responses((status = 200, body = Vec<u8>), (status = 206, description = "the requested byte range")))]
pub async fn preview(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    q: web::Query<PreviewQuery>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let (id, part) = path.into_inner();
    serve_preview(&req, &state, PreviewOf::Template, &id, &part, &q.ticket).await
}

/// Answers the video or cover (`part`) of what `of` `id` shows, by the ticket its signed address
/// carries (`Previews::urls_of`); ranges answer 206.
pub(crate) async fn serve_preview(req: &HttpRequest, state: &AppState, of: PreviewOf, id: &str, part: &str, ticket: &str) -> Result<HttpResponse, ApiError> {
    let id = id.trim().parse::<i64>().map_err(|_| ApiError::BadRequest(format!("id: `{id}` is not a {} id", of.name())))?;
    if ticket.is_empty() {
        return Err(ApiError::BadRequest("ticket: required (the signed address an answer carries)".into()));
    }
    let media = state.media.as_ref().ok_or(ApiError::NotAvailable("previews from this gateway"))?;
    let preview = media.preview(ticket, &caller::tenant(req)?, of, id)?;
    let (key, content_type) = match part {
        "video" => (preview.video, "video/mp4"),
        "cover" => (preview.cover, "image/jpeg"),
        other => return Err(ApiError::BadRequest(format!("part: `{other}` is not video or cover"))),
    };
    if key.is_empty() {
        return Err(ApiError::BadRequest(format!("{} {id} has no {part}", of.name())));
    }
    media.serve(req, &key, content_type, None).await
}

/// A replaceable layer of a template.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SlotDto {
    id: String,
    scene_index: u32,
    /// text, picture or video.
    material_type: String,
    content: String,
    /// 0: no limit.
    max_length: i64,
    width: f64,
    height: f64,
}

/// The slots of a template (its canModify = 1 layers).
#[utoipa::path(get, path = "/diyvrbt/template/slots/{id}", responses((status = 200, body = Vec<SlotDto>)))]
pub async fn slots(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let template_id = id_param("id", &id)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state
        .clients
        .task
        .clone()
        .template_slots(caller.request(pb::TemplateIdRequest { template_id, check: false })?)
        .await?
        .into_inner();
    let list: Vec<SlotDto> = r
        .items
        .into_iter()
        .map(|s| SlotDto {
            id: s.id,
            scene_index: s.scene_index,
            material_type: s.material_type,
            content: s.content,
            max_length: s.max_length,
            width: s.width,
            height: s.height,
        })
        .collect();
    Ok(envelope::ok(list))
}

/// One replacement of a fill.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReplaceBody {
    id: serde_json::Value,
    #[serde(default)]
    replace_content: String,
}

/// Body of fill.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FillBody {
    #[serde(deserialize_with = "lenient_i64")]
    template_id: i64,
    #[serde(default)]
    name: String,
    #[serde(default)]
    replaces: Vec<ReplaceBody>,
}

/// Answer of fill and of one card: the new task.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TaskIdDto {
    task_id: i64,
}

fn slot_id(v: &serde_json::Value) -> String {
    match v {
        serde_json::Value::String(s) => s.clone(),
        other => other.to_string(),
    }
}

/// Makes a new task of the caller from a template with its slots replaced.
#[utoipa::path(post, path = "/diyvrbt/template/fill", request_body = FillBody, responses((status = 200, body = TaskIdDto)))]
pub async fn fill(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: FillBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let replaces = b.replaces.iter().map(|r| pb::Replace { id: slot_id(&r.id), replace_content: r.replace_content.clone() }).collect();
    let r = state
        .clients
        .task
        .clone()
        .template_fill(caller.request(pb::FillTemplateRequest { template_id: b.template_id, task_name: b.name, replaces })?)
        .await?
        .into_inner();
    Ok(envelope::ok(TaskIdDto { task_id: r.task_id }))
}

/// Body of submit.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SubmitBody {
    #[serde(deserialize_with = "lenient_i64")]
    task_id: i64,
    kind: String,
    #[serde(default, deserialize_with = "lenient_ids")]
    category_ids: Vec<i64>,
    #[serde(default, deserialize_with = "lenient_i64")]
    size_category_id: i64,
}

fn size_of(v: i64) -> Result<i32, ApiError> {
    i32::try_from(v).map_err(|_| ApiError::BadRequest("sizeCategoryId: out of range".into()))
}

/// Offers one of the caller's saved tasks as a template (pending audit).
#[utoipa::path(post, path = "/diyvrbt/template/submit", request_body = SubmitBody, responses((status = 200, body = TemplateDto)))]
pub async fn submit(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: SubmitBody = body::parse(&req, &bytes)?;
    let size_category_id = size_of(b.size_category_id)?;
    let caller = caller::caller(&req, &state).await?;
    let t = state
        .clients
        .task
        .clone()
        .template_submit(caller.request(pb::SubmitTemplateRequest { task_id: b.task_id, kind: b.kind, category_ids: b.category_ids, size_category_id })?)
        .await?
        .into_inner();
    Ok(envelope::ok(template_dto(t, true, &Previews::of(&state, &caller))?))
}

/// Body of audit.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct AuditBody {
    #[serde(deserialize_with = "lenient_i64")]
    id: i64,
    #[serde(deserialize_with = "lenient_bool")]
    approve: bool,
    #[serde(default)]
    reason: String,
}

/// TEMPLATE_MANAGER: approves or rejects (with a reason) a template.
#[utoipa::path(post, path = "/diyvrbt/template/audit", request_body = AuditBody, responses((status = 200, body = TemplateDto)))]
pub async fn audit(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: AuditBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let t = state
        .clients
        .task
        .clone()
        .template_audit(caller.request(pb::AuditTemplateRequest { template_id: b.id, approve: b.approve, reason: b.reason })?)
        .await?
        .into_inner();
    Ok(envelope::ok(template_dto(t, true, &Previews::of(&state, &caller))?))
}

/// Body of categories.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CategoriesBody {
    #[serde(deserialize_with = "lenient_i64")]
    id: i64,
    #[serde(default, deserialize_with = "lenient_ids")]
    category_ids: Vec<i64>,
    #[serde(default, deserialize_with = "lenient_i64")]
    size_category_id: i64,
}

/// TEMPLATE_MANAGER: sets a template's categories (and size).
#[utoipa::path(post, path = "/diyvrbt/template/categories", request_body = CategoriesBody, responses((status = 200, body = TemplateDto)))]
pub async fn categories(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: CategoriesBody = body::parse(&req, &bytes)?;
    let size_category_id = size_of(b.size_category_id)?;
    let caller = caller::caller(&req, &state).await?;
    let t = state
        .clients
        .task
        .clone()
        .template_categories(caller.request(pb::TemplateCategoriesRequest { template_id: b.id, category_ids: b.category_ids, size_category_id })?)
        .await?
        .into_inner();
    Ok(envelope::ok(template_dto(t, true, &Previews::of(&state, &caller))?))
}

/// Body of setPush.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PushBody {
    #[serde(deserialize_with = "lenient_ids")]
    ids: Vec<i64>,
    #[serde(deserialize_with = "lenient_bool")]
    push: bool,
}

/// TEMPLATE_MANAGER: pushes templates or stops; answers the ids.
#[utoipa::path(post, path = "/diyvrbt/template/setPush", request_body = PushBody, responses((status = 200, body = Vec<i64>)))]
pub async fn set_push(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: PushBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let r = state
        .clients
        .task
        .clone()
        .template_set_push(caller.request(pb::SetPushRequest { template_ids: b.ids, push: b.push })?)
        .await?
        .into_inner();
    Ok(envelope::ok(r.template_ids))
}

/// Query of the header sheets.
#[derive(Deserialize, utoipa::IntoParams)]
#[serde(rename_all = "camelCase")]
pub struct SheetQuery {
    template_id: String,
}

async fn sheet(req: &HttpRequest, state: &AppState, q: &SheetQuery, format: &str) -> Result<HttpResponse, ApiError> {
    let template_id = id_param("templateId", &q.template_id)?;
    let caller = caller::caller(req, state).await?;
    let r = state
        .clients
        .task
        .clone()
        .card_sheet(caller.request(pb::CardSheetRequest { template_id, format: format.to_owned() })?)
        .await?
        .into_inner();
    Ok(HttpResponse::Ok()
        .content_type(r.content_type)
        .insert_header(("content-disposition", format!("attachment; filename=\"{}\"", r.file_name)))
        .body(r.content))
}

/// The header sheet of a business-card template as CSV: one row of its card field labels.
#[utoipa::path(get, path = "/diyvrbt/business/template.csv", params(SheetQuery), responses((status = 200, content_type = "text/csv")))]
pub async fn sheet_csv(req: HttpRequest, q: web::Query<SheetQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    sheet(&req, &state, &q, "csv").await
}

/// The header sheet of a business-card template as an .xlsx workbook.
#[utoipa::path(get, path = "/diyvrbt/business/template.xlsx", params(SheetQuery), responses((status = 200, content_type = "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet")))]
pub async fn sheet_xlsx(req: HttpRequest, q: web::Query<SheetQuery>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    sheet(&req, &state, &q, "xlsx").await
}

/// A made card of a batch.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CardMadeDto {
    row: u32,
    task_id: i64,
}

/// A row of a batch that made no card, and why.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CardFailedDto {
    row: u32,
    reason: String,
}

/// The report of a batch.
#[derive(Serialize, utoipa::ToSchema)]
pub struct CardReportDto {
    made: Vec<CardMadeDto>,
    failed: Vec<CardFailedDto>,
}

/// Reads a multipart field whole, refusing more than `limit` bytes.
async fn bytes_of(field: &mut actix_multipart::Field, limit: usize) -> Result<Vec<u8>, ApiError> {
    let mut out = Vec::new();
    while let Some(chunk) = field.next().await {
        let chunk = chunk.map_err(|e| ApiError::BadRequest(format!("file: {e}")))?;
        if out.len() + chunk.len() > limit {
            return Err(ApiError::BadRequest(format!("file: larger than {limit} bytes")));
        }
        out.extend_from_slice(&chunk);
    }
    Ok(out)
}

/// Business cards from a sheet: multipart `templateId` and `file` (.xlsx or .csv, header row of
/// card field labels); one new task and one render job per good row, a report line per bad one.
#[utoipa::path(post, path = "/diyvrbt/v2/business/runBusinessCardTasks", responses((status = 200, body = CardReportDto), (status = 413, description = "the announced body is larger than a sheet")))]
pub async fn run_cards(req: HttpRequest, payload: web::Payload, state: web::Data<AppState>) -> Result<HttpResponse, upload::UploadError> {
    upload::within(&req, SHEET_LIMIT as u64 + upload::FORM_SLACK)?;
    let caller = caller::caller(&req, &state).await?;
    let mut multipart = upload::form(&req, payload)?;
    let (mut template_id, mut file) = (None, None);
    let read = async {
        while let Some(field) = multipart.next().await {
            let mut field = field.map_err(|e| ApiError::BadRequest(format!("body: {e}")))?;
            match field.name().unwrap_or_default() {
                "templateId" => template_id = Some(id_param("templateId", &upload::text(&mut field).await?)?),
                "file" => {
                    let name = field.content_disposition().and_then(|d| d.get_filename()).unwrap_or_default().to_owned();
                    file = Some((name, bytes_of(&mut field, SHEET_LIMIT).await?));
                }
                _ => {
                    upload::text(&mut field).await?;
                }
            }
        }
        Ok::<(), ApiError>(())
    }
    .await;
    if let Err(e) = read {
        multipart.drain().await;
        return Err(e.into());
    }
    let template_id = template_id.ok_or_else(|| ApiError::BadRequest("templateId: required".into()))?;
    let (file_name, content) = file.ok_or_else(|| ApiError::BadRequest("file: no file sent".into()))?;
    let r = state
        .clients
        .task
        .clone()
        .card_batch(caller.request(pb::CardBatchRequest { template_id, file_name, content })?)
        .await
        .map_err(ApiError::Service)?
        .into_inner();
    Ok(envelope::ok(CardReportDto {
        made: r.made.into_iter().map(|m| CardMadeDto { row: m.row, task_id: m.task_id }).collect(),
        failed: r.failed.into_iter().map(|f| CardFailedDto { row: f.row, reason: f.reason }).collect(),
    }))
}

/// Body of one card: the values by card field kind code (`{"1": "张三", "4": "138…"}`).
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct OneCardBody {
    #[serde(deserialize_with = "lenient_i64")]
    template_id: i64,
    #[schema(value_type = Object)]
    fields: serde_json::Map<String, serde_json::Value>,
}

/// One business card from its field values: a new task and its render job.
#[utoipa::path(post, path = "/diyvrbt/v2/business/runOneBusinessCardTask", request_body = OneCardBody, responses((status = 200, body = TaskIdDto)))]
pub async fn run_one_card(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: OneCardBody = body::parse(&req, &bytes)?;
    let mut fields = std::collections::HashMap::new();
    for (k, v) in b.fields {
        let code = k.trim().parse::<i64>().map_err(|_| ApiError::BadRequest(format!("fields: `{k}` is not a card field code")))?;
        let value = match v {
            serde_json::Value::String(s) => s,
            serde_json::Value::Null => String::new(),
            other => other.to_string(),
        };
        fields.insert(code, value);
    }
    let caller = caller::caller(&req, &state).await?;
    let r = state
        .clients
        .task
        .clone()
        .card_one(caller.request(pb::CardOneRequest { template_id: b.template_id, fields })?)
        .await?
        .into_inner();
    Ok(envelope::ok(TaskIdDto { task_id: r.task_id }))
}
