//! The editor's server-side media edits (spec platform §7 "Materials"; docs/toolbox.md, "The
//! editor's media edits"). A video's in/out, a sound's in/out, a video's box and a reverse are tool
//! runs of the toolbox's one job model (QUICK_CUT_VIDEO, QUICK_CUT_AUDIO, VIDEO_CROP, VIDEO_REVERSE),
//! checked as `POST /toolbox/run` checks them and answered with the run's ids; their output becomes
//! the caller's material by `POST /toolbox/use` (a reverse's also by `reverToUuid`). A picture's box
//! is cut here, in the request: decoding one picture is quick, under the decoder's limits. A refusal
//! names the route's own field (`startTime`, not the run's `params.ranges[0].startMs`), nothing
//! queued or stored.

use std::io::Cursor;

use actix_web::{HttpRequest, HttpResponse, web};
use reelforge_proto::material as mpb;
use reelforge_proto::task as pb;
use reelforge_tools::ToolType;
use serde::{Deserialize, Serialize};

use super::material::text;
use super::toolbox::{Refusal, RunAnswer, into_material, queue_checked_run};
type Fields = serde_json::Map<String, serde_json::Value>;
use crate::{ApiError, AppState, body, caller, envelope};

/// The largest picture `croppicture` decodes, bytes of its file and pixels a side.
const MAX_PICTURE_BYTES: u64 = 50 * 1024 * 1024;
const MAX_PICTURE_SIDE: u32 = 16_384;

fn refused(field: &str, why: impl std::fmt::Display) -> Refusal {
    Refusal { field: field.to_owned(), message: format!("{field}: {why}") }
}

/// The material id in `name`.
fn material_id(f: &Fields, name: &str) -> Result<String, Refusal> {
    text(f, name).ok_or_else(|| refused(name, "required: the material's id"))
}

/// A whole number 0 or more in `name` (a number or its digits).
fn whole(f: &Fields, name: &str) -> Result<u64, Refusal> {
    let n = match f.get(name) {
        Some(serde_json::Value::Number(n)) => n.as_u64(),
        Some(serde_json::Value::String(s)) => s.trim().parse::<u64>().ok(),
        None | Some(serde_json::Value::Null) => return Err(refused(name, "required")),
        _ => None,
    };
    n.ok_or_else(|| refused(name, "must be a whole number, 0 or more"))
}

/// What an edit asks of its material: the kinds it takes, and for a range its end (ms).
struct Wants {
    kinds: &'static [&'static str],
    end_ms: Option<u64>,
}

/// The slack past a clip's probed length an out point may have (the editor's times are seconds
/// as floats): up to it, the cut ends with the clip.
const END_SLACK_MS: u64 = 50;

/// Queues `kind` on `material` with `params`, a refusal naming the route's field for the run's
/// (`names`: the run's field, then the route's; `materialIds` is the material's field). The
/// material is read first: another user's is not found, and one of a kind the edit does not take,
/// or a range ending past its clip, is refused here, nothing queued.
async fn queue(
    req: &HttpRequest,
    state: &AppState,
    kind: ToolType,
    params: serde_json::Value,
    material: (&str, String),
    names: &[(&str, &str)],
    wants: Wants,
) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(req, state).await?;
    let m = state.clients.material.clone().get(caller.request(mpb::GetMaterialRequest { material_id: material.1.clone() })?).await?.into_inner();
    if !wants.kinds.contains(&m.r#type.as_str()) {
        let why = format!("the material is a {}: choose a {}", m.r#type, wants.kinds.join(" or a "));
        return Ok(refused(material.0, why).answer());
    }
    let probed_ms = (m.state == "ready" && m.time_length.is_finite() && m.time_length > 0.0).then(|| (m.time_length * 1000.0).round() as u64);
    if let (Some(end), Some(length)) = (wants.end_ms, probed_ms)
        && end > length + END_SLACK_MS
    {
        return Ok(refused("endTime", format!("{end} ms is past the end of the clip ({length} ms)")).answer());
    }
    match queue_checked_run(req, state, &caller, kind, params, vec![material.1]).await? {
        Ok(answer) => Ok(envelope::ok(answer)),
        Err(r) => {
            let route = names.iter().chain(&[("materialIds", material.0)]).find(|(run, _)| *run == r.field).map(|(_, route)| *route);
            let named = match route {
                Some(route) => Refusal { field: route.to_owned(), message: r.message.replacen(&r.field, route, 1) },
                None => r,
            };
            Ok(named.answer())
        }
    }
}

/// Body of videoClip and cutAudio.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
// Only the OpenAPI document reads these types: handlers read fields leniently (JSON or a form).
#[allow(dead_code)]
pub struct RangeBody {
    material_id: String,
    /// In point, ms.
    start_time: u64,
    /// Out point, ms.
    end_time: u64,
}

/// Body of cropVideo and croppicture: the box in source pixels.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct BoxBody {
    material_id: String,
    x: u64,
    y: u64,
    width: u64,
    height: u64,
}

/// Body of reverVideo and reverToUuid.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
#[allow(dead_code)]
pub struct UuidBody {
    /// The video material's id.
    uuid: String,
    /// reverVideo only: left out or true.
    is_file: Option<bool>,
}

/// The in and out of a video or sound, ms, as a keep cut of that range, and the out.
fn range(f: &Fields) -> Result<(serde_json::Value, u64), Refusal> {
    let (start, end) = (whole(f, "startTime")?, whole(f, "endTime")?);
    Ok((serde_json::json!({"mode": "keep", "ranges": [{"startMs": start, "endMs": end}]}), end))
}

/// The run's fields of a range, by the route's.
const RANGE_NAMES: &[(&str, &str)] =
    &[("params.ranges[0].startMs", "startTime"), ("params.ranges[0].endMs", "endTime"), ("params.ranges", "endTime")];

/// The run's fields of a box, by the route's.
const BOX_NAMES: &[(&str, &str)] = &[("params.x", "x"), ("params.y", "y"), ("params.width", "width"), ("params.height", "height")];

/// A video's in and out (`{materialId, startTime, endTime}`, ms) as a new video: a QUICK_CUT_VIDEO
/// run keeping that range.
#[utoipa::path(post, path = "/diyvrbt/material/videoClip", request_body = RangeBody, responses((status = 200, body = RunAnswer)))]
pub async fn video_clip(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = body::fields(&req, &bytes)?;
    let asked = material_id(&f, "materialId").and_then(|id| Ok((id, range(&f)?)));
    let (id, (params, end)) = match asked {
        Ok(a) => a,
        Err(r) => return Ok(r.answer()),
    };
    let wants = Wants { kinds: &["video"], end_ms: Some(end) };
    queue(&req, &state, ToolType::QuickCutVideo, params, ("materialId", id), RANGE_NAMES, wants).await
}

/// A sound's in and out (`{materialId, startTime, endTime}`, ms; a video's sound too) as a new
/// sound: a QUICK_CUT_AUDIO run keeping that range.
#[utoipa::path(post, path = "/diyvrbt/material/cutAudio", request_body = RangeBody, responses((status = 200, body = RunAnswer)))]
pub async fn cut_audio(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = body::fields(&req, &bytes)?;
    let asked = material_id(&f, "materialId").and_then(|id| Ok((id, range(&f)?)));
    let (id, (params, end)) = match asked {
        Ok(a) => a,
        Err(r) => return Ok(r.answer()),
    };
    let wants = Wants { kinds: &["audio", "video"], end_ms: Some(end) };
    queue(&req, &state, ToolType::QuickCutAudio, params, ("materialId", id), RANGE_NAMES, wants).await
}

/// The box `{x, y, width, height}` (source pixels) read from the body.
fn rectangle(f: &Fields) -> Result<[u64; 4], Refusal> {
    Ok([whole(f, "x")?, whole(f, "y")?, whole(f, "width")?, whole(f, "height")?])
}

/// A box of a video (`{materialId, x, y, width, height}`, source pixels, even, sides 16 or more)
/// as a new video: a VIDEO_CROP run.
#[utoipa::path(post, path = "/diyvrbt/material/cropVideo", request_body = BoxBody, responses((status = 200, body = RunAnswer)))]
pub async fn crop_video(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = body::fields(&req, &bytes)?;
    let asked = material_id(&f, "materialId").and_then(|id| Ok((id, rectangle(&f)?)));
    let (id, [x, y, width, height]) = match asked {
        Ok(a) => a,
        Err(r) => return Ok(r.answer()),
    };
    let params = serde_json::json!({"x": x, "y": y, "width": width, "height": height});
    queue(&req, &state, ToolType::VideoCrop, params, ("materialId", id), BOX_NAMES, Wants { kinds: &["video"], end_ms: None }).await
}

/// A video played backwards (`{uuid, isFile}`: `uuid` the material's id; `isFile`, when given, must
/// be true: only a file of the library is reversed): a VIDEO_REVERSE run, its sound reversed too.
#[utoipa::path(post, path = "/diyvrbt/material/v2/reverVideo", request_body = UuidBody, responses((status = 200, body = RunAnswer)))]
pub async fn reverse_video(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = body::fields(&req, &bytes)?;
    let id = match material_id(&f, "uuid") {
        Ok(id) => id,
        Err(r) => return Ok(r.answer()),
    };
    if let Some(flag) = text(&f, "isFile")
        && !matches!(flag.as_str(), "true" | "1")
    {
        return Ok(refused("isFile", "only a material of the library (a file) can be reversed: leave it out or send true").answer());
    }
    queue(&req, &state, ToolType::VideoReverse, serde_json::json!({}), ("uuid", id), &[], Wants { kinds: &["video"], end_ms: None }).await
}

/// Where the reverse of a material stands.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct ReverseState {
    /// The reversed video's material id once done (the caller's own material); empty before.
    uuid: String,
    /// The newest reverse run of the material (0: none).
    task_id: i64,
    /// `none` (never reversed), `queued`, `running`, `done`, `error` or `cancelled`.
    state: String,
    percent: u32,
    /// Why it failed, when it did.
    reason: String,
}

fn state_name(status: i32) -> &'static str {
    match status {
        0 | -1 => "queued",
        9 => "error",
        10 => "done",
        11 => "cancelled",
        _ => "running",
    }
}

/// The caller's newest reverse run of `material`, if any.
async fn newest_reverse(state: &AppState, caller: &caller::Caller, material: &str) -> Result<Option<pb::Task>, ApiError> {
    const PAGE: u32 = 100;
    for page_num in 1.. {
        let page = reelforge_proto::common::Page { page_num, page_size: PAGE };
        let ask = pb::MineToolsRequest { page: Some(page), tool_type: ToolType::VideoReverse.name().to_owned() };
        let p = state.clients.task.clone().mine_tools(caller.request(ask)?).await?.into_inner();
        if let Some(t) = p.items.iter().find(|t| t.material_ids.iter().any(|m| m == material)) {
            return Ok(Some(t.clone()));
        }
        if p.items.len() < PAGE as usize || u64::from(page_num * PAGE) >= p.total {
            break;
        }
    }
    Ok(None)
}

/// The reversed video of a material (`{uuid}`, the source material's id): where its newest reverse
/// run stands and, once done, the reversed video as the caller's material (made on the first ask;
/// asked again, the library answers the same material).
#[utoipa::path(post, path = "/diyvrbt/material/v2/reverToUuid", request_body = UuidBody, responses((status = 200, body = ReverseState)))]
pub async fn reversed_uuid(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = body::fields(&req, &bytes)?;
    let id = match material_id(&f, "uuid") {
        Ok(id) => id,
        Err(r) => return Ok(r.answer()),
    };
    let caller = caller::caller(&req, &state).await?;
    // The material is the caller's (or the tenant's system one): anyone else's is not found.
    state.clients.material.clone().get(caller.request(mpb::GetMaterialRequest { material_id: id.clone() })?).await?;
    let Some(run) = newest_reverse(&state, &caller, &id).await? else {
        return Ok(envelope::ok(ReverseState { uuid: String::new(), task_id: 0, state: "none".into(), percent: 0, reason: String::new() }));
    };
    let (mut status, mut percent, mut reason) = (run.status, if run.status == 10 { 100 } else { 0 }, run.reason.clone());
    if !matches!(status, 9..=11) {
        let live = state.clients.task.clone().state(caller.request(pb::GetTaskRequest { task_id: run.id })?).await?.into_inner();
        (status, percent, reason) = (live.status, live.percent, live.reason);
    }
    let mut uuid = String::new();
    if status == 10 {
        // A live "done" may come before its row holds the output: read the row again.
        let row = super::toolbox::tool_run(&caller, &state, run.id).await?;
        match row.outputs.first() {
            Some(o) => uuid = into_material(&state, &caller, o).await?,
            None => status = 1,
        }
    }
    Ok(envelope::ok(ReverseState { uuid, task_id: run.id, state: state_name(status).into(), percent, reason }))
}

/// Answer of croppicture.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct CroppedPicture {
    /// The new picture's material id.
    material_id: String,
    width: u32,
    height: u32,
}

/// A box of a picture (`{materialId, x, y, width, height}`, pixels of the picture as shown: upright,
/// after its EXIF orientation, as a browser draws it; sides 1 or more) as a new picture material of
/// the caller, cut in the request: a PNG where the source is one (or has transparency), a JPEG
/// otherwise, upright and without an orientation of its own. The box is checked against the
/// decoded picture, not the library's size: the library's probe may not have read the orientation.
#[utoipa::path(post, path = "/diyvrbt/material/croppicture", request_body = BoxBody, responses((status = 200, body = CroppedPicture)))]
pub async fn crop_picture(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let f = body::fields(&req, &bytes)?;
    let asked = material_id(&f, "materialId").and_then(|id| Ok((id, rectangle(&f)?)));
    let (id, [x, y, width, height]) = match asked {
        Ok(a) => a,
        Err(r) => return Ok(r.answer()),
    };
    let caller = caller::caller(&req, &state).await?;
    let m = state.clients.material.clone().get(caller.request(mpb::GetMaterialRequest { material_id: id })?).await?.into_inner();
    if m.r#type != "picture" {
        return Ok(refused("materialId", format!("the material is a {}: choose a picture", m.r#type)).answer());
    }
    if m.state != "ready" {
        return Ok(refused("materialId", format!("the picture is {}: wait until it is ready", m.state)).answer());
    }
    if m.file_size > MAX_PICTURE_BYTES {
        return Ok(refused("materialId", format!("the picture is larger than {} MB", MAX_PICTURE_BYTES / 1024 / 1024)).answer());
    }
    let media = state.media.as_ref().ok_or(ApiError::NotAvailable("pictures from this gateway"))?;
    let source = media.blob().get(&m.relative_path).await.map_err(|e| {
        tracing::error!(error = %e, "picture to crop not read");
        ApiError::NotAvailable("reading the picture")
    })?;
    let ext = m.relative_path.rsplit_once('.').map_or("", |(_, e)| e).to_ascii_lowercase();
    let made = web::block(move || cut_picture(&source, &ext, [x, y, width, height])).await.map_err(|_| ApiError::NotAvailable("cutting the picture"))?;
    let (bytes, ext) = match made {
        Ok(made) => made,
        Err(r) => return Ok(r.answer()),
    };
    let stem = m.material_name.rsplit_once('.').map_or(m.material_name.as_str(), |(s, _)| s);
    let name = format!("{stem}-crop.{ext}");
    let material_id = store_picture(&state, &caller, bytes, &name, ext).await?;
    let side = |n: u64| u32::try_from(n).unwrap_or(u32::MAX);
    Ok(envelope::ok(CroppedPicture { material_id, width: side(width), height: side(height) }))
}

/// Refuses a box that is empty or leaves the `w`×`h` picture, naming the value.
fn check_box([x, y, width, height]: [u64; 4], (w, h): (u64, u64)) -> Result<(), Refusal> {
    for (name, n) in [("width", width), ("height", height)] {
        if n == 0 {
            return Err(refused(name, "must be 1 or more"));
        }
    }
    if x >= w {
        return Err(refused("x", format!("{x} is past the picture's width ({w})")));
    }
    if y >= h {
        return Err(refused("y", format!("{y} is past the picture's height ({h})")));
    }
    if x + width > w {
        return Err(refused("width", format!("x + width ({}) is past the picture's width ({w})", x + width)));
    }
    if y + height > h {
        return Err(refused("height", format!("y + height ({}) is past the picture's height ({h})", y + height)));
    }
    Ok(())
}

/// Decodes a picture stored as `ext`, under the decoder's limits, turns it upright by its EXIF
/// orientation (the box is in the pixels the user saw) and encodes its box `[x, y, width,
/// height]`: PNG for a PNG or a picture with transparency, JPEG otherwise. Answers the bytes and
/// their extension, or why the picture cannot be cut.
fn cut_picture(source: &[u8], ext: &str, cut: [u64; 4]) -> Result<(Vec<u8>, &'static str), Refusal> {
    use image::ImageDecoder;
    let format = image::ImageFormat::from_extension(ext).ok_or_else(|| refused("materialId", format!("`{ext}` pictures cannot be cut here")))?;
    let undecodable = |e: image::ImageError| refused("materialId", format!("the picture cannot be decoded: {e}"));
    let mut reader = image::ImageReader::with_format(Cursor::new(source), format);
    let mut limits = image::Limits::default();
    limits.max_image_width = Some(MAX_PICTURE_SIDE);
    limits.max_image_height = Some(MAX_PICTURE_SIDE);
    reader.limits(limits.clone());
    let mut decoder = reader.into_decoder().map_err(undecodable)?;
    // What `ImageReader::decode` checks before it allocates the picture.
    limits.reserve(decoder.total_bytes()).map_err(undecodable)?;
    let orientation = decoder.orientation().map_err(undecodable)?;
    let mut picture = image::DynamicImage::from_decoder(decoder).map_err(undecodable)?;
    picture.apply_orientation(orientation);
    check_box(cut, (u64::from(picture.width()), u64::from(picture.height())))?;
    let [x, y, width, height] = cut.map(|n| u32::try_from(n).unwrap_or(u32::MAX));
    let part = picture.crop_imm(x, y, width, height);
    let unencodable = |e: image::ImageError| refused("materialId", format!("the box cannot be encoded: {e}"));
    let mut out = Cursor::new(Vec::new());
    if format == image::ImageFormat::Png || part.color().has_alpha() {
        part.to_rgba8().write_to(&mut out, image::ImageFormat::Png).map_err(unencodable)?;
        return Ok((out.into_inner(), "png"));
    }
    let encoder = image::codecs::jpeg::JpegEncoder::new_with_quality(&mut out, 92);
    part.to_rgb8().write_with_encoder(encoder).map_err(unencodable)?;
    Ok((out.into_inner(), "jpg"))
}

/// Stores `bytes` under the caller's own prefix and records them as their picture material; a
/// refused record removes the object.
async fn store_picture(state: &AppState, caller: &caller::Caller, bytes: Vec<u8>, name: &str, ext: &str) -> Result<String, ApiError> {
    let media = state.media.as_ref().ok_or(ApiError::NotAvailable("pictures from this gateway"))?;
    let blob = media.blob();
    let prefix = reelforge_kit::blob::user_material_prefix(&caller.tenant, &caller.user()?.user_id);
    let key = format!("{prefix}{}/original.{ext}", uuid::Uuid::new_v4());
    let size = bytes.len() as u64;
    if let Err(e) = blob.put(&key, bytes).await {
        tracing::error!(error = %e, "cropped picture not stored");
        let _ = blob.delete(&key).await;
        return Err(ApiError::NotAvailable("storing the picture"));
    }
    let record = crate::upload::Stored { key, kind: "picture", size, name: name.to_owned() }.record(-1, -1, 0);
    crate::upload::record_own(state, caller, blob, record).await
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_box_past_the_picture_names_its_value() {
        let field = |b: [u64; 4]| check_box(b, (100, 50)).err().map(|r| r.field);
        assert_eq!(field([0, 0, 100, 50]), None);
        assert_eq!(field([0, 0, 0, 10]).as_deref(), Some("width"));
        assert_eq!(field([100, 0, 1, 1]).as_deref(), Some("x"));
        assert_eq!(field([0, 50, 1, 1]).as_deref(), Some("y"));
        assert_eq!(field([10, 0, 91, 1]).as_deref(), Some("width"));
        assert_eq!(field([0, 10, 1, 41]).as_deref(), Some("height"));
    }

    #[test]
    fn a_cut_is_the_pictures_box() -> Result<(), Box<dyn std::error::Error>> {
        let picture = image::RgbImage::from_fn(40, 30, |x, y| image::Rgb([x as u8 * 6, y as u8 * 8, 90]));
        let mut png = Cursor::new(Vec::new());
        picture.write_to(&mut png, image::ImageFormat::Png)?;
        let (bytes, ext) = cut_picture(png.get_ref(), "png", [10, 5, 20, 12]).map_err(|r| r.message)?;
        let cut = image::load_from_memory(&bytes)?.to_rgb8();
        assert_eq!((ext, cut.dimensions()), ("png", (20, 12)));
        assert_eq!(cut.get_pixel(0, 0), picture.get_pixel(10, 5));
        assert_eq!(cut.get_pixel(19, 11), picture.get_pixel(29, 16));
        assert_eq!(cut_picture(png.get_ref(), "png", [30, 0, 20, 12]).err().map(|r| r.field).as_deref(), Some("width"), "a box past the picture");
        assert_eq!(cut_picture(b"not a picture", "png", [0, 0, 1, 1]).err().map(|r| r.field).as_deref(), Some("materialId"));
        Ok(())
    }
}
