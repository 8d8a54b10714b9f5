//! One-click filming (spec platform §7 `oneClick`; docs/toolbox.md, "One-click filming"): the
//! templates of a category for a wanted length, the caller's clips uploaded as materials, and the
//! assembly of a new editor task from a template and the clips. The rules are the task service's;
//! this maps the wire. `phoneNumber` in a body is never read: the caller is the verified token.

use actix_web::http::StatusCode;
use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::task as pb;
use serde::{Deserialize, Serialize};

use crate::routes::material::upload_files;
use crate::routes::template::{Previews, TemplateDto, lenient_i64, template_dto};
use crate::routes::toolbox::{material_ids, refusal};
use crate::upload::UploadError;
use crate::{ApiError, AppState, body, caller, envelope};

/// Body of the template choice.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChooseBody {
    /// One of the tenant's template categories.
    #[serde(default, deserialize_with = "lenient_i64")]
    category_id: i64,
    /// The wanted length, seconds (a number or a numeric string).
    #[serde(default)]
    #[schema(value_type = f64)]
    time_length: serde_json::Value,
}

/// A video slot of a template.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct SlotDto {
    /// The layer.
    id: String,
    scene_index: u32,
    /// How long the layer shows, seconds: the stretch of a clip put there.
    seconds: f64,
}

/// A template offered for one-click filming: the template as the lists show it, and its video
/// slots in the order clips fill them (`replaceVideo` and `replacePicture` are the slot counts).
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChoiceDto {
    #[serde(flatten)]
    template: TemplateDto,
    video_slots: Vec<SlotDto>,
}

/// The templates of a choice, the closest length first.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ChoiceList {
    data_list: Vec<ChoiceDto>,
}

/// Reads the wanted length, seconds, sent as a number or a numeric string.
fn seconds(v: &serde_json::Value) -> Option<f64> {
    match v {
        serde_json::Value::Number(n) => n.as_f64(),
        serde_json::Value::String(s) => s.trim().parse().ok(),
        _ => None,
    }
}

/// The tenant's approved templates of a category that have a video slot, the twelve whose length
/// is closest to `timeLength` (seconds) first; a category without one is refused naming
/// `categoryId`.
#[utoipa::path(post, path = "/diyvrbt/v2/videotask/oneClick/template", request_body = ChooseBody, responses((status = 200, body = ChoiceList)))]
pub async fn template(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: ChooseBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let Some(time_length) = seconds(&b.time_length) else {
        let field = serde_json::json!({ "field": "timeLength" });
        return Ok(envelope::refused(StatusCode::OK, field, "timeLength: the wanted length in seconds is required"));
    };
    let ask = pb::OneClickChooseRequest { category_id: b.category_id, time_length };
    let items = match state.clients.task.clone().one_click_choose(caller.request(ask)?).await {
        Ok(r) => r.into_inner().items,
        Err(s) => return refusal(s.into()),
    };
    let previews = Previews::of(&state, &caller);
    let data_list = items
        .into_iter()
        .filter_map(|c| c.template.map(|t| (t, c.video_slots)))
        .map(|(t, slots)| {
            Ok(ChoiceDto {
                template: template_dto(t, false, &previews)?,
                video_slots: slots.into_iter().map(|s| SlotDto { id: s.id, scene_index: s.scene_index, seconds: s.seconds }).collect(),
            })
        })
        .collect::<Result<_, ApiError>>()?;
    Ok(envelope::ok(ChoiceList { data_list }))
}

/// Answer of the upload: the new materials, in the order of the files.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct UploadAnswer {
    /// The material id of each file (the caller's existing material for a file they uploaded before).
    material_ids: Vec<String>,
}

/// Uploads the caller's clips (multipart, one or more `uploadFile` parts, as
/// `/upload/multimaterial`): each becomes a material of the caller, processing until the library
/// has probed it; the answer names them for `oneClick/run`'s `materialIds`.
#[utoipa::path(post, path = "/diyvrbt/v2/videotask/oneClick/upload", responses((status = 200, body = UploadAnswer), (status = 413, description = "the announced body is larger than the route takes")))]
pub async fn upload(req: HttpRequest, payload: web::Payload, state: web::Data<AppState>) -> Result<HttpResponse, UploadError> {
    let done = upload_files(&req, payload, &state, true).await?;
    Ok(envelope::ok(UploadAnswer { material_ids: done.into_iter().map(|u| u.id).collect() }))
}

/// Body of the assembly. The spec's `id` and `phoneNumber` are not read: the clips are named by
/// `materialIds`, the caller by the token.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunBody {
    /// A template the caller may see, with at least one video slot.
    #[serde(default, deserialize_with = "lenient_i64")]
    template_id: i64,
    /// The clips (video materials the caller may use), in the order of the template's video slots.
    #[serde(default)]
    #[schema(value_type = Vec<String>)]
    material_ids: Vec<serde_json::Value>,
    /// Pictures for the template's picture slots, in order (optional).
    #[serde(default)]
    #[schema(value_type = Vec<String>)]
    picture_ids: Vec<serde_json::Value>,
    /// The new task's name; empty: the template's.
    #[serde(default)]
    name: String,
}

/// Where a clip went.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct PlacedDto {
    slot_id: String,
    material_id: String,
    /// The cut in the clip, seconds.
    start: f64,
    end: f64,
    /// The slot's length, seconds.
    slot: f64,
    /// Seconds the clip's last frame is held (a clip shorter than its slot); 0: none.
    held: f64,
}

/// Answer of the assembly: the new editor task and where each clip went, in slot order.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct RunAnswer {
    task_id: i64,
    placed: Vec<PlacedDto>,
}

/// Assembles a new editor task of the caller: the template's video slots filled with the clips in
/// document order, each cut to its slot's length (a shorter clip plays whole and holds its last
/// frame), picture slots with the pictures; slots left over keep the template's material. Refused
/// (3000, `data.field`) before anything is stored.
#[utoipa::path(post, path = "/diyvrbt/v2/videotask/oneClick/run", request_body = RunBody, responses((status = 200, body = RunAnswer)))]
pub async fn run(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: RunBody = body::parse(&req, &bytes)?;
    let caller = caller::caller(&req, &state).await?;
    let (Some(clips), Some(pictures)) = (material_ids(&b.material_ids), material_ids(&b.picture_ids)) else {
        let field = if material_ids(&b.material_ids).is_none() { "materialIds" } else { "pictureIds" };
        return Ok(envelope::refused(StatusCode::OK, serde_json::json!({ "field": field }), &format!("{field}: not a list of material ids")));
    };
    let ask = pb::OneClickAssembleRequest { template_id: b.template_id, material_ids: clips, picture_ids: pictures, task_name: b.name };
    let r = match state.clients.task.clone().one_click_assemble(caller.request(ask)?).await {
        Ok(r) => r.into_inner(),
        Err(s) => return refusal(s.into()),
    };
    let placed = r
        .placed
        .into_iter()
        .map(|p| PlacedDto { slot_id: p.slot_id, material_id: p.material_id, start: p.start, end: p.end, slot: p.slot, held: p.held })
        .collect();
    Ok(envelope::ok(RunAnswer { task_id: r.task_id, placed }))
}
