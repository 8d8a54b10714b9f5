//! The material library: streamed uploads, the user's and the tenant's materials with signed file
//! URLs, rename, move, delete, audit, cover, state, loudness, and the files themselves.

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::common::Page;
use reelforge_proto::material as pb;
use serde::{Deserialize, Serialize};

use crate::caller::Caller;
use crate::upload::{self, Rules, UploadError};
use crate::{ApiError, AppState, body, caller, envelope};

/// A request body's fields as sent: numbers may come as JSON numbers or as strings.
type Fields = serde_json::Map<String, serde_json::Value>;

fn fields(req: &HttpRequest, bytes: &[u8]) -> Result<Fields, ApiError> {
    body::fields(req, bytes)
}

pub(crate) fn text(f: &Fields, name: &str) -> Option<String> {
    match f.get(name)? {
        serde_json::Value::String(s) => Some(s.trim().to_owned()).filter(|s| !s.is_empty()),
        serde_json::Value::Number(n) => Some(n.to_string()),
        serde_json::Value::Bool(b) => Some(b.to_string()),
        _ => None,
    }
}

pub(crate) fn int(f: &Fields, name: &str) -> Result<Option<i64>, ApiError> {
    match text(f, name) {
        None => Ok(None),
        Some(v) => v.parse::<i64>().map(Some).map_err(|_| ApiError::BadRequest(format!("{name}: `{v}` is not a number"))),
    }
}

fn flag(f: &Fields, name: &str) -> Result<bool, ApiError> {
    match text(f, name).as_deref() {
        None | Some("false" | "0") => Ok(false),
        Some("true" | "1") => Ok(true),
        Some(other) => Err(ApiError::BadRequest(format!("{name}: `{other}` is not true or false"))),
    }
}

fn required(f: &Fields, name: &str) -> Result<String, ApiError> {
    text(f, name).ok_or_else(|| ApiError::BadRequest(format!("{name}: required")))
}

/// Ids as "a,b,c" or ["a", "b"].
pub(crate) fn id_list(f: &Fields, name: &str) -> Vec<String> {
    match f.get(name) {
        Some(serde_json::Value::Array(items)) => items
            .iter()
            .filter_map(|v| match v {
                serde_json::Value::String(s) => Some(s.trim().to_owned()),
                serde_json::Value::Number(n) => Some(n.to_string()),
                _ => None,
            })
            .filter(|s| !s.is_empty())
            .collect(),
        _ => text(f, name).map(|s| s.split(',').map(|p| p.trim().to_owned()).filter(|p| !p.is_empty()).collect()).unwrap_or_default(),
    }
}

fn open_state(v: i64) -> Result<i32, ApiError> {
    i32::try_from(v).map_err(|_| ApiError::BadRequest(format!("openState: `{v}` is out of range")))
}

fn media(state: &AppState) -> Result<&crate::media::Media, ApiError> {
    state.media.as_ref().ok_or(ApiError::NotAvailable("material files from this gateway"))
}

/// The fields the library calls read (form-encoded or JSON; numbers may be strings); each call
/// reads its own, as its description says.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
// Only the OpenAPI document reads this type: handlers read fields leniently, see `fields`.
#[allow(dead_code)]
pub struct MaterialBody {
    page_num: Option<u32>,
    page_size: Option<u32>,
    r#type: Option<String>,
    category_id: Option<i64>,
    style_id: Option<i64>,
    open_state: Option<i32>,
    horizontal_or_vertical: Option<i32>,
    order_type: Option<String>,
    id: Option<String>,
    ids: Option<String>,
    material_id: Option<String>,
    material_ids: Option<String>,
    material_name: Option<String>,
    category_ids: Option<String>,
    reasons_for_failure_of_audit: Option<String>,
    is_all: Option<bool>,
    is_soft_delete: Option<bool>,
    undelete_uuid: Option<String>,
    delete_uuid: Option<String>,
}

/// A material as the browser reads it (CONTRACT "Materials").
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MaterialDto {
    id: String,
    material_name: String,
    r#type: String,
    category_id: i64,
    style_id: i64,
    open_state: i32,
    reasons_for_failure_of_audit: String,
    state: String,
    fail_reason: String,
    file_size: u64,
    size: String,
    width: i32,
    height: i32,
    duration: f64,
    frame_rate: f64,
    rotation: i32,
    has_audio: bool,
    codec: String,
    /// 1 landscape or square, 2 portrait.
    horizontal_or_vertical: i32,
    url: String,
    cover_url: String,
    filmstrip_url: String,
    waveform_url: String,
    preview_url: String,
    create_time: String,
}

/// The parts of a material served by `/material/file/{id}/{part}`.
const PARTS: [&str; 5] = ["original", "cover", "filmstrip", "waveform", "preview"];

fn dto(m: pb::Material, media: &crate::media::Media, caller: &Caller) -> Result<MaterialDto, ApiError> {
    let user = caller.user()?.user_id.clone();
    let ticket = media.material_ticket(&caller.tenant, &user, &m.material_id)?;
    let url = |key: &str, part: &str| {
        if key.is_empty() { String::new() } else { format!("{}/material/file/{}/{part}?ticket={ticket}", crate::BASE, m.material_id) }
    };
    let (w, h) = if m.rotation % 180 == 0 { (m.width, m.height) } else { (m.height, m.width) };
    Ok(MaterialDto {
        url: url(&m.relative_path, "original"),
        cover_url: url(&m.picture_path, "cover"),
        filmstrip_url: url(&m.filmstrip_path, "filmstrip"),
        waveform_url: url(&m.waveform_path, "waveform"),
        preview_url: url(&m.preview_path, "preview"),
        // The spec's values: vertical 1, horizontal (or square) 0.
        horizontal_or_vertical: i32::from(h > w),
        create_time: chrono::DateTime::from_timestamp_millis(m.created_ms).map(|t| t.to_rfc3339()).unwrap_or_default(),
        id: m.material_id,
        material_name: m.material_name,
        r#type: m.r#type,
        category_id: m.category_id,
        style_id: m.style_id,
        open_state: m.open_state,
        reasons_for_failure_of_audit: m.audit_reason,
        state: m.state,
        fail_reason: m.fail_reason,
        file_size: m.file_size,
        size: m.size,
        width: w,
        height: h,
        duration: m.time_length,
        frame_rate: m.frame_rate,
        rotation: m.rotation,
        has_audio: m.has_audio,
        codec: m.codec,
    })
}

pub(crate) fn dtos(items: Vec<pb::Material>, state: &AppState, caller: &Caller) -> Result<Vec<MaterialDto>, ApiError> {
    let media = media(state)?;
    items.into_iter().map(|m| dto(m, media, caller)).collect()
}

/// What a file is recorded with: the form's fields as they were when it came.
struct UploadFields {
    category_id: i64,
    style_id: i64,
    open_state: i32,
}

/// The fields sent before the file.
#[derive(Default)]
struct UploadForm {
    category_id: i64,
    style_id: i64,
    open_state: i32,
}

impl UploadForm {
    fn set(&mut self, name: &str, value: &str) -> Result<(), ApiError> {
        let number = |v: &str| {
            let v = v.trim();
            if v.is_empty() { Ok(-1) } else { v.parse::<i64>().map_err(|_| ApiError::BadRequest(format!("{name}: `{v}` is not a number"))) }
        };
        match name {
            "categoryId" => self.category_id = number(value)?,
            "styleId" => self.style_id = number(value)?,
            "materialState" => self.open_state = open_state(number(value)?.max(0))?,
            // userId names the caller (the token decides), type is decided from the file itself, and
            // expireDay is the spec client's constant: none of them changes what is stored.
            _ => {}
        }
        Ok(())
    }
}

/// One recorded upload: its material, and whether it is the caller's existing material of the same
/// file (nothing new was made).
#[derive(Serialize)]
pub(crate) struct Uploaded {
    pub(crate) id: String,
    pub(crate) duplicate: bool,
}

/// The answer's `uploads`, beside `data`: one entry per file, in order.
#[derive(Serialize)]
struct Uploads {
    uploads: Vec<Uploaded>,
}

/// Stores every `uploadFile` part, then records each; a failure undoes the whole request.
pub(crate) async fn upload_files(
    req: &HttpRequest,
    payload: web::Payload,
    state: &AppState,
    many: bool,
) -> Result<Vec<Uploaded>, UploadError> {
    let limits = upload::limits(req);
    let route_limit = if many { limits.multi_bytes().saturating_add(upload::FORM_SLACK) } else { upload::single_limit(&limits) };
    upload::within(req, route_limit)?;
    let caller = caller::caller(req, state).await?;
    let user = caller.user()?.user_id.clone();
    let blob = media(state)?.blob().clone();
    let usage = state.clients.material.clone().usage(caller.request(reelforge_proto::common::Empty {})?).await?;
    upload::within_quota(req, &usage.into_inner().into())?;
    let announced = if many { None } else { upload::announced(req) };
    let rules = Rules { limits: &limits, kinds: &[], announced };
    let mut multipart = upload::form(req, payload)?;
    let prefix = reelforge_kit::blob::user_material_prefix(&caller.tenant, &user);
    let mut form = UploadForm { category_id: -1, style_id: -1, open_state: 0 };
    // Every file is stored before any is recorded, so a refused file leaves no row (and no probe
    // of an earlier file) behind: the stored objects are removed and the request is undone whole.
    let mut stored: Vec<(upload::Stored, UploadFields)> = Vec::new();
    let read = async {
        let mut total = 0u64;
        while let Some(field) = multipart.next().await {
            let mut field = field.map_err(|e| ApiError::BadRequest(format!("body: {e}")))?;
            let name = field.name().unwrap_or_default().to_owned();
            if name != "uploadFile" {
                let value = upload::text(&mut field).await?;
                form.set(&name, &value)?;
                continue;
            }
            if !many && !stored.is_empty() {
                return Err(ApiError::BadRequest("uploadFile: one file per request here; use /upload/multimaterial".into()).into());
            }
            let dir = format!("{prefix}{}/", uuid::Uuid::new_v4());
            let file = upload::store(&mut field, &blob, &dir, "original", &rules).await?;
            total += file.size;
            stored.push((file, UploadFields { category_id: form.category_id, style_id: form.style_id, open_state: form.open_state }));
            if many && total > limits.multi_bytes() {
                return Err(upload::request_too_large(limits.multi_bytes()).into());
            }
        }
        if stored.is_empty() {
            return Err(ApiError::BadRequest("uploadFile: no file sent".into()).into());
        }
        Ok::<(), UploadError>(())
    }
    .await;
    if let Err(e) = read {
        multipart.drain().await;
        for (file, _) in &stored {
            let _ = blob.delete(&file.key).await;
        }
        return Err(e);
    }
    let mut done: Vec<Uploaded> = Vec::new();
    let mut failed = None;
    for (i, (file, f)) in stored.iter().enumerate() {
        let record = file.record(f.category_id, f.style_id, f.open_state);
        match state.clients.material.clone().record(caller.request(record)?).await {
            Ok(r) => {
                let r = r.into_inner();
                let id = r.material.map(|m| m.material_id).unwrap_or_default();
                done.push(Uploaded { id, duplicate: r.duplicate });
            }
            Err(s) => {
                // The service removes the object when it refuses; a lost answer leaves it here.
                for (rest, _) in &stored[i..] {
                    let _ = blob.delete(&rest.key).await;
                }
                failed = Some(UploadError::from(s));
                break;
            }
        }
    }
    if let Some(e) = failed {
        // Only what this request made is undone: a duplicate is a material the caller had already.
        let made: Vec<String> = done.iter().filter(|u| !u.duplicate).map(|u| u.id.clone()).collect();
        if !made.is_empty() {
            let undo = pb::DeleteRequest { ids: made, soft: false };
            if let Err(s) = state.clients.material.clone().delete(caller.request(undo)?).await {
                tracing::error!(status = ?s.code(), message = %s.message(), "partial multi-upload not undone");
            }
        }
        return Err(e);
    }
    Ok(done)
}

/// The message of an upload's answer: added, or (every file) already in the library.
fn uploaded_desc(done: &[Uploaded]) -> &'static str {
    if done.iter().all(|u| u.duplicate) { "素材已存在" } else { "素材添加成功" }
}

/// Uploads one material (multipart: userId, type, expireDay, categoryId, styleId, materialState,
/// then uploadFile last); `data` is "UPLOADED - {id}", `uploads` is `[{id, duplicate}]`. The row
/// starts processing; probing makes it ready or failed. The same file uploaded again by the same
/// user answers the existing material with `duplicate: true` and makes nothing.
#[utoipa::path(post, path = "/diyvrbt/upload/material", responses((status = 200, body = String), (status = 413, description = "the announced body is larger than any upload")))]
pub async fn upload(req: HttpRequest, payload: web::Payload, state: web::Data<AppState>) -> Result<HttpResponse, UploadError> {
    let done = upload_files(&req, payload, &state, false).await?;
    let data: String = done.iter().map(|u| format!("UPLOADED - {}", u.id)).collect();
    Ok(envelope::ok_with_extra(data, uploaded_desc(&done), Uploads { uploads: done }))
}

/// Uploads several materials (several uploadFile parts); `data` lists "UPLOADED - {id}" per file,
/// `uploads` the same files as `{id, duplicate}`.
#[utoipa::path(post, path = "/diyvrbt/upload/multimaterial", responses((status = 200, body = Vec<String>), (status = 413, description = "the announced body is larger than the route takes")))]
pub async fn upload_many(req: HttpRequest, payload: web::Payload, state: web::Data<AppState>) -> Result<HttpResponse, UploadError> {
    let done = upload_files(&req, payload, &state, true).await?;
    let data: Vec<String> = done.iter().map(|u| format!("UPLOADED - {}", u.id)).collect();
    Ok(envelope::ok_with_extra(data, uploaded_desc(&done), Uploads { uploads: done }))
}

/// What the caller and their tenant keep and may keep: bytes and materials (a limit of 0 is
/// unlimited). An upload beyond it is refused with `data.reason` `quota_exceeded` and these fields.
#[utoipa::path(get, path = "/diyvrbt/material/quota", responses((status = 200, body = upload::Quota)))]
pub async fn quota(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    caller.user()?;
    let usage = state.clients.material.clone().usage(caller.request(reelforge_proto::common::Empty {})?).await?;
    Ok(envelope::ok(upload::Quota::from(usage.into_inner())))
}

/// One page of materials.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct MaterialPage {
    pub(crate) total: u64,
    pub(crate) page_num: u32,
    pub(crate) page_size: u32,
    pub(crate) data_list: Vec<MaterialDto>,
}

/// One page of the caller's materials, or of the tenant's system ones (`every_state`: retired ones
/// too, for administrators).
pub(crate) async fn page(req: HttpRequest, bytes: web::Bytes, state: &AppState, system: bool, every_state: bool) -> Result<HttpResponse, ApiError> {
    let f = fields(&req, &bytes)?;
    let positive = |name: &str, default: u32| -> Result<u32, ApiError> {
        match int(&f, name)? {
            None => Ok(default),
            Some(n) if n > 0 => u32::try_from(n).map_err(|_| ApiError::BadRequest(format!("{name}: too large"))),
            Some(n) => Err(ApiError::BadRequest(format!("{name}: `{n}` is not a positive number"))),
        }
    };
    let page_num = positive("pageNum", 1)?;
    let page_size = positive("pageSize", 1200)?.min(1200);
    // The spec's horizontal 0 and vertical 1, to the service's 1 landscape, 2 portrait (0 any).
    let orientation = match int(&f, "horizontalOrVertical")? {
        None | Some(-1) => 0,
        Some(0) => 1,
        Some(1) => 2,
        Some(o) => return Err(ApiError::BadRequest(format!("horizontalOrVertical: `{o}` is not 0 (horizontal) or 1 (vertical)"))),
    };
    let query = pb::ListMaterialsRequest {
        page: Some(Page { page_num, page_size }),
        r#type: text(&f, "type").unwrap_or_default(),
        category_id: int(&f, "categoryId")?.unwrap_or(-1),
        system,
        style_id: int(&f, "styleId")?.filter(|s| *s >= 0),
        open_state: int(&f, "openState")?.filter(|s| *s >= 0).map(open_state).transpose()?,
        orientation,
        order: text(&f, "orderType").unwrap_or_default(),
        every_state,
    };
    let caller = caller::caller(&req, state).await?;
    let r = state.clients.material.clone().list(caller.request(query)?).await?.into_inner();
    Ok(envelope::ok(MaterialPage { total: r.total, page_num, page_size, data_list: dtos(r.items, state, &caller)? }))
}

/// The caller's materials with the spec's filters (type, categoryId -1 all, styleId, openState,
/// horizontalOrVertical, orderType newest|hottest; pageNum 1, pageSize 1200).
#[utoipa::path(post, path = "/diyvrbt/material/ofuser", request_body = MaterialBody, responses((status = 200, body = MaterialPage)))]
pub async fn of_user(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    page(req, bytes, &state, false, false).await
}

/// The tenant's system materials, by category.
#[utoipa::path(post, path = "/diyvrbt/material/ofdefault", request_body = MaterialBody, responses((status = 200, body = MaterialPage)))]
pub async fn of_default(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    page(req, bytes, &state, true, false).await
}

/// One material.
#[utoipa::path(post, path = "/diyvrbt/material/info/{id}", request_body = MaterialBody, responses((status = 200, body = MaterialDto)))]
pub async fn info(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let m = state.clients.material.clone().get(caller.request(pb::GetMaterialRequest { material_id: id.into_inner() })?).await?;
    Ok(envelope::ok(dto(m.into_inner(), media(&state)?, &caller)?))
}

/// Several materials by id (`ids` "a,b").
#[utoipa::path(post, path = "/diyvrbt/material/byIds", request_body = MaterialBody, responses((status = 200, body = Vec<MaterialDto>)))]
pub async fn by_ids(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = fields(&req, &bytes)?;
    let ids = id_list(&f, "ids");
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.material.clone().get_many(caller.request(pb::GetManyRequest { ids })?).await?.into_inner();
    Ok(envelope::ok(dtos(r.items, &state, &caller)?))
}

/// Renames one of the caller's materials.
#[utoipa::path(post, path = "/diyvrbt/material/updatename", request_body = MaterialBody, responses((status = 200, body = MaterialDto)))]
pub async fn rename(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = fields(&req, &bytes)?;
    let r = pb::RenameRequest { material_id: required(&f, "materialId")?, name: text(&f, "materialName").unwrap_or_default() };
    let caller = caller::caller(&req, &state).await?;
    let m = state.clients.material.clone().rename(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(dto(m, media(&state)?, &caller)?, "修改成功"))
}

/// Answer of the deletes: the ids deleted.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Deleted {
    deleted: Vec<String>,
}

async fn delete_ids(req: &HttpRequest, state: &AppState, ids: Vec<String>, soft: bool) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(req, state).await?;
    let r = state.clients.material.clone().delete(caller.request(pb::DeleteRequest { ids, soft })?).await?.into_inner();
    Ok(envelope::ok_with(Deleted { deleted: r.deleted }, "删除成功"))
}

/// Deletes one of the caller's materials (soft: the row is kept, marked deleted; the files go).
#[utoipa::path(post, path = "/diyvrbt/material/delete", request_body = MaterialBody, responses((status = 200, body = Deleted)))]
pub async fn delete(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = fields(&req, &bytes)?;
    delete_ids(&req, &state, vec![required(&f, "materialId")?], true).await
}

/// Deletes several of the caller's materials (`materialIds` "a,b"), softly.
#[utoipa::path(post, path = "/diyvrbt/material/batchDelete", request_body = MaterialBody, responses((status = 200, body = Deleted)))]
pub async fn batch_delete(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = fields(&req, &bytes)?;
    delete_ids(&req, &state, id_list(&f, "materialIds"), true).await
}

/// Deletes by choice: `isAll` every material of the caller (of `type`) but `undeleteUuid`, else
/// exactly `deleteUuid`; `isSoftDelete` keeps the rows marked deleted.
#[utoipa::path(post, path = "/diyvrbt/material/batchDeleteByChoice", request_body = MaterialBody, responses((status = 200, body = Deleted)))]
pub async fn delete_by_choice(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = fields(&req, &bytes)?;
    let r = pb::DeleteByChoiceRequest {
        all: flag(&f, "isAll")?,
        soft: flag(&f, "isSoftDelete")?,
        r#type: text(&f, "type").unwrap_or_default(),
        keep: id_list(&f, "undeleteUuid"),
        only: id_list(&f, "deleteUuid"),
    };
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.material.clone().delete_by_choice(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(Deleted { deleted: r.deleted }, "删除成功"))
}

/// Answer of the batch updates.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Changed {
    changed: u64,
}

/// Moves the caller's materials `materialIds` into the category `categoryIds`.
#[utoipa::path(post, path = "/diyvrbt/material/updateMaterialCategory", request_body = MaterialBody, responses((status = 200, body = Changed)))]
pub async fn move_category(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = fields(&req, &bytes)?;
    let category = id_list(&f, "categoryIds");
    let [category] = category.as_slice() else {
        return Err(ApiError::BadRequest("categoryIds: exactly one category id".into()));
    };
    let category_id = category.parse::<i64>().map_err(|_| ApiError::BadRequest(format!("categoryIds: `{category}` is not a number")))?;
    let r = pb::MoveRequest { ids: id_list(&f, "materialIds"), category_id };
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.material.clone().r#move(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(Changed { changed: r.changed }, "修改成功"))
}

/// The audit decision (TEMPLATE_MANAGER or administrator): `openState` and an optional
/// `reasonsForFailureOfAudit`.
#[utoipa::path(post, path = "/diyvrbt/material/updatematerial", request_body = MaterialBody, responses((status = 200, body = MaterialDto)))]
pub async fn audit(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = fields(&req, &bytes)?;
    let r = pb::AuditRequest {
        material_id: required(&f, "materialId")?,
        open_state: open_state(int(&f, "openState")?.ok_or_else(|| ApiError::BadRequest("openState: required".into()))?)?,
        reason: text(&f, "reasonsForFailureOfAudit").unwrap_or_default(),
    };
    let caller = caller::caller(&req, &state).await?;
    let m = state.clients.material.clone().audit(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(dto(m, media(&state)?, &caller)?, "修改成功"))
}

/// Sets the open state of the caller's materials: 0 private or 2 submitted for audit.
#[utoipa::path(post, path = "/diyvrbt/material/batchUpdateOpenState", request_body = MaterialBody, responses((status = 200, body = Changed)))]
pub async fn batch_open_state(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = fields(&req, &bytes)?;
    let r = pb::SetOpenStateRequest {
        ids: id_list(&f, "materialIds"),
        open_state: open_state(int(&f, "openState")?.ok_or_else(|| ApiError::BadRequest("openState: required".into()))?)?,
    };
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.material.clone().set_open_state(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(Changed { changed: r.changed }, "修改成功"))
}

/// Replaces the cover of one of the caller's materials (multipart: materialId, then uploadFile,
/// a picture).
#[utoipa::path(post, path = "/diyvrbt/material/changeCoverPic", responses((status = 200, body = MaterialDto), (status = 413, description = "the announced body is larger than a picture")))]
pub async fn change_cover(req: HttpRequest, payload: web::Payload, state: web::Data<AppState>) -> Result<HttpResponse, UploadError> {
    let limits = upload::limits(&req);
    let picture = limits.limit_bytes("picture").unwrap_or(0);
    upload::within(&req, picture.saturating_add(upload::FORM_SLACK))?;
    let caller = caller::caller(&req, &state).await?;
    let media = media(&state)?;
    let rules = Rules { limits: &limits, kinds: &["picture"], announced: upload::announced(&req) };
    let mut multipart = upload::form(&req, payload)?;
    let mut material_id = String::new();
    let result: Result<pb::Material, UploadError> = async {
        while let Some(field) = multipart.next().await {
            let mut field = field.map_err(|e| ApiError::BadRequest(format!("body: {e}")))?;
            if field.name() != Some("uploadFile") {
                if field.name() == Some("materialId") {
                    material_id = upload::text(&mut field).await?.trim().to_owned();
                } else {
                    upload::text(&mut field).await?;
                }
                continue;
            }
            if material_id.is_empty() {
                return Err(ApiError::BadRequest("materialId: required before uploadFile".into()).into());
            }
            let m = state
                .clients
                .material
                .clone()
                .get(caller.request(pb::GetMaterialRequest { material_id: material_id.clone() })?)
                .await
                .map_err(ApiError::Service)?
                .into_inner();
            if m.system || !m.relative_path.starts_with("t/") {
                return Err(ApiError::BadRequest(format!("material {material_id} does not exist")).into());
            }
            let dir = m.relative_path.rsplit_once('/').map(|(d, _)| format!("{d}/")).unwrap_or_default();
            let stored = upload::store(&mut field, media.blob(), &dir, &format!("cover-{}", uuid::Uuid::new_v4().simple()), &rules).await?;
            let set = pb::SetCoverRequest { material_id: material_id.clone(), key: stored.key.clone() };
            return match state.clients.material.clone().set_cover(caller.request(set)?).await {
                Ok(m) => Ok(m.into_inner()),
                Err(s) => {
                    let _ = media.blob().delete(&stored.key).await;
                    Err(ApiError::Service(s).into())
                }
            };
        }
        Err(ApiError::BadRequest("uploadFile: no picture sent".into()).into())
    }
    .await;
    match result {
        Ok(m) => Ok(envelope::ok_with(dto(m, media, &caller)?, "修改成功")),
        Err(e) => {
            multipart.drain().await;
            Err(e)
        }
    }
}

/// Answer of getVideoState.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct VideoState {
    state: String,
    fail_reason: String,
}

/// The processing state of a material (`id`): processing, ready or failed with its reason.
#[utoipa::path(post, path = "/diyvrbt/material/getVideoState", request_body = MaterialBody, responses((status = 200, body = VideoState)))]
pub async fn video_state(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = fields(&req, &bytes)?;
    let material_id = text(&f, "id").or_else(|| text(&f, "materialId")).ok_or_else(|| ApiError::BadRequest("id: required".into()))?;
    let caller = caller::caller(&req, &state).await?;
    let m = state.clients.material.clone().get(caller.request(pb::GetMaterialRequest { material_id })?).await?.into_inner();
    Ok(envelope::ok(VideoState { state: m.state, fail_reason: m.fail_reason }))
}

/// The mean loudness of an audio material in dB; silence (below −96 dB) is an error.
#[utoipa::path(post, path = "/diyvrbt/material/getVolumeDB", request_body = MaterialBody, responses((status = 200, body = f64)))]
pub async fn volume(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = fields(&req, &bytes)?;
    let material_id = required(&f, "materialId")?;
    let caller = caller::caller(&req, &state).await?;
    let v = state.clients.material.clone().volume(caller.request(pb::GetMaterialRequest { material_id })?).await?.into_inner();
    Ok(envelope::ok((v.mean_db * 100.0).round() / 100.0))
}

/// Query of the file route.
#[derive(Deserialize, utoipa::IntoParams)]
pub struct FileQuery {
    ticket: Option<String>,
}

fn content_type(key: &str) -> &'static str {
    match key.rsplit_once('.').map(|(_, e)| e.to_ascii_lowercase()).as_deref() {
        Some("jpg" | "jpeg") => "image/jpeg",
        Some("png") => "image/png",
        Some("bmp") => "image/bmp",
        Some("gif") => "image/gif",
        Some("json") => "application/json",
        Some("webp") => "image/webp",
        Some("heic") => "image/heic",
        Some("heif") => "image/heif",
        Some("avif") => "image/avif",
        Some("mp4" | "m4v") => "video/mp4",
        Some("mov") => "video/quicktime",
        Some("mkv") => "video/x-matroska",
        Some("webm") => "video/webm",
        Some("3gp") => "video/3gpp",
        Some("avi") => "video/x-msvideo",
        Some("wmv") => "video/x-ms-wmv",
        Some("mpg" | "mpeg" | "vob") => "video/mpeg",
        Some("mp3") => "audio/mpeg",
        Some("aac") => "audio/aac",
        Some("wav") => "audio/wav",
        Some("wma") => "audio/x-ms-wma",
        Some("m4a") => "audio/mp4",
        Some("ogg") => "audio/ogg",
        Some("flac") => "audio/flac",
        Some("pptx") => "application/vnd.openxmlformats-officedocument.presentationml.presentation",
        _ => "application/octet-stream",
    }
}

/// A file of a material the caller may see: original, cover, filmstrip, waveform or preview;
/// authenticated by the usual headers or by the ticket of its signed URL; ranges answer 206.
#[utoipa::path(get, path = "/diyvrbt/material/file/{id}/{part}", params(FileQuery), responses((status = 200, body = Vec<u8>), (status = 206, description = "the requested byte range")))]
pub async fn file(
    req: HttpRequest,
    path: web::Path<(String, String)>,
    q: web::Query<FileQuery>,
    state: web::Data<AppState>,
) -> Result<HttpResponse, ApiError> {
    let (id, part) = path.into_inner();
    if !PARTS.contains(&part.as_str()) {
        return Err(ApiError::BadRequest(format!("part: `{part}` is not one of {}", PARTS.join(", "))));
    }
    let media = media(&state)?;
    let caller = match q.ticket.as_deref().filter(|t| !t.is_empty()) {
        Some(ticket) => {
            let user = media.material_ticket_user(ticket, &caller::tenant(&req)?, &id)?;
            caller::acting_for(&req, &state, &user)?
        }
        None => caller::caller(&req, &state).await?,
    };
    let m = state.clients.material.clone().get(caller.request(pb::GetMaterialRequest { material_id: id.clone() })?).await?.into_inner();
    let key = match part.as_str() {
        "original" => m.relative_path,
        "cover" => m.picture_path,
        "filmstrip" => m.filmstrip_path,
        "waveform" => m.waveform_path,
        _ => m.preview_path,
    };
    if key.is_empty() {
        return Err(ApiError::BadRequest(format!("material {id} has no {part}")));
    }
    // The user's own name for the file, made safe (RFC 6266), so a browser saving it never takes
    // a path or a header out of it; the extension is the stored one's.
    let disposition = (part == "original").then(|| {
        let ext = key.rsplit_once('.').map_or("bin", |(_, e)| e);
        let stem = m.material_name.rsplit_once('.').map_or(m.material_name.as_str(), |(s, _)| s);
        crate::media::inline(stem, ext)
    });
    media.serve(&req, &key, content_type(&key), disposition).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_come_as_text_or_lists() -> Result<(), Box<dyn std::error::Error>> {
        let f: Fields = serde_json::from_value(serde_json::json!({"a": "x, y,,z", "b": ["p", 7], "n": "12", "m": 3, "bad": "x"}))?;
        assert_eq!(id_list(&f, "a"), ["x", "y", "z"]);
        assert_eq!(id_list(&f, "b"), ["p", "7"]);
        assert_eq!(int(&f, "n")?, Some(12));
        assert_eq!(int(&f, "m")?, Some(3));
        assert_eq!(int(&f, "missing")?, None);
        assert!(int(&f, "bad").is_err());
        Ok(())
    }
}
