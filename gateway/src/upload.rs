//! Streamed material uploads: a multipart file part goes to the blob store chunk by chunk (an S3
//! multipart upload for large files), never whole in memory. Its kind comes from its extension
//! (the spec's lists) and must agree with its first bytes; an over-size part is refused before
//! anything is stored when the request's length already says so, else aborted while streaming,
//! leaving no object.

use actix_multipart::{Field, Multipart};
use actix_web::web::Bytes;
use futures::StreamExt;
use reelforge_kit::BlobStore;
use reelforge_kit::config::UploadConfig;

use crate::ApiError;

/// Bytes of a multipart request beyond its file: the other fields and the boundaries.
const FORM_SLACK: u64 = 64 * 1024;
/// Bytes read before the kind is decided.
const HEAD: usize = 16;
/// Longest text field accepted.
const FIELD_LIMIT: usize = 4096;

/// The material kind of each accepted extension (spec editor-core §7).
const EXTENSIONS: &[(&str, &str)] = &[
    ("jpg", "picture"),
    ("jpeg", "picture"),
    ("bmp", "picture"),
    ("png", "picture"),
    ("mp4", "video"),
    ("mpeg", "video"),
    ("vob", "video"),
    ("avi", "video"),
    ("mpg", "video"),
    ("wmv", "video"),
    ("mov", "video"),
    ("3gp", "video"),
    ("webm", "video"),
    ("mp3", "audio"),
    ("aac", "audio"),
    ("wav", "audio"),
    ("wma", "audio"),
    ("m4a", "audio"),
    ("gif", "gif"),
    ("pptx", "pptx"),
];

/// The answer to any file that is not one of the accepted kinds.
pub fn unsupported() -> ApiError {
    ApiError::BadRequest("unsupported file type".into())
}

/// The kind of a file named with extension `ext` whose content starts with `head`, when the two
/// agree; `None` for anything else.
pub fn sniff(ext: &str, head: &[u8]) -> Option<&'static str> {
    let kind = EXTENSIONS.iter().find(|(e, _)| *e == ext).map(|(_, k)| *k)?;
    let at = |i: usize, magic: &[u8]| head.get(i..i + magic.len()) == Some(magic);
    let iso_bmff = || [b"ftyp", b"moov", b"mdat", b"wide", b"free", b"skip"].iter().any(|b| at(4, *b));
    let riff = |form: &[u8]| at(0, b"RIFF") && at(8, form);
    let mpeg_ps = || at(0, &[0, 0, 1, 0xBA]) || at(0, &[0, 0, 1, 0xB3]);
    let frame_sync = |mask: u8, want: u8| head.len() >= 2 && head[0] == 0xFF && head[1] & mask == want;
    let ok = match ext {
        "jpg" | "jpeg" => at(0, &[0xFF, 0xD8, 0xFF]),
        "png" => at(0, b"\x89PNG\r\n\x1a\n"),
        "bmp" => at(0, b"BM"),
        "gif" => at(0, b"GIF87a") || at(0, b"GIF89a"),
        "mp4" | "mov" | "3gp" | "m4a" => iso_bmff(),
        "mpeg" | "mpg" | "vob" => mpeg_ps() || at(0, &[0x47]),
        "avi" => riff(b"AVI "),
        "wav" => riff(b"WAVE"),
        "wmv" | "wma" => at(0, &[0x30, 0x26, 0xB2, 0x75, 0x8E, 0x66, 0xCF, 0x11]),
        "webm" => at(0, &[0x1A, 0x45, 0xDF, 0xA3]),
        // An ID3 tag, or an MPEG audio frame header (sync bits, layer not 0).
        "mp3" => at(0, b"ID3") || (frame_sync(0xE0, 0xE0) && head[1] & 0x06 != 0),
        // ADIF, an ADTS frame header (sync bits, layer 0), or an ID3 tag before it.
        "aac" => at(0, b"ADIF") || at(0, b"ID3") || frame_sync(0xF6, 0xF0),
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

/// Reads and discards the rest of a multipart body, so a refusal is answered on a connection the
/// browser is still writing to, instead of resetting it.
pub async fn drain(multipart: &mut Multipart) {
    while let Some(Ok(mut field)) = multipart.next().await {
        while let Some(Ok(_)) = field.next().await {}
    }
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

fn too_large(kind: &str, limit: u64) -> ApiError {
    ApiError::BadRequest(format!("file too large: {kind} limit is {} MB", limit / (1024 * 1024)))
}

/// Streams the file part `field` into `blob` under `{dir}{file}.{ext}`, checking its kind and size;
/// on any failure nothing remains stored.
pub async fn store(field: &mut Field, blob: &BlobStore, dir: &str, file: &str, rules: &Rules<'_>) -> Result<Stored, ApiError> {
    let name = field
        .content_disposition()
        .and_then(|d| d.get_filename())
        .map(str::to_owned)
        .unwrap_or_default();
    let ext = extension(&name).ok_or_else(unsupported)?;
    let mut head = Vec::with_capacity(HEAD);
    let mut pending: Vec<Bytes> = Vec::new();
    while head.len() < HEAD {
        match field.next().await {
            Some(chunk) => {
                let chunk = chunk.map_err(|e| ApiError::BadRequest(format!("uploadFile: {e}")))?;
                head.extend_from_slice(&chunk[..chunk.len().min(HEAD - head.len())]);
                pending.push(chunk);
            }
            None => break,
        }
    }
    let kind = sniff(&ext, &head).ok_or_else(unsupported)?;
    if !rules.kinds.is_empty() && !rules.kinds.contains(&kind) {
        return Err(unsupported());
    }
    let limit = rules.limits.limit_bytes(kind).ok_or_else(unsupported)?;
    if rules.announced.is_some_and(|n| n > limit.saturating_add(FORM_SLACK)) {
        return Err(too_large(kind, limit));
    }
    let key = format!("{dir}{file}.{ext}");
    let mut writer = blob.writer(&key).await.map_err(storage)?;
    match copy(field, &mut writer, pending, kind, limit).await {
        Ok(size) => Ok(Stored { key, kind, size, name }),
        Err(e) => {
            if let Err(a) = writer.abort().await {
                tracing::error!(%key, error = %a, "aborted upload not cleaned up");
            }
            Err(e)
        }
    }
}

async fn copy(
    field: &mut Field,
    writer: &mut reelforge_kit::blob::BlobWriter,
    pending: Vec<Bytes>,
    kind: &str,
    limit: u64,
) -> Result<u64, ApiError> {
    let mut size = 0u64;
    for chunk in pending {
        size += chunk.len() as u64;
        writer.write(chunk).await.map_err(storage)?;
    }
    while let Some(chunk) = field.next().await {
        let chunk = chunk.map_err(|e| ApiError::BadRequest(format!("uploadFile: {e}")))?;
        size += chunk.len() as u64;
        if size > limit {
            return Err(too_large(kind, limit));
        }
        writer.write(chunk).await.map_err(storage)?;
    }
    if size > limit {
        return Err(too_large(kind, limit));
    }
    writer.close().await.map_err(storage)?;
    Ok(size)
}

fn storage(e: reelforge_kit::BlobError) -> ApiError {
    tracing::error!(error = %e, "upload storage failed");
    ApiError::NotAvailable("storing uploads")
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
    fn extensions_are_plain() {
        assert_eq!(extension("a.B.PNG").as_deref(), Some("png"));
        assert_eq!(extension("noext"), None);
        assert_eq!(extension("x.p/ng"), None);
    }
}
