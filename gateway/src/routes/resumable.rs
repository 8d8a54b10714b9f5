//! Resumable uploads (the `/upload` page) on the tus 1.0 protocol (core, creation, termination),
//! which the browser's `tus-js-client` speaks: `POST` opens an upload of a named length, `HEAD`
//! answers how much of it arrived, each `PATCH` appends a part at that offset, and the part that
//! completes it makes the material, answered in the envelope. An upload cut off (a dropped
//! connection, a closed tab) goes on from the last part stored.
//!
//! Everything lives in the material directory the finished upload becomes,
//! `t/{tenant}/u/{user}/materials/{uploadId}/`: the upload's description (`upload.json`: its name,
//! extension and length) and its parts (`parts/{start}-{end}`, each put whole, so a part cut off
//! mid-way is never stored). The directory is the caller's own, made from the token's identity, so
//! another user's upload id is simply not found; no material row names it until the last part, so
//! the material janitor sweeps an upload abandoned for longer than its grace period. A part is at
//! most `http.max_body_bytes` (the client sends 4 MiB); the finished file is streamed from the
//! parts into `original.{ext}`. One part of an upload is received at a time: a second sender (two
//! tabs resuming the same upload) is answered 423 while the first part is stored, through the
//! deployment's cache, which every gateway replica shares.

use std::sync::Arc;
use std::time::Duration;

use actix_web::http::StatusCode;
use actix_web::http::header::CONTENT_TYPE;
use actix_web::web::{Bytes, BytesMut};
use actix_web::{HttpRequest, HttpResponse, web};
use base64::Engine;
use futures::StreamExt;
use reelforge_kit::{BlobStore, Cache};
use serde::{Deserialize, Serialize};

use crate::caller::Caller;
use crate::limit::BodyLimit;
use crate::routes::material::Uploaded;
use crate::upload::{self, Refusal, UploadError};
use crate::{ApiError, AppState, caller, envelope};

/// The protocol version spoken.
const TUS_VERSION: &str = "1.0.0";
/// The content type of a part.
const PART_TYPE: &str = "application/offset+octet-stream";
/// `data.reason` of a part sent at another offset than the upload's.
pub const WRONG_OFFSET: &str = "wrong_offset";
/// `data.reason` of a part sent while another part of the same upload is being received.
pub const PART_IN_FLIGHT: &str = "part_in_flight";
/// Longest time a part's sender holds its upload: one that vanished without letting go (a process
/// killed mid-part) blocks the upload no longer than this.
const SENDING_TTL: Duration = Duration::from_secs(300);

/// The upload's one sender, held while its part is received and stored, let go when dropped.
struct Sending {
    cache: Arc<dyn Cache>,
    key: String,
}

impl Sending {
    /// Takes the upload in `dir` for one part; 423 while another sender holds it.
    async fn take(cache: &Arc<dyn Cache>, dir: &str) -> Result<Self, UploadError> {
        let key = format!("upload-sending:{dir}");
        let senders = cache.incr(&key, SENDING_TTL).await.map_err(|e| {
            tracing::error!(error = %e, "upload sender not counted");
            ApiError::NotAvailable("resumable uploads")
        })?;
        if senders > 1 {
            return Err(Refusal::new(PART_IN_FLIGHT, "Upload-Offset: another part of this upload is being received; ask where it stands (HEAD) once it is stored")
                .with_status(StatusCode::LOCKED)
                .into());
        }
        Ok(Self { cache: Arc::clone(cache), key })
    }
}

impl Drop for Sending {
    fn drop(&mut self) {
        let (cache, key) = (Arc::clone(&self.cache), std::mem::take(&mut self.key));
        // Also when the handler is dropped mid-part (the client went away).
        actix_web::rt::spawn(async move {
            if let Err(e) = cache.delete(&key).await {
                tracing::warn!(%key, error = %e, "upload sender not let go (it expires)");
            }
        });
    }
}

/// What an upload is, kept beside its parts.
#[derive(Debug, Serialize, Deserialize)]
struct Description {
    name: String,
    ext: String,
    length: u64,
}

/// One stored part: the bytes `start..end` of the file, at `key`.
#[derive(Debug, Clone, PartialEq, Eq)]
struct Part {
    start: u64,
    end: u64,
    key: String,
}

/// The upload's directory: the material directory it becomes.
fn directory(caller: &Caller, id: &uuid::Uuid) -> Result<String, ApiError> {
    let user = &caller.user()?.user_id;
    Ok(format!("{}{id}/", reelforge_kit::blob::user_material_prefix(&caller.tenant, user)))
}

fn parse_id(id: &str) -> Result<uuid::Uuid, ApiError> {
    uuid::Uuid::parse_str(id).map_err(|_| ApiError::NotFound)
}

fn storage(e: reelforge_kit::BlobError) -> ApiError {
    tracing::error!(error = %e, "resumable upload storage failed");
    ApiError::NotAvailable("storing uploads")
}

fn header<'a>(req: &'a HttpRequest, name: &str) -> Option<&'a str> {
    req.headers().get(name).and_then(|v| v.to_str().ok()).map(str::trim)
}

fn bad(status: StatusCode, reason: &'static str, desc: impl Into<String>) -> UploadError {
    Refusal::new(reason, desc).with_status(status).into()
}

/// The file name of `Upload-Metadata` (`filename <base64>`, pairs separated by commas).
fn file_name(metadata: &str) -> Option<String> {
    metadata.split(',').find_map(|pair| {
        let (key, value) = pair.trim().split_once(' ')?;
        if key != "filename" {
            return None;
        }
        let bytes = base64::engine::general_purpose::STANDARD.decode(value.trim()).ok()?;
        String::from_utf8(bytes).ok().filter(|n| !n.trim().is_empty())
    })
}

/// The parts that follow on from byte 0 without a gap, in order, and the offset they reach. A part
/// that overlaps the run (two sends of the same offset) is left out.
fn run_of(mut parts: Vec<Part>) -> (Vec<Part>, u64) {
    parts.sort_by_key(|p| (p.start, p.end));
    let mut offset = 0;
    let mut run = Vec::new();
    for part in parts {
        if part.start == offset && part.end > part.start {
            offset = part.end;
            run.push(part);
        }
    }
    (run, offset)
}

/// The part at `key`, named `{dir}parts/{start}-{end}`.
fn part_of(dir: &str, key: &str) -> Option<Part> {
    let (start, end) = key.strip_prefix(dir)?.strip_prefix("parts/")?.split_once('-')?;
    Some(Part { start: start.parse().ok()?, end: end.parse().ok()?, key: key.to_owned() })
}

/// The upload's description and stored run of parts; not found when there is no such upload.
async fn state_of(blob: &BlobStore, dir: &str) -> Result<(Description, Vec<Part>, u64), ApiError> {
    let description = match blob.get(&format!("{dir}upload.json")).await {
        Ok(bytes) => serde_json::from_slice::<Description>(&bytes).map_err(|_| ApiError::NotFound)?,
        Err(reelforge_kit::BlobError::NotFound(_)) => return Err(ApiError::NotFound),
        Err(e) => return Err(storage(e)),
    };
    let keys = blob.list(&format!("{dir}parts/")).await.map_err(storage)?;
    let (run, offset) = run_of(keys.iter().filter_map(|k| part_of(dir, k)).collect());
    Ok((description, run, offset))
}

/// Removes what an upload stored (its description and parts, not a finished original).
async fn remove(blob: &BlobStore, dir: &str) {
    let mut keys = blob.list(&format!("{dir}parts/")).await.unwrap_or_default();
    keys.push(format!("{dir}upload.json"));
    for key in keys {
        if let Err(e) = blob.delete(&key).await {
            tracing::warn!(%key, error = %e, "resumable upload object not removed (the janitor will)");
        }
    }
}

fn tus(mut res: actix_web::HttpResponseBuilder) -> actix_web::HttpResponseBuilder {
    res.insert_header(("Tus-Resumable", TUS_VERSION));
    res
}

fn media(state: &AppState) -> Result<&crate::media::Media, ApiError> {
    state.media.as_ref().ok_or(ApiError::NotAvailable("material files from this gateway"))
}

fn blob(state: &AppState) -> Result<BlobStore, ApiError> {
    Ok(media(state)?.blob().clone())
}

/// Opens an upload: `Upload-Length` (bytes) and `Upload-Metadata` (`filename`, base64) name the
/// file. Refused before anything is stored: an unknown type, a length beyond the type's limit or
/// the caller's quota. Answers 201 with `Location` and `data.uploadId`.
#[utoipa::path(post, path = "/diyvrbt/upload/resumable", responses((status = 201, description = "the upload was opened; Location names it"), (status = 413, description = "beyond the type's limit or the quota")))]
pub async fn create(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, UploadError> {
    let caller = caller::caller(&req, &state).await?;
    let length = header(&req, "upload-length")
        .and_then(|v| v.parse::<u64>().ok())
        .filter(|n| *n > 0)
        .ok_or_else(|| bad(StatusCode::BAD_REQUEST, "bad_length", "Upload-Length: the file's length in bytes is required (more than 0)"))?;
    let name = header(&req, "upload-metadata")
        .and_then(file_name)
        .ok_or_else(|| bad(StatusCode::BAD_REQUEST, "bad_metadata", "Upload-Metadata: the file's name (filename, base64) is required"))?;
    let ext = upload::extension(&name).ok_or_else(|| upload::unsupported(&[]).with_status(StatusCode::UNSUPPORTED_MEDIA_TYPE))?;
    let kind = upload::kind_of(&ext).ok_or_else(|| upload::unsupported(&[]).with_status(StatusCode::UNSUPPORTED_MEDIA_TYPE))?;
    let limits = upload::limits(&req);
    let limit = limits.limit_bytes(kind).ok_or_else(|| upload::unsupported(&[]).with_status(StatusCode::UNSUPPORTED_MEDIA_TYPE))?;
    if length > limit {
        return Err(upload::too_large(kind, limit).with_status(StatusCode::PAYLOAD_TOO_LARGE).into());
    }
    let usage = state.clients.material.clone().usage(caller.request(reelforge_proto::common::Empty {})?).await?;
    upload::fits_quota(&usage.into_inner().into(), length)?;
    let id = uuid::Uuid::new_v4();
    let dir = directory(&caller, &id)?;
    let description = Description { name, ext, length };
    let json = serde_json::to_vec(&description).map_err(|e| ApiError::BadRequest(format!("Upload-Metadata: {e}")))?;
    blob(&state)?.put(&format!("{dir}upload.json"), json).await.map_err(storage)?;
    let location = format!("{}/upload/resumable/{id}", crate::BASE);
    let body = envelope::Envelope { code: 2000, data: serde_json::json!({ "uploadId": id.to_string() }), desc: "upload opened".into() };
    Ok(tus(HttpResponse::Created()).insert_header(("Location", location)).insert_header(("Upload-Offset", "0")).json(body))
}

/// How much of an upload arrived: `Upload-Offset` and `Upload-Length`; 404 for an upload that is
/// not the caller's, finished or swept.
#[utoipa::path(head, path = "/diyvrbt/upload/resumable/{id}", params(("id" = String, Path, description = "the upload")), responses((status = 200, description = "Upload-Offset says how much arrived"), (status = 404, description = "no such upload of the caller's")))]
pub async fn offset(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, UploadError> {
    let id = parse_id(&id)?;
    let caller = caller::caller(&req, &state).await?;
    let (description, _, offset) = state_of(&blob(&state)?, &directory(&caller, &id)?).await?;
    Ok(tus(HttpResponse::Ok())
        .insert_header(("Upload-Offset", offset.to_string()))
        .insert_header(("Upload-Length", description.length.to_string()))
        .finish())
}

/// Appends a part (`Content-Type: application/offset+octet-stream`) at `Upload-Offset`, which must
/// be where the upload stands (409 otherwise, naming it), one part at a time (423 while another is
/// received). The first part must agree with the file's type. Answers 204 with the new
/// `Upload-Offset`; the part that completes the file makes the material and answers 200 with
/// `data: {materialId, duplicate}`.
#[utoipa::path(patch, path = "/diyvrbt/upload/resumable/{id}", params(("id" = String, Path, description = "the upload")), responses((status = 204, description = "the part was stored"), (status = 200, description = "the last part: the material was made"), (status = 409, description = "Upload-Offset is not where the upload stands"), (status = 423, description = "another part of the upload is being received")))]
pub async fn append(
    req: HttpRequest,
    id: web::Path<String>,
    mut payload: web::Payload,
    state: web::Data<AppState>,
) -> Result<HttpResponse, UploadError> {
    let id = parse_id(&id)?;
    let caller = caller::caller(&req, &state).await?;
    if header(&req, CONTENT_TYPE.as_str()) != Some(PART_TYPE) {
        return Err(bad(StatusCode::UNSUPPORTED_MEDIA_TYPE, "bad_content_type", format!("Content-Type: a part is sent as {PART_TYPE}")));
    }
    let blob = blob(&state)?;
    let dir = directory(&caller, &id)?;
    let _sending = Sending::take(media(&state)?.cache(), &dir).await?;
    let (description, run, offset) = state_of(&blob, &dir).await?;
    let at = header(&req, "upload-offset").and_then(|v| v.parse::<u64>().ok());
    if at != Some(offset) {
        let sent = at.map_or_else(|| "none".to_owned(), |n| n.to_string());
        return Err(Refusal::new(WRONG_OFFSET, format!("Upload-Offset: the upload stands at {offset}, not {sent}"))
            .with_status(StatusCode::CONFLICT)
            .with("offset", offset)
            .into());
    }
    let most = req.app_data::<web::Data<BodyLimit>>().map_or(8 * 1024 * 1024, |l| l.0).min(description.length - offset);
    let mut part = BytesMut::new();
    while let Some(chunk) = payload.next().await {
        let chunk = chunk.map_err(|e| ApiError::BadRequest(format!("body: {e}")))?;
        if (part.len() + chunk.len()) as u64 > most {
            return Err(bad(
                StatusCode::PAYLOAD_TOO_LARGE,
                "part_too_large",
                format!("body: a part here is at most {most} bytes (the rest of the file, and http.max_body_bytes)"),
            ));
        }
        part.extend_from_slice(&chunk);
    }
    let part: Bytes = part.freeze();
    if part.is_empty() {
        return Ok(tus(HttpResponse::NoContent()).insert_header(("Upload-Offset", offset.to_string())).finish());
    }
    if offset == 0 && upload::sniff(&description.ext, &part).is_none() {
        remove(&blob, &dir).await;
        return Err(upload::unsupported(&[]).with_status(StatusCode::UNSUPPORTED_MEDIA_TYPE).into());
    }
    let end = offset + part.len() as u64;
    let mut run = run;
    let key = format!("{dir}parts/{offset:016}-{end:016}");
    blob.put(&key, part).await.map_err(storage)?;
    run.push(Part { start: offset, end, key });
    if end < description.length {
        return Ok(tus(HttpResponse::NoContent()).insert_header(("Upload-Offset", end.to_string())).finish());
    }
    let made = finish(&state, &caller, &blob, &dir, &description, &run).await;
    remove(&blob, &dir).await;
    let made = made?;
    let data = serde_json::json!({ "materialId": made.id, "duplicate": made.duplicate });
    let desc = if made.duplicate { "素材已存在" } else { "素材添加成功" };
    Ok(tus(HttpResponse::Ok())
        .insert_header(("Upload-Offset", end.to_string()))
        .json(envelope::Envelope { code: 2000, data, desc: desc.into() }))
}

/// Joins the parts into the material's original and records it; on any failure the original is
/// removed (the material service removes it itself when it refuses the file).
async fn finish(
    state: &AppState,
    caller: &Caller,
    blob: &BlobStore,
    dir: &str,
    description: &Description,
    run: &[Part],
) -> Result<Uploaded, UploadError> {
    let key = format!("{dir}original.{}", description.ext);
    let mut writer = blob.writer(&key).await.map_err(storage)?;
    let joined = async {
        for part in run {
            writer.write(blob.get(&part.key).await?).await?;
        }
        writer.close().await
    }
    .await;
    if let Err(e) = joined {
        if let Err(a) = writer.abort().await {
            tracing::error!(%key, error = %a, "joined upload not cleaned up");
        }
        return Err(storage(e).into());
    }
    let kind = upload::kind_of(&description.ext).ok_or_else(|| upload::unsupported(&[]))?;
    let record = upload::Stored { key: key.clone(), kind, size: description.length, name: description.name.clone() }.record(-1, -1, 0);
    match state.clients.material.clone().record(caller.request(record)?).await {
        Ok(r) => {
            let r = r.into_inner();
            Ok(Uploaded { id: r.material.map(|m| m.material_id).unwrap_or_default(), duplicate: r.duplicate })
        }
        Err(s) => {
            let _ = blob.delete(&key).await;
            Err(UploadError::from(s))
        }
    }
}

/// Gives an upload up: its parts and description are removed (204); 404 for none of the caller's.
#[utoipa::path(delete, path = "/diyvrbt/upload/resumable/{id}", params(("id" = String, Path, description = "the upload")), responses((status = 204, description = "the upload was removed"), (status = 404, description = "no such upload of the caller's")))]
pub async fn terminate(req: HttpRequest, id: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, UploadError> {
    let id = parse_id(&id)?;
    let caller = caller::caller(&req, &state).await?;
    let blob = blob(&state)?;
    let dir = directory(&caller, &id)?;
    state_of(&blob, &dir).await?;
    remove(&blob, &dir).await;
    Ok(tus(HttpResponse::NoContent()).finish())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn part(start: u64, end: u64) -> Part {
        Part { start, end, key: format!("d/parts/{start:016}-{end:016}") }
    }

    #[test]
    fn the_run_follows_on_from_zero_and_stops_at_a_gap() {
        assert_eq!(run_of(vec![part(4, 8), part(0, 4), part(12, 16)]), (vec![part(0, 4), part(4, 8)], 8));
        assert_eq!(run_of(vec![part(4, 8)]), (vec![], 0));
        // A second send of the same offset (a retry) is left out of the run.
        assert_eq!(run_of(vec![part(0, 4), part(0, 6), part(4, 9), part(6, 9)]).1, 9);
    }

    #[test]
    fn parts_are_read_back_from_their_keys_only_in_their_directory() {
        assert_eq!(part_of("d/", "d/parts/0000000000000004-0000000000000008"), Some(part(4, 8)));
        assert_eq!(part_of("d/", "e/parts/0000000000000004-0000000000000008"), None);
        assert_eq!(part_of("d/", "d/parts/x-8"), None);
        assert_eq!(part_of("d/", "d/upload.json"), None);
    }

    #[test]
    fn the_file_name_comes_from_the_metadata() {
        let b64 = |s: &str| base64::engine::general_purpose::STANDARD.encode(s);
        assert_eq!(file_name(&format!("filetype {},filename {}", b64("video/mp4"), b64("晚霞.mp4"))), Some("晚霞.mp4".to_owned()));
        assert_eq!(file_name("filename"), None);
        assert_eq!(file_name(&format!("filename {}", b64("  "))), None);
        assert_eq!(file_name("filename !!!"), None);
    }
}
