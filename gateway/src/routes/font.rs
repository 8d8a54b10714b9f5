//! Fonts: `GET /font/ofdefault`, `GET /font/ofuseranddefault/{id}`, `POST /font/upload`,
//! `POST|DELETE /font/delete`, `GET /font/file/{id}` and `POST /font/test`.

use actix_web::http::header::{CACHE_CONTROL, CONTENT_TYPE};
use actix_web::{HttpRequest, HttpResponse, web};
use futures::StreamExt;
use reelforge_proto::common::Empty;
use reelforge_proto::font as pb;
use serde::{Deserialize, Serialize};

use crate::upload::{self, UploadError};
use crate::{ApiError, AppState, body, caller, envelope};

/// Largest font file accepted, in bytes; the font service checks the same limit again.
pub const MAX_FONT_BYTES: usize = 30 * 1024 * 1024;

/// Largest non-file multipart field (an id, a user id), in bytes.
const MAX_FIELD_BYTES: usize = 4 * 1024;

/// A font as the browser reads it.
#[derive(Serialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct FontDto {
    id: String,
    name: String,
    #[serde(rename = "nameCN")]
    name_cn: String,
    style: String,
    /// Whether it is a system font (else the caller's upload).
    system: bool,
    format: String,
    /// Where the browser fetches the file: a route of this API, never a path on a disk.
    relative_path: String,
}

fn dto(f: pb::Font) -> FontDto {
    FontDto {
        relative_path: format!("/font/file/{}", f.id),
        id: f.id,
        name: f.name,
        name_cn: f.name_cn,
        style: f.style,
        system: f.system,
        format: f.format,
    }
}

/// The system fonts.
#[utoipa::path(get, path = "/diyvrbt/font/ofdefault", responses((status = 200, body = [FontDto])))]
pub async fn of_default(req: HttpRequest, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::anonymous(&req, &state)?;
    let fonts = state.clients.font.clone().defaults(caller.request(Empty {})?).await?.into_inner();
    Ok(envelope::ok(fonts.fonts.into_iter().map(dto).collect::<Vec<_>>()))
}

/// The caller's uploaded fonts (newest first), then the system fonts; `{id}` must be the caller.
#[utoipa::path(get, path = "/diyvrbt/font/ofuseranddefault/{id}", responses((status = 200, body = [FontDto])))]
pub async fn of_user_and_default(req: HttpRequest, path: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let fonts = state.clients.font.clone().of_user_and_default(caller.request(pb::OfUserRequest { user_id: path.into_inner() })?).await?.into_inner();
    Ok(envelope::ok(fonts.fonts.into_iter().map(dto).collect::<Vec<_>>()))
}

/// The fields of a font multipart body.
#[derive(Default)]
struct FontForm {
    file: Option<(String, Vec<u8>)>,
    id: Option<String>,
}

/// Reads a multipart body: the `file` field up to [`MAX_FONT_BYTES`] (refused as soon as it grows
/// past it), `id` as text; other fields (the legacy client's `userId`, `token`) are read and ignored,
/// since identity comes from the token alone.
async fn read_form(mut mp: upload::Form) -> Result<FontForm, ApiError> {
    let mut form = FontForm::default();
    while let Some(field) = mp.next().await {
        let mut field = field.map_err(|e| ApiError::BadRequest(format!("multipart: {e}")))?;
        let name = field.name().unwrap_or_default().to_owned();
        let file_name = field.content_disposition().and_then(|cd| cd.get_filename()).unwrap_or_default().to_owned();
        let limit = if name == "file" { MAX_FONT_BYTES } else { MAX_FIELD_BYTES };
        let mut data = Vec::new();
        while let Some(chunk) = field.next().await {
            let chunk = chunk.map_err(|e| ApiError::BadRequest(format!("multipart: {e}")))?;
            if data.len() + chunk.len() > limit {
                return Err(ApiError::BadRequest(if name == "file" {
                    format!("file: larger than {} MB", MAX_FONT_BYTES / 1024 / 1024)
                } else {
                    format!("{name}: longer than {MAX_FIELD_BYTES} bytes")
                }));
            }
            data.extend_from_slice(&chunk);
        }
        match name.as_str() {
            "file" => form.file = Some((file_name, data)),
            "id" => form.id = Some(String::from_utf8(data).map_err(|_| ApiError::BadRequest("id: not text".into()))?),
            _ => {}
        }
    }
    Ok(form)
}

/// Uploads a font file (multipart field `file`, a .ttf or .otf); the file is parsed before anything
/// is stored.
#[utoipa::path(post, path = "/diyvrbt/font/upload", responses((status = 200, body = FontDto), (status = 413, description = "the announced body is larger than a font")))]
pub async fn upload(req: HttpRequest, payload: web::Payload, state: web::Data<AppState>) -> Result<HttpResponse, UploadError> {
    upload::within(&req, MAX_FONT_BYTES as u64 + upload::FORM_SLACK)?;
    let caller = caller::caller(&req, &state).await?;
    let form = read_form(upload::form(&req, payload)?).await?;
    let (file_name, data) = form.file.ok_or_else(|| ApiError::BadRequest("file: missing (multipart field `file`)".into()))?;
    let font = state.clients.font.clone().upload(caller.request(pb::UploadFontRequest { file_name, data })?).await.map_err(ApiError::Service)?.into_inner();
    Ok(envelope::ok_with(dto(font), "上传成功"))
}

/// Body of delete when it is not multipart.
#[derive(Deserialize, utoipa::ToSchema)]
pub struct DeleteBody {
    id: String,
}

/// Deletes one of the caller's fonts (`id` as a multipart field, a form or JSON).
#[utoipa::path(post, path = "/diyvrbt/font/delete", request_body = DeleteBody, responses((status = 200)))]
pub async fn delete(req: HttpRequest, payload: web::Payload, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let caller = caller::caller(&req, &state).await?;
    let is_multipart = req.headers().get(CONTENT_TYPE).and_then(|v| v.to_str().ok()).is_some_and(|ct| ct.starts_with("multipart/"));
    let id = if is_multipart {
        read_form(upload::form(&req, payload).map_err(|_| ApiError::BadRequest("body: a multipart body needs its boundary".into()))?).await?.id
    } else {
        let bytes = payload.to_bytes_limited(MAX_FIELD_BYTES).await.map_err(|_| ApiError::BadRequest("body: too long".into()))?.map_err(|e| ApiError::BadRequest(format!("body: {e}")))?;
        Some(body::parse::<DeleteBody>(&req, &bytes)?.id)
    };
    let id = id.filter(|i| !i.trim().is_empty()).ok_or_else(|| ApiError::BadRequest("id: missing".into()))?;
    state.clients.font.clone().delete(caller.request(pb::FontIdRequest { id })?).await?;
    Ok(envelope::ok_with(serde_json::Value::Null, "删除成功"))
}

/// The font file for the browser to draw the same face: system fonts to anyone, an upload to its
/// owner only. Fonts never change under an id, so the browser may keep them a day.
#[utoipa::path(get, path = "/diyvrbt/font/file/{id}", responses((status = 200, content_type = "font/ttf")))]
pub async fn file(req: HttpRequest, path: web::Path<String>, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let id = path.into_inner();
    let system = id.starts_with("sys-");
    let caller = if system { caller::anonymous(&req, &state)? } else { caller::caller(&req, &state).await? };
    let mut stream = state.clients.font.clone().file(caller.request(pb::FontIdRequest { id })?).await?.into_inner();
    // The first chunk decides the answer: an error before it is an envelope, not a broken file.
    let first = stream.message().await?.ok_or_else(|| ApiError::BadRequest("font file: empty".into()))?;
    let content_type = if first.content_type.is_empty() { "application/octet-stream".to_owned() } else { first.content_type.clone() };
    let rest = stream.map(|c| c.map(|c| web::Bytes::from(c.data)).map_err(|s| actix_web::error::ErrorInternalServerError(s.message().to_owned())));
    let body = futures::stream::once(async move { Ok::<_, actix_web::Error>(web::Bytes::from(first.data)) }).chain(rest);
    let cache = if system { "public, max-age=86400" } else { "private, max-age=86400" };
    let mut answer = HttpResponse::Ok();
    answer.insert_header((CONTENT_TYPE, content_type)).insert_header((CACHE_CONTROL, cache));
    if first.total_size > 0 {
        answer.no_chunking(first.total_size);
    }
    Ok(answer.streaming(body))
}

/// Body of the glyph test.
#[derive(Deserialize, utoipa::ToSchema)]
#[serde(rename_all = "camelCase")]
pub struct TestBody {
    text: String,
    font_id: String,
}

/// The glyph test's answer.
#[derive(Serialize, utoipa::ToSchema)]
pub struct TestAnswer {
    /// The distinct characters the font lacks, in text order.
    missing: String,
    /// Whether the font draws every character.
    ok: bool,
}

/// Which characters of `text` the font lacks (they would render blank).
#[utoipa::path(post, path = "/diyvrbt/font/test", request_body = TestBody, responses((status = 200, body = TestAnswer)))]
pub async fn test(req: HttpRequest, bytes: web::Bytes, state: web::Data<AppState>) -> Result<HttpResponse, ApiError> {
    let b: TestBody = body::parse(&req, &bytes)?;
    let caller = if b.font_id.starts_with("sys-") { caller::anonymous(&req, &state)? } else { caller::caller(&req, &state).await? };
    let r = state.clients.font.clone().test(caller.request(pb::TestFontRequest { font_id: b.font_id, text: b.text })?).await?.into_inner();
    Ok(envelope::ok(TestAnswer { missing: r.missing, ok: r.ok }))
}
