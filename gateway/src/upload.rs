//! Streamed material uploads: a multipart file part goes to the blob store chunk by chunk (an S3
//! multipart upload for large files), never whole in memory. Its kind comes from its extension
//! and must agree with its first bytes; the material service then decodes it before recording it.
//! A body that is not multipart, or whose announced length is beyond the route's limit, is refused
//! before any byte of it is read, and so is an upload the caller's quota has no room for; an
//! over-size part is refused before anything is stored when the request's length already says so,
//! else aborted while streaming, leaving no object. Refusals
//! answer a stable `data.reason` beside the message, so clients word them in their own language.

use actix_multipart::{Field, Multipart, MultipartError};
use actix_web::http::StatusCode;
use actix_web::http::header::CONTENT_TYPE;
use actix_web::web::Bytes;
use actix_web::{HttpRequest, HttpResponse, ResponseError, mime, web};
use futures::StreamExt;
use reelforge_kit::BlobStore;
use reelforge_kit::config::UploadConfig;
use reelforge_kit::status::{DETAILS_METADATA, REASON_METADATA};

use crate::caller::Caller;
use crate::{ApiError, AppState, envelope};

/// Bytes of a multipart request beyond its files: the other fields and the boundaries.
pub const FORM_SLACK: u64 = 64 * 1024;
/// Bytes read before the kind is decided.
const HEAD: usize = 32;
/// Longest text field accepted.
const FIELD_LIMIT: usize = 4096;

/// The material kind of each accepted extension, in the order the refusal lists them; the
/// material service's `UPLOAD_EXTENSIONS` holds the same (a test compares them).
const EXTENSIONS: &[(&str, &str)] = &[
    ("jpg", "picture"),
    ("jpeg", "picture"),
    ("png", "picture"),
    ("bmp", "picture"),
    ("webp", "picture"),
    ("heic", "picture"),
    ("heif", "picture"),
    ("avif", "picture"),
    ("gif", "gif"),
    ("mp4", "video"),
    ("m4v", "video"),
    ("mov", "video"),
    ("mkv", "video"),
    ("webm", "video"),
    ("avi", "video"),
    ("mpeg", "video"),
    ("mpg", "video"),
    ("vob", "video"),
    ("wmv", "video"),
    ("3gp", "video"),
    ("mp3", "audio"),
    ("m4a", "audio"),
    ("aac", "audio"),
    ("wav", "audio"),
    ("ogg", "audio"),
    ("flac", "audio"),
    ("wma", "audio"),
    ("pptx", "pptx"),
];

/// `data.reason` of a file whose type is not accepted (`data.accepted` lists what is).
pub const UNSUPPORTED_FILE_TYPE: &str = "unsupported_file_type";
/// `data.reason` of a file or request over its size limit (`data.limitMb`).
pub const FILE_TOO_LARGE: &str = "file_too_large";
/// `data.reason` of an upload route's body that is not `multipart/form-data`.
pub const NOT_MULTIPART: &str = "not_multipart";
/// `data.reason` of an upload beyond the caller's or their tenant's quota (`data.usedBytes`,
/// `data.limitBytes`, `data.materials`, `data.limitMaterials` and the tenant's the same).
pub const QUOTA_EXCEEDED: &str = "quota_exceeded";
/// `data.reason` of a file whose content is not what its type says (cut short, corrupt).
pub const UNREADABLE_FILE: &str = "unreadable_file";

/// What the caller and their tenant keep and may keep; a limit of 0 is unlimited.
#[derive(Debug, Clone, Copy, PartialEq, Eq, serde::Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct Quota {
    /// Bytes of the caller's materials.
    pub used_bytes: u64,
    /// Bytes the caller may keep.
    pub limit_bytes: u64,
    /// The caller's materials.
    pub materials: u64,
    /// Materials the caller may keep.
    pub limit_materials: u64,
    /// Bytes of all the tenant's users' materials.
    pub tenant_used_bytes: u64,
    /// Bytes the tenant's users may keep together.
    pub tenant_limit_bytes: u64,
    /// Materials of all the tenant's users.
    pub tenant_materials: u64,
    /// Materials the tenant's users may keep together.
    pub tenant_limit_materials: u64,
}

impl From<reelforge_proto::material::UsageReply> for Quota {
    fn from(u: reelforge_proto::material::UsageReply) -> Self {
        Self {
            used_bytes: u.used_bytes,
            limit_bytes: u.limit_bytes,
            materials: u.materials,
            limit_materials: u.limit_materials,
            tenant_used_bytes: u.tenant_used_bytes,
            tenant_limit_bytes: u.tenant_limit_bytes,
            tenant_materials: u.tenant_materials,
            tenant_limit_materials: u.tenant_limit_materials,
        }
    }
}

impl Quota {
    /// Whether one more material of `bytes` would go beyond a quota.
    fn exceeded_by(&self, bytes: u64) -> bool {
        let over = |used: u64, more: u64, limit: u64| limit != 0 && used.saturating_add(more) > limit;
        over(self.used_bytes, bytes, self.limit_bytes)
            || over(self.materials, 1, self.limit_materials)
            || over(self.tenant_used_bytes, bytes, self.tenant_limit_bytes)
            || over(self.tenant_materials, 1, self.tenant_limit_materials)
    }

    /// The quota refusal naming this usage.
    fn refusal(&self, status: StatusCode) -> Refusal {
        let mut r = Refusal { status, ..Refusal::new(QUOTA_EXCEEDED, "quota exceeded: delete materials to make room") };
        if let Ok(serde_json::Value::Object(fields)) = serde_json::to_value(self) {
            r.details = fields;
        }
        r
    }
}

/// Refuses, before any byte is read, an upload that cannot fit the caller's or their tenant's
/// quota: one more material where the count is full, or a file whose announced length (less
/// the form around it) is beyond the bytes left. HTTP 413, in the envelope. The material service
/// checks again, exactly, when it records the file.
pub fn within_quota(req: &HttpRequest, quota: &Quota) -> Result<(), Refusal> {
    fits_quota(quota, announced(req).map_or(0, |n| n.saturating_sub(FORM_SLACK)))
}

/// Refuses one more material of `bytes` beyond the caller's or their tenant's quota (HTTP 413).
pub fn fits_quota(quota: &Quota, bytes: u64) -> Result<(), Refusal> {
    if quota.exceeded_by(bytes) { Err(quota.refusal(StatusCode::PAYLOAD_TOO_LARGE)) } else { Ok(()) }
}

/// A refused upload: answered in the envelope (code 3000) with `data.reason` and its details,
/// HTTP 200 like every business failure, or 413 when refused before the body is read.
#[derive(Debug)]
pub struct Refusal {
    status: StatusCode,
    reason: &'static str,
    desc: String,
    details: serde_json::Map<String, serde_json::Value>,
}

impl Refusal {
    /// A refusal with `reason` and the message `desc`, answered with HTTP 200.
    pub fn new(reason: &'static str, desc: impl Into<String>) -> Self {
        Self { status: StatusCode::OK, reason, desc: desc.into(), details: serde_json::Map::new() }
    }

    /// The refusal with `key` in its data.
    pub fn with(mut self, key: &str, value: impl Into<serde_json::Value>) -> Self {
        self.details.insert(key.to_owned(), value.into());
        self
    }

    /// The refusal of one of several files, `field` (`urls[1]`): named in its message and its data.
    pub fn naming(mut self, field: &str) -> Self {
        self.desc = format!("{field}: {}", self.desc);
        self.with("field", field)
    }

    /// The refusal answered with HTTP `status` (a protocol whose clients read statuses: tus).
    pub fn with_status(self, status: StatusCode) -> Self {
        Self { status, ..self }
    }
}

/// Why an upload route failed: a refusal with its reason, or any other API error.
#[derive(Debug, thiserror::Error)]
pub enum UploadError {
    /// The upload was refused; the envelope carries the reason.
    #[error("{}", .0.desc)]
    Refused(Box<Refusal>),
    /// Anything else.
    #[error(transparent)]
    Api(#[from] ApiError),
}

impl From<Refusal> for UploadError {
    fn from(r: Refusal) -> Self {
        Self::Refused(Box::new(r))
    }
}

impl From<tonic::Status> for UploadError {
    /// A refusal of the material service (its `x-reason` metadata) keeps its reason.
    /// Its numeric details (`x-details`) are answered beside the reason.
    fn from(s: tonic::Status) -> Self {
        let reason = s.metadata().get(REASON_METADATA).and_then(|v| v.to_str().ok()).and_then(service_reason);
        match reason {
            Some(reason) if s.code() == tonic::Code::InvalidArgument => {
                let mut r = Refusal::new(reason, s.message());
                let details = s.metadata().get(DETAILS_METADATA).and_then(|v| v.to_str().ok()).unwrap_or_default();
                for (key, value) in details.split(';').filter_map(|p| p.split_once('=')) {
                    if let Ok(n) = value.parse::<u64>() {
                        r = r.with(key, n);
                    }
                }
                r.into()
            }
            _ => Self::Api(ApiError::Service(s)),
        }
    }
}

/// The reasons the material service refuses uploads with, as the static strings this answers.
fn service_reason(reason: &str) -> Option<&'static str> {
    [UNREADABLE_FILE, "content_too_large", QUOTA_EXCEEDED].into_iter().find(|r| *r == reason)
}

impl ResponseError for UploadError {
    fn status_code(&self) -> StatusCode {
        match self {
            Self::Refused(r) => r.status,
            Self::Api(e) => e.status_code(),
        }
    }

    fn error_response(&self) -> HttpResponse {
        match self {
            Self::Refused(r) => {
                let mut data = serde_json::Map::new();
                data.insert("reason".into(), r.reason.into());
                data.extend(r.details.clone());
                envelope::refused(r.status, serde_json::Value::Object(data), &r.desc)
            }
            Self::Api(e) => e.error_response(),
        }
    }
}

/// The accepted extensions by kind (all kinds when `kinds` is empty), as `data.accepted` lists them.
fn accepted(kinds: &[&str]) -> serde_json::Map<String, serde_json::Value> {
    let mut by_kind = serde_json::Map::new();
    for (ext, kind) in EXTENSIONS.iter().filter(|(_, k)| kinds.is_empty() || kinds.contains(k)) {
        if let serde_json::Value::Array(list) = by_kind.entry(*kind).or_insert_with(|| serde_json::Value::Array(Vec::new())) {
            list.push((*ext).into());
        }
    }
    by_kind
}

/// The answer to a file that is not one of the accepted kinds (of `kinds`, all when empty): the
/// spec's message, naming the accepted extensions, which `data.accepted` lists by kind.
pub fn unsupported(kinds: &[&str]) -> Refusal {
    let names: Vec<&str> = EXTENSIONS.iter().filter(|(_, k)| kinds.is_empty() || kinds.contains(k)).map(|(e, _)| *e).collect();
    Refusal::new(UNSUPPORTED_FILE_TYPE, format!("unsupported file type; accepted: {}", names.join(", ")))
        .with("accepted", serde_json::Value::Object(accepted(kinds)))
}

/// The material kind of an accepted extension.
pub fn kind_of(ext: &str) -> Option<&'static str> {
    EXTENSIONS.iter().find(|(e, _)| *e == ext).map(|(_, k)| *k)
}

/// The kind of a file named with extension `ext` whose content starts with `head`, when the two
/// agree; `None` for anything else.
pub fn sniff(ext: &str, head: &[u8]) -> Option<&'static str> {
    let kind = kind_of(ext)?;
    let at = |i: usize, magic: &[u8]| head.get(i..i + magic.len()) == Some(magic);
    let iso_bmff = || [b"ftyp", b"moov", b"mdat", b"wide", b"free", b"skip"].iter().any(|b| at(4, *b));
    // A HEIF file's major brand: HEVC pictures and sequences, the generic image brands, AVIF.
    let heif_brand = || {
        at(4, b"ftyp")
            && [b"heic", b"heix", b"heim", b"heis", b"hevc", b"hevx", b"hevm", b"hevs", b"mif1", b"msf1", b"miaf", b"avif", b"avis"]
                .iter()
                .any(|b| at(8, *b))
    };
    let riff = |form: &[u8]| at(0, b"RIFF") && at(8, form);
    let mpeg_ps = || at(0, &[0, 0, 1, 0xBA]) || at(0, &[0, 0, 1, 0xB3]);
    let frame_sync = |mask: u8, want: u8| head.len() >= 2 && head[0] == 0xFF && head[1] & mask == want;
    let ok = match ext {
        "jpg" | "jpeg" => at(0, &[0xFF, 0xD8, 0xFF]),
        "png" => at(0, b"\x89PNG\r\n\x1a\n"),
        "bmp" => at(0, b"BM"),
        "webp" => riff(b"WEBP"),
        "heic" | "heif" | "avif" => heif_brand(),
        "gif" => at(0, b"GIF87a") || at(0, b"GIF89a"),
        "mp4" | "m4v" | "mov" | "3gp" | "m4a" => iso_bmff(),
        "mpeg" | "mpg" | "vob" => mpeg_ps() || at(0, &[0x47]),
        "avi" => riff(b"AVI "),
        "wav" => riff(b"WAVE"),
        "wmv" | "wma" => at(0, &[0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]),
        // EBML: Matroska and WebM.
        "mkv" | "webm" => at(0, &[0x1A, 0x45, 0xDF, 0xA3]),
        // An ID3 tag, or an MPEG audio frame header (sync bits, layer not 0).
        "mp3" => at(0, b"ID3") || (frame_sync(0xE0, 0xE0) && head[1] & 0x06 != 0),
        // ADIF, an ADTS frame header (sync bits, layer 0), or an ID3 tag before it.
        "aac" => at(0, b"ADIF") || at(0, b"ID3") || frame_sync(0xF6, 0xF0),
        "ogg" => at(0, b"OggS"),
        "flac" => at(0, b"fLaC") || at(0, b"ID3"),
        "pptx" => at(0, b"PK\x03\x04"),
        _ => false,
    };
    ok.then_some(kind)
}

/// The lower-case extension of a file name, if it has a plausible one.
pub fn extension(name: &str) -> Option<String> {
    let (_, ext) = name.rsplit_once('.')?;
    let ext = ext.to_ascii_lowercase();
    (!ext.is_empty() && ext.len() <= 8 && ext.bytes().all(|b| b.is_ascii_alphanumeric())).then_some(ext)
}

/// The request's announced `Content-Length`, if it has one.
pub fn announced(req: &HttpRequest) -> Option<u64> {
    req.headers().get("content-length").and_then(|v| v.to_str().ok()).and_then(|v| v.trim().parse::<u64>().ok())
}

/// The answer to a request whose files together are beyond `limit` bytes.
pub fn request_too_large(limit: u64) -> Refusal {
    let mb = limit.div_ceil(1024 * 1024);
    Refusal::new(FILE_TOO_LARGE, format!("request too large: this route takes at most {mb} MB")).with("limitMb", mb)
}

/// Refuses a request whose announced length is beyond `limit` bytes (a route's largest body),
/// before any of it is read: HTTP 413, in the envelope.
pub fn within(req: &HttpRequest, limit: u64) -> Result<(), Refusal> {
    match announced(req) {
        Some(n) if n > limit => Err(Refusal { status: StatusCode::PAYLOAD_TOO_LARGE, ..request_too_large(limit) }),
        _ => Ok(()),
    }
}

/// The largest body `/upload/material` takes: the largest kind's file and the form around it.
pub fn single_limit(limits: &UploadConfig) -> u64 {
    EXTENSIONS.iter().filter_map(|(_, k)| limits.limit_bytes(k)).max().unwrap_or(0).saturating_add(FORM_SLACK)
}

/// The upload limits configured, or the defaults.
pub fn limits(req: &HttpRequest) -> UploadConfig {
    req.app_data::<web::Data<UploadConfig>>().map(|c| c.get_ref().clone()).unwrap_or_default()
}

/// A multipart body read part by part; it ends at its first error, so nothing polls the parser
/// after it has failed (actix-multipart panics when polled again).
pub struct Form {
    parts: Multipart,
    done: bool,
}

/// The multipart body of `req`, or a refusal when the body is not `multipart/form-data`.
pub fn form(req: &HttpRequest, payload: web::Payload) -> Result<Form, Refusal> {
    let multipart = req
        .headers()
        .get(CONTENT_TYPE)
        .and_then(|v| v.to_str().ok())
        .and_then(|v| v.parse::<mime::Mime>().ok())
        .is_some_and(|m| m.type_() == mime::MULTIPART && m.subtype() == mime::FORM_DATA && m.get_param(mime::BOUNDARY).is_some());
    if !multipart {
        return Err(Refusal::new(NOT_MULTIPART, "body: must be multipart/form-data with a boundary"));
    }
    Ok(Form { parts: Multipart::new(req.headers(), payload), done: false })
}

impl Form {
    /// The next part; `None` after the last one or after the first error.
    pub async fn next(&mut self) -> Option<Result<Field, MultipartError>> {
        if self.done {
            return None;
        }
        let next = self.parts.next().await;
        if !matches!(next, Some(Ok(_))) {
            self.done = true;
        }
        next
    }

    /// Reads and discards the rest of the body, so a refusal is answered on a connection the
    /// browser is still writing to, instead of resetting it.
    pub async fn drain(&mut self) {
        while let Some(Ok(mut field)) = self.next().await {
            while let Some(Ok(_)) = field.next().await {}
        }
    }
}

/// A file stored from an upload.
#[derive(Debug, Clone)]
pub struct Stored {
    /// Where: `{prefix}{uuid}/{file}.{ext}`.
    pub key: String,
    /// The material kind.
    pub kind: &'static str,
    /// Bytes stored.
    pub size: u64,
    /// The file name the browser gave (a display name only).
    pub name: String,
}

impl Stored {
    /// The material service's record of this file as the caller's own material, in `category_id`
    /// and `style_id` (-1: none) with `open_state`; named by its file name, else `upload.{kind}`.
    pub fn record(&self, category_id: i64, style_id: i64, open_state: i32) -> reelforge_proto::material::RecordMaterialRequest {
        let name = if self.name.trim().is_empty() { format!("upload.{}", self.kind) } else { self.name.clone() };
        reelforge_proto::material::RecordMaterialRequest {
            key: self.key.clone(),
            r#type: self.kind.to_owned(),
            name,
            file_size: self.size,
            category_id,
            style_id,
            open_state,
            system: false,
        }
    }
}

/// Records the object the gateway stored at `record.key` as the caller's material and answers its
/// id; when the record is refused or its answer is lost the object is removed (the service removes
/// it itself when it refuses, so the delete may find nothing).
pub async fn record_own(state: &AppState, caller: &Caller, blob: &BlobStore, record: reelforge_proto::material::RecordMaterialRequest) -> Result<String, ApiError> {
    let key = record.key.clone();
    match state.clients.material.clone().record(caller.request(record)?).await {
        Ok(r) => Ok(r.into_inner().material.map(|m| m.material_id).unwrap_or_default()),
        Err(s) => {
            let _ = blob.delete(&key).await;
            Err(s.into())
        }
    }
}

/// Reads a text field of at most [`FIELD_LIMIT`] bytes.
pub async fn text(field: &mut Field) -> Result<String, ApiError> {
    let name = field.name().unwrap_or_default().to_owned();
    let mut out = Vec::new();
    while let Some(chunk) = field.next().await {
        let chunk = chunk.map_err(|e| ApiError::BadRequest(format!("{name}: {e}")))?;
        if out.len() + chunk.len() > FIELD_LIMIT {
            return Err(ApiError::BadRequest(format!("{name}: longer than {FIELD_LIMIT} bytes")));
        }
        out.extend_from_slice(&chunk);
    }
    String::from_utf8(out).map_err(|_| ApiError::BadRequest(format!("{name}: not UTF-8 text")))
}

/// What one stored file must be.
pub struct Rules<'a> {
    /// Per-kind size limits.
    pub limits: &'a UploadConfig,
    /// Kinds accepted here (all when empty).
    pub kinds: &'a [&'static str],
    /// The request's Content-Length, when the file is its only large part.
    pub announced: Option<u64>,
}

/// The refusal of a file of `kind` beyond its `limit` bytes.
pub fn too_large(kind: &str, limit: u64) -> Refusal {
    let mb = limit / (1024 * 1024);
    Refusal::new(FILE_TOO_LARGE, format!("file too large: {kind} limit is {mb} MB")).with("kind", kind).with("limitMb", mb)
}

/// Streams the file part `field` into `blob` under `{dir}{file}.{ext}`, checking its kind and size;
/// on any failure nothing remains stored.
pub async fn store(field: &mut Field, blob: &BlobStore, dir: &str, file: &str, rules: &Rules<'_>) -> Result<Stored, UploadError> {
    let name = field
        .content_disposition()
        .and_then(|d| d.get_filename())
        .map(str::to_owned)
        .unwrap_or_default();
    let mut chunks = field.map(|c| c.map_err(|e| UploadError::from(ApiError::BadRequest(format!("uploadFile: {e}")))));
    store_stream(&mut chunks, name, blob, dir, file, rules).await
}

/// [`store`] for a file named `name` whose bytes come from `chunks` (a part of a form, a download):
/// the same sniffing of its kind from its first bytes, the same limits; on any failure nothing
/// remains stored.
pub async fn store_stream<S>(chunks: &mut S, name: String, blob: &BlobStore, dir: &str, file: &str, rules: &Rules<'_>) -> Result<Stored, UploadError>
where
    S: futures::Stream<Item = Result<Bytes, UploadError>> + Unpin,
{
    let ext = extension(&name).ok_or_else(|| unsupported(rules.kinds))?;
    let mut head = Vec::with_capacity(HEAD);
    let mut pending: Vec<Bytes> = Vec::new();
    while head.len() < HEAD {
        match chunks.next().await {
            Some(chunk) => {
                let chunk = chunk?;
                head.extend_from_slice(&chunk[..chunk.len().min(HEAD - head.len())]);
                pending.push(chunk);
            }
            None => break,
        }
    }
    let kind = sniff(&ext, &head).ok_or_else(|| unsupported(rules.kinds))?;
    if !rules.kinds.is_empty() && !rules.kinds.contains(&kind) {
        return Err(unsupported(rules.kinds).into());
    }
    let limit = rules.limits.limit_bytes(kind).ok_or_else(|| unsupported(rules.kinds))?;
    if rules.announced.is_some_and(|n| n > limit.saturating_add(FORM_SLACK)) {
        return Err(too_large(kind, limit).into());
    }
    let key = format!("{dir}{file}.{ext}");
    let mut writer = blob.writer(&key).await.map_err(storage)?;
    match copy(chunks, &mut writer, pending, kind, limit).await {
        Ok(size) => Ok(Stored { key, kind, size, name }),
        Err(e) => {
            if let Err(a) = writer.abort().await {
                tracing::error!(%key, error = %a, "aborted upload not cleaned up");
            }
            Err(e)
        }
    }
}

async fn copy<S: futures::Stream<Item = Result<Bytes, UploadError>> + Unpin>(
    chunks: &mut S,
    writer: &mut reelforge_kit::blob::BlobWriter,
    pending: Vec<Bytes>,
    kind: &str,
    limit: u64,
) -> Result<u64, UploadError> {
    let mut size = 0u64;
    for chunk in pending {
        size += chunk.len() as u64;
        writer.write(chunk).await.map_err(storage)?;
    }
    while let Some(chunk) = chunks.next().await {
        let chunk = chunk?;
        size += chunk.len() as u64;
        if size > limit {
            return Err(too_large(kind, limit).into());
        }
        writer.write(chunk).await.map_err(storage)?;
    }
    if size > limit {
        return Err(too_large(kind, limit).into());
    }
    writer.close().await.map_err(storage)?;
    Ok(size)
}

fn storage(e: reelforge_kit::BlobError) -> ApiError {
    tracing::error!(error = %e, "upload storage failed");
    ApiError::NotAvailable("storing uploads")
}

/// The text fields of a system material's upload.
#[derive(Debug, Default)]
struct SystemForm {
    category_id: Option<i64>,
    style_id: Option<i64>,
    name: Option<String>,
}

impl SystemForm {
    fn set(&mut self, name: &str, value: &str) -> Result<(), ApiError> {
        let value = value.trim();
        let number = || value.parse::<i64>().map_err(|_| ApiError::BadRequest(format!("{name}: `{value}` is not a number")));
        match name {
            "categoryId" => self.category_id = Some(number()?),
            "styleId" if !value.is_empty() => self.style_id = Some(number()?),
            "materialName" if !value.is_empty() => self.name = Some(value.to_owned()),
            _ => {}
        }
        Ok(())
    }
}

/// Where a system material goes: a fixed category (the music library), or the form's
/// `categoryId`, which must then come before the file.
pub enum SystemCategory {
    /// Always this category; the form's `categoryId` and `styleId` are ignored.
    Fixed(i64),
    /// The form's `categoryId` (required) and `styleId` (-1 when absent).
    FromForm,
}

/// Reads a multipart upload of one system material of the caller's tenant (text fields, then
/// `uploadFile`), stores it under the tenant's system prefix with `rules`, and records it offered
/// to every user (named by `materialName`, else the file's name, else `{stem}.{ext}`); answers
/// its id. A refusal drains the rest of the body; the material service removes the object when
/// it refuses the file.
pub async fn system_material(
    req: &HttpRequest,
    payload: web::Payload,
    state: &AppState,
    caller: &Caller,
    rules: &Rules<'_>,
    category: SystemCategory,
    stem: &str,
) -> Result<String, UploadError> {
    let blob = state.media.as_ref().ok_or(ApiError::NotAvailable("material files from this gateway"))?.blob().clone();
    let mut multipart = form(req, payload)?;
    let mut fields = SystemForm::default();
    let read = async {
        while let Some(field) = multipart.next().await {
            let mut field = field.map_err(|e| ApiError::BadRequest(format!("body: {e}")))?;
            if field.name() != Some("uploadFile") {
                let name = field.name().unwrap_or_default().to_owned();
                let value = text(&mut field).await?;
                if name == "materialName" || matches!(category, SystemCategory::FromForm) {
                    fields.set(&name, &value)?;
                }
                continue;
            }
            if matches!(category, SystemCategory::FromForm) && fields.category_id.is_none() {
                return Err(ApiError::BadRequest("categoryId: required before uploadFile".into()).into());
            }
            let dir = format!("{}{}/", reelforge_kit::blob::system_material_prefix(&caller.tenant), uuid::Uuid::new_v4());
            return store(&mut field, &blob, &dir, "original", rules).await;
        }
        Err(ApiError::BadRequest("uploadFile: no file sent".into()).into())
    }
    .await;
    let file = match read {
        Ok(file) => file,
        Err(e) => {
            multipart.drain().await;
            return Err(e);
        }
    };
    let (category_id, style_id) = match category {
        SystemCategory::Fixed(id) => (id, -1),
        SystemCategory::FromForm => (fields.category_id.unwrap_or(-1), fields.style_id.unwrap_or(-1)),
    };
    let name = fields.name.unwrap_or_else(|| if file.name.trim().is_empty() { format!("{stem}.{}", file.kind) } else { file.name.clone() });
    let record = reelforge_proto::material::RecordMaterialRequest {
        key: file.key,
        r#type: file.kind.to_owned(),
        name,
        file_size: file.size,
        category_id,
        style_id,
        open_state: 1,
        system: true,
    };
    let r = state.clients.material.clone().record(caller.request(record)?).await?.into_inner();
    Ok(r.material.map(|m| m.material_id).unwrap_or_default())
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn kinds_need_extension_and_content_to_agree() {
        assert_eq!(sniff("png", b"\x89PNG\r\n\x1a\n0000"), Some("picture"));
        assert_eq!(sniff("jpg", &[0xFF, 0xD8, 0xFF, 0xE0]), Some("picture"));
        assert_eq!(sniff("mp4", b"\0\0\0\x20ftypisom"), Some("video"));
        assert_eq!(sniff("wav", b"RIFF\0\0\0\0WAVEfmt "), Some("audio"));
        assert_eq!(sniff("mp3", b"ID3\x04"), Some("audio"));
        assert_eq!(sniff("gif", b"GIF89a"), Some("gif"));
        assert_eq!(sniff("pptx", b"PK\x03\x04"), Some("pptx"));
        assert_eq!(sniff("png", b"MZ\x90\0"), None, "a renamed .exe");
        assert_eq!(sniff("exe", b"MZ\x90\0"), None);
        assert_eq!(sniff("mp4", b"\x89PNG\r\n\x1a\n"), None, "a picture named .mp4");
        assert_eq!(sniff("wav", b"RIFF\0\0\0\0AVI "), None);
        assert_eq!(sniff("png", b""), None, "an empty file");
    }

    #[test]
    fn the_common_formats_are_sniffed() {
        assert_eq!(sniff("mkv", &[0x1A, 0x45, 0xDF, 0xA3, 0x9F]), Some("video"));
        assert_eq!(sniff("m4v", b"\0\0\0\x1cftypM4V "), Some("video"));
        assert_eq!(sniff("mov", b"\0\0\0\x14ftypqt  "), Some("video"));
        assert_eq!(sniff("webp", b"RIFF\0\0\0\0WEBPVP8 "), Some("picture"));
        assert_eq!(sniff("heic", b"\0\0\0\x1cftypheic\0\0\0\0mif1heic"), Some("picture"));
        assert_eq!(sniff("heif", b"\0\0\0\x1cftypmif1\0\0\0\0mif1heic"), Some("picture"));
        assert_eq!(sniff("avif", b"\0\0\0\x1cftypavif\0\0\0\0avifmif1"), Some("picture"));
        assert_eq!(sniff("ogg", b"OggS\0\x02"), Some("audio"));
        assert_eq!(sniff("flac", b"fLaC\0\0\0\x22"), Some("audio"));
        assert_eq!(sniff("heic", b"\0\0\0\x20ftypisom"), None, "an MP4 named .heic");
        assert_eq!(sniff("webp", b"RIFF\0\0\0\0WAVEfmt "), None, "a WAV named .webp");
        assert_eq!(sniff("mkv", b"OggS"), None);
    }

    #[test]
    fn the_accepted_list_is_the_material_service_s() {
        let mut ours: Vec<(&str, &str)> = EXTENSIONS.to_vec();
        let mut theirs: Vec<(&str, &str)> = reelforge_material::domain::UPLOAD_EXTENSIONS
            .iter()
            .flat_map(|(kind, exts)| exts.iter().map(move |e| (*e, kind.as_str())))
            .collect();
        ours.sort_unstable();
        theirs.sort_unstable();
        assert_eq!(ours, theirs);
    }

    #[test]
    fn a_refused_type_names_the_accepted_ones() {
        let r = unsupported(&["picture"]);
        assert_eq!(r.reason, UNSUPPORTED_FILE_TYPE);
        assert_eq!(r.desc, "unsupported file type; accepted: jpg, jpeg, png, bmp, webp, heic, heif, avif");
        assert_eq!(serde_json::Value::Object(r.details), serde_json::json!({"accepted": {"picture": ["jpg", "jpeg", "png", "bmp", "webp", "heic", "heif", "avif"]}}));
        let all = unsupported(&[]);
        let accepted = all.details.get("accepted").and_then(|a| a.as_object()).map(|a| a.keys().cloned().collect::<Vec<_>>());
        assert_eq!(accepted, Some(vec!["picture".into(), "gif".into(), "video".into(), "audio".into(), "pptx".into()]));
    }

    /// A fuzz harness (kit's `testing::fuzz`): a file name and real heads of every accepted
    /// format, mutated. An extension is the name's own, plain and short; a sniffed kind is the
    /// kind of the extension, and is decided by the first `HEAD` bytes.
    #[test]
    fn sniffing_fuzz() -> Result<(), String> {
        let heads: [(&str, &[u8]); 17] = [
            ("a.png", b"\x89PNG\r\n\x1a\n\0\0\0\rIHDR\0\0\0\x10\0\0\0\x10\x08\x06\0\0\0"),
            ("a.JPG", b"\xff\xd8\xff\xe0\0\x10JFIF\0\x01\x01\0\0\x01\0\x01\0\0"),
            ("a.gif", b"GIF89a\x10\0\x10\0\xf0\0\0"),
            ("a.webp", b"RIFF\x24\0\0\0WEBPVP8L\x18\0\0\0\x2f"),
            ("a.heic", b"\0\0\0\x18ftypheic\0\0\0\0mif1heic"),
            ("a.avif", b"\0\0\0\x1cftypavif\0\0\0\0avifmif1miaf"),
            ("clip.mp4", b"\0\0\0\x20ftypisom\0\0\x02\0isomiso2avc1mp41"),
            ("clip.mov", b"\0\0\0\x14ftypqt  \0\0\0\0qt  \0\0\0\x08wide"),
            ("clip.mkv", b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\xf7\x81\x01\x42\x82\x88matroska"),
            ("clip.webm", b"\x1a\x45\xdf\xa3\x9f\x42\x86\x81\x01\x42\x82\x84webm"),
            ("clip.avi", b"RIFF\0\x10\0\0AVI LIST"),
            ("clip.mpg", b"\0\0\x01\xba\x44\0\x04\0\x04\x01"),
            ("clip.wmv", b"\x30\x26\xb2\x75\x8e\x66\xcf\x11\xa6\xd9\0\xaa\0\x62\xce\x6c"),
            ("a.wav", b"RIFF\x24\0\0\0WAVEfmt "),
            ("a.mp3", b"ID3\x04\0\0\0\0\0\x21\xff\xfb\x90\x64"),
            ("a.flac", b"fLaC\0\0\0\x22"),
            ("deck.pptx", b"PK\x03\x04\x14\0\x06\0\x08\0\0\0!\0"),
        ];
        let seeds = heads.iter().map(|(name, head)| [name.as_bytes(), b"\0", head].concat()).collect();
        let words: Vec<&[u8]> = EXTENSIONS.iter().map(|(e, _)| e.as_bytes()).chain([b".".as_slice(), b"\0", b"ftyp", b"RIFF", b"ID3", b"\xff\xfb"]).collect();
        reelforge_kit::testing::fuzz::Fuzz::new("upload-sniff", seeds).dictionary(&words).cases(5000).run(|bytes| {
            let (name, head) = bytes.iter().position(|b| *b == 0).map_or((bytes, &[][..]), |i| (&bytes[..i], &bytes[i + 1..]));
            let name = String::from_utf8_lossy(name);
            let Some(ext) = extension(&name) else { return Ok(()) };
            let plain = (1..=8).contains(&ext.len()) && ext.bytes().all(|b| b.is_ascii_lowercase() || b.is_ascii_digit());
            if !plain || !name.to_ascii_lowercase().ends_with(&format!(".{ext}")) {
                return Err(format!("`{name}` has the extension `{ext}`"));
            }
            let kind = sniff(&ext, head);
            if kind.is_some_and(|k| !EXTENSIONS.contains(&(ext.as_str(), k))) {
                return Err(format!("`{ext}` sniffed as {kind:?}"));
            }
            if kind != sniff(&ext, &head[..head.len().min(HEAD)]) {
                return Err(format!("`{ext}` sniffed beyond the first {HEAD} bytes"));
            }
            Ok(())
        })?;
        Ok(())
    }

    #[test]
    fn quotas_refuse_what_cannot_fit() {
        let q = Quota { used_bytes: 90, limit_bytes: 100, materials: 1, limit_materials: 2, ..Quota::from(reelforge_proto::material::UsageReply::default()) };
        assert!(!q.exceeded_by(10) && q.exceeded_by(11));
        assert!(Quota { materials: 2, ..q }.exceeded_by(0), "no room for one more material");
        assert!(!Quota { limit_bytes: 0, limit_materials: 0, ..q }.exceeded_by(u64::MAX), "0 is unlimited");
        assert!(Quota { tenant_used_bytes: 5, tenant_limit_bytes: 10, ..q }.exceeded_by(6));
        let r = q.refusal(StatusCode::PAYLOAD_TOO_LARGE);
        assert_eq!((r.reason, r.details.get("usedBytes")), (QUOTA_EXCEEDED, Some(&serde_json::json!(90))));
    }

    #[test]
    fn extensions_are_plain() {
        assert_eq!(extension("a.B.PNG").as_deref(), Some("png"));
        assert_eq!(extension("noext"), None);
        assert_eq!(extension("x.p/ng"), None);
    }
}

