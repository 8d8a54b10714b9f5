//! The manage area (TEMPLATE_MANAGER or administrator; the services decide who may): the index's
//! counts of what waits for review (`GET /manage/overview`), the review queues of users' submitted
//! stickers, art words and dynamic words (`/manage/review/list`, `/manage/review/decide`), and the
//! tenant's system music library (`/manage/music/list`, `/manage/music/upload`, `/manage/music/update`).

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::common::Page;
use reelforge_proto::material as pb;
use reelforge_proto::task as task_pb;
use serde::{Deserialize, Serialize};

use crate::caller::Caller;
use crate::routes::material::{MaterialPage, dtos, id_list, int, text};
use crate::upload::{self, Rules, SystemCategory, UploadError};
use crate::{ApiError, AppState, body, caller, envelope};

/// The starter library's music category: the editor's music tab lists it.
const MUSIC: i64 = 6001;

/// The review queues: the name in the page's address, and the library kinds it holds.
const QUEUES: [(&str, &[&str]); 3] =
    [("chartlet", &["picture", "gif"]), ("artfont", &["artWord"]), ("dynamicword", &["dynamicWord"])];

/// The audit states as the pages name them, and their open states.
const STATES: [(&str, i32); 3] = [("pending", 2), ("passed", 1), ("rejected", 3)];

fn queue_kinds(name: &str) -> Result<Vec<String>, ApiError> {
    QUEUES.iter().find(|(q, _)| *q == name).map(|(_, kinds)| kinds.iter().map(|k| (*k).to_owned()).collect()).ok_or_else(|| {
        let names: Vec<&str> = QUEUES.iter().map(|(q, _)| *q).collect();
        ApiError::BadRequest(format!("queue: `{name}` is not one of {}", names.join(", ")))
    })
}

fn open_state_of(name: &str) -> Result<i32, ApiError> {
    STATES.iter().find(|(s, _)| *s == name).map(|(_, o)| *o).ok_or_else(|| {
        ApiError::BadRequest(format!("state: `{name}` is not pending, passed or rejected"))
    })
}

/// Refuses anyone but a template manager or an administrator, as the services do (envelope 4001),
/// before a file is stored for nothing.
fn auditor(caller: &Caller) -> Result<(), ApiError> {
    let user = caller.user()?;
    if user.operator_level == 0 || user.role == "TEMPLATE_MANAGER" {
        Ok(())
    } else {
        Err(ApiError::Service(tonic::Status::permission_denied("role TEMPLATE_MANAGER required")))
    }
}

fn paging(f: &serde_json::Map<String, serde_json::Value>, default_size: u32) -> Result<(u32, u32), ApiError> {
    let positive = |name: &str, default: u32| -> Result<u32, ApiError> {
        match int(f, name)? {
            None => Ok(default),
            Some(n) if n > 0 => u32::try_from(n).map_err(|_| ApiError::BadRequest(format!("{name}: too large"))),
            Some(n) => Err(ApiError::BadRequest(format!("{name}: `{n}` is not a positive number"))),
        }
    };
    Ok((positive("pageNum", 1)?, positive("pageSize", default_size)?.min(100)))
}

/// One count of the manage index.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct QueueCount {
    /// `template`, `chartlet`, `artfont`, `dynamicword` or `service` (provider applications).
    queue: String,
    /// How many wait for a decision.
    pending: u64,
}

/// What waits for review, and the music library's size.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Overview {
    queues: Vec<QueueCount>,
    /// The tenant's system music tracks, offered or not.
    music_tracks: u64,
}

async fn pending(state: &AppState, caller: &Caller, types: Vec<String>, open_state: i32) -> Result<u64, ApiError> {
    let q = pb::QueueRequest { types, open_state, page: Some(Page { page_num: 1, page_size: 1 }) };
    Ok(state.clients.material.clone().queue(caller.request(q)?).await?.into_inner().total)
}

async fn music_page(state: &AppState, caller: &Caller, page_num: u32, page_size: u32) -> Result<pb::MaterialPage, ApiError> {
    let q = pb::ListMaterialsRequest {
        page: Some(Page { page_num, page_size }),
        r#type: "audio".into(),
        category_id: MUSIC,
        system: true,
        every_state: true,
        ..Default::default()
    };
    Ok(state.clients.material.clone().list(caller.request(q)?).await?.into_inner())
}

/// The manage index: per queue, how many wait for review (templates, stickers, art words, dynamic
/// words, service-provider applications), counted by the services; and the music library's size.
#[utoipa::path(get, path = "/diyvrbt/manage/overview", responses((status = 200, body = Overview)))]
pub async fn overview(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    auditor(&caller)?;
    let list = task_pb::TemplateListRequest { page: Some(Page { page_num: 1, page_size: 1 }), state: "pending".into(), ..Default::default() };
    let templates = state.clients.task.clone().template_check_list(caller.request(list)?).await?.into_inner().total;
    let mut queues = vec![QueueCount { queue: "template".into(), pending: templates }];
    for (name, _) in QUEUES {
        queues.push(QueueCount { queue: name.into(), pending: pending(&state, &caller, queue_kinds(name)?, 2).await? });
    }
    let applications = reelforge_proto::auth::ReviewApplicationsRequest { state: "pending".into(), page: Some(Page { page_num: 1, page_size: 1 }) };
    let providers = state.clients.auth.clone().review_applications(caller.request(applications)?).await?.into_inner().total;
    queues.push(QueueCount { queue: "service".into(), pending: providers });
    let music_tracks = music_page(&state, &caller, 1, 1).await?.total;
    Ok(envelope::ok(Overview { queues, music_tracks }))
}

/// Body of the queue list.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
// Only the OpenAPI document reads this type: the handler reads fields leniently.
#[allow(dead_code)]
pub struct ReviewListBody {
    /// `chartlet`, `artfont` or `dynamicword`.
    queue: String,
    /// `pending` (default), `passed` or `rejected`.
    state: Option<String>,
    page_num: Option<u32>,
    page_size: Option<u32>,
}

/// One page of a review queue: the tenant's users' materials of the queue's kinds in one audit
/// state, newest first (the usual material shape: `reasonsForFailureOfAudit` the rejection's reason).
#[utoipa::path(post, path = "/diyvrbt/manage/review/list", request_body = ReviewListBody, responses((status = 200, body = MaterialPage)))]
pub async fn review_list(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = body::fields(&req, &bytes)?;
    let types = queue_kinds(&text(&f, "queue").ok_or_else(|| ApiError::BadRequest("queue: required".into()))?)?;
    let open_state = open_state_of(text(&f, "state").as_deref().unwrap_or("pending"))?;
    let (page_num, page_size) = paging(&f, 20)?;
    let caller = caller::caller(&req, &state).await?;
    let q = pb::QueueRequest { types, open_state, page: Some(Page { page_num, page_size }) };
    let r = state.clients.material.clone().queue(caller.request(q)?).await?.into_inner();
    Ok(envelope::ok(MaterialPage { total: r.total, page_num, page_size, data_list: dtos(r.items, &state, &caller)? }))
}

/// Body of a decision.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct DecideBody {
    /// One id, "a,b" or a list.
    material_ids: Vec<String>,
    approve: bool,
    /// Required to reject: the owner reads it beside their material.
    reason: Option<String>,
}

/// Answer of the batch changes.
#[derive(Serialize, utoipa::ToSchema)]
pub struct Changed {
    changed: u64,
}

/// Approves users' materials into the tenant's library (the editor's offers them to everyone) or
/// rejects them with a `reason` the owner sees; all or none (an id not of the tenant's users'
/// materials changes nothing). A rejection without a reason is refused naming `reason`.
#[utoipa::path(post, path = "/diyvrbt/manage/review/decide", request_body = DecideBody, responses((status = 200, body = Changed)))]
pub async fn decide(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = body::fields(&req, &bytes)?;
    let ids = id_list(&f, "materialIds");
    if ids.is_empty() {
        return Err(ApiError::BadRequest("materialIds: required".into()));
    }
    let approve = match f.get("approve") {
        Some(serde_json::Value::Bool(b)) => *b,
        _ => match text(&f, "approve").as_deref() {
            Some("true" | "1") => true,
            Some("false" | "0") => false,
            _ => return Err(ApiError::BadRequest("approve: required, true or false".into())),
        },
    };
    let reason = text(&f, "reason").unwrap_or_default();
    if !approve && reason.is_empty() {
        return Err(ApiError::BadRequest("reason: a rejection needs a reason the owner can read".into()));
    }
    if reason.chars().count() > 500 {
        return Err(ApiError::BadRequest("reason: at most 500 characters".into()));
    }
    let caller = caller::caller(&req, &state).await?;
    let r = pb::AuditManyRequest { material_ids: ids, open_state: if approve { 1 } else { 3 }, reason: if approve { String::new() } else { reason } };
    let r = state.clients.material.clone().audit_many(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(Changed { changed: r.changed }, "审核完成"))
}

/// The tenant's system music tracks (category 6001), offered (`openState` 1) and withdrawn (0),
/// newest first (`pageNum`, `pageSize` at most 100).
#[utoipa::path(post, path = "/diyvrbt/manage/music/list", request_body = crate::routes::material::MaterialBody, responses((status = 200, body = MaterialPage)))]
pub async fn music_list(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = body::fields(&req, &bytes)?;
    let (page_num, page_size) = paging(&f, 20)?;
    let caller = caller::caller(&req, &state).await?;
    let r = music_page(&state, &caller, page_num, page_size).await?;
    Ok(envelope::ok(MaterialPage { total: r.total, page_num, page_size, data_list: dtos(r.items, &state, &caller)? }))
}

/// The answer of a music upload.
#[derive(Serialize, utoipa::ToSchema)]
pub struct MusicUploaded {
    /// The new track's id.
    id: String,
}

/// Uploads one track into the music library (multipart: optional `materialName`, then
/// `uploadFile`, an audio file). It is offered to every user of the tenant at once and probed as
/// uploads are: duration, loudness and waveform follow.
#[utoipa::path(post, path = "/diyvrbt/manage/music/upload", responses((status = 200, body = MusicUploaded), (status = 413, description = "the announced body is larger than an audio file")))]
pub async fn music_upload(req: HttpRequest, payload: web::Payload, state: web::Data<AppState>) -> Result<HttpResponse, UploadError> {
    let limits = upload::limits(&req);
    let audio = limits.limit_bytes("audio").unwrap_or(0);
    upload::within(&req, audio.saturating_add(upload::FORM_SLACK))?;
    let caller = caller::caller(&req, &state).await?;
    auditor(&caller)?;
    let rules = Rules { limits: &limits, kinds: &["audio"], announced: upload::announced(&req) };
    let id = upload::system_material(&req, payload, &state, &caller, &rules, SystemCategory::Fixed(MUSIC), "music").await?;
    Ok(envelope::ok_with(MusicUploaded { id }, "素材添加成功"))
}

/// Changes music tracks `materialIds`: `materialName`, `openState` (1 offered, 0 withdrawn); a field
/// left out stays. Every id must be one of the tenant's music tracks, or nothing changes.
#[utoipa::path(post, path = "/diyvrbt/manage/music/update", request_body = crate::routes::material::MaterialBody, responses((status = 200, body = Changed)))]
pub async fn music_update(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = body::fields(&req, &bytes)?;
    let open_state = int(&f, "openState")?
        .map(|v| i32::try_from(v).map_err(|_| ApiError::BadRequest(format!("openState: `{v}` is out of range"))))
        .transpose()?;
    let r = pb::UpdateSystemRequest {
        ids: id_list(&f, "materialIds"),
        name: text(&f, "materialName"),
        category_id: None,
        style_id: None,
        open_state,
    };
    let caller = caller::caller(&req, &state).await?;
    let r = state.clients.material.clone().update_system(caller.request(r)?).await?.into_inner();
    Ok(envelope::ok_with(Changed { changed: r.changed }, "修改成功"))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn queues_and_states_are_named() {
        assert_eq!(queue_kinds("chartlet").ok(), Some(vec!["picture".to_owned(), "gif".to_owned()]));
        assert!(queue_kinds("music").is_err());
        assert_eq!(open_state_of("rejected").ok(), Some(3));
        assert!(open_state_of("all").is_err());
    }
}
