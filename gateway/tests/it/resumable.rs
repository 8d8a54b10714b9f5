//! Resumable uploads (issue 30, `/upload`), on the tus 1.0 protocol the page's tus-js-client speaks:
//! an upload cut off mid-part goes on from the last part stored and makes one material whose
//! original is the file byte for byte; a part at another offset is refused naming where the upload
//! stands; refusals (type, length, quota-free limits, a first part that is not what the name says)
//! store nothing; another user's upload is not found; two senders of one upload take turns; an
//! abandoned upload is swept.

use crate::common;

use std::io::Write;

use base64::Engine;
use common::{Fallible, MP4, PNG, System, User, settled};
use reqwest::{Method, StatusCode};
use serde_json::Value;

fn metadata(name: &str) -> String {
    format!("filename {},filetype {}", base64::engine::general_purpose::STANDARD.encode(name), base64::engine::general_purpose::STANDARD.encode("video/mp4"))
}

/// Opens an upload of `length` bytes named `name`: the status, `Location` and answer.
async fn open(s: &System, user: &User, name: &str, length: usize) -> Fallible<(StatusCode, String, Value)> {
    let r = s
        .call(Method::POST, "/upload/resumable", user)
        .header("Tus-Resumable", "1.0.0")
        .header("Upload-Length", length.to_string())
        .header("Upload-Metadata", metadata(name))
        .send()
        .await?;
    let status = r.status();
    let location = r.headers().get("location").and_then(|v| v.to_str().ok()).unwrap_or_default().to_owned();
    Ok((status, location, r.json().await?))
}

/// The path under the API base of an upload's `Location`.
fn path_of(location: &str) -> String {
    location.trim_start_matches("/diyvrbt").to_owned()
}

/// Sends `part` at `offset`: the status, the answered `Upload-Offset` and the body.
async fn patch(s: &System, user: &User, path: &str, offset: usize, part: &[u8]) -> Fallible<(StatusCode, Option<u64>, String)> {
    let r = s
        .call(Method::PATCH, path, user)
        .header("Tus-Resumable", "1.0.0")
        .header("Upload-Offset", offset.to_string())
        .header("Content-Type", "application/offset+octet-stream")
        .body(part.to_vec())
        .send()
        .await?;
    let status = r.status();
    let at = r.headers().get("upload-offset").and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok());
    Ok((status, at, r.text().await?))
}

/// Where the upload stands: the status and `Upload-Offset`.
async fn head(s: &System, user: &User, path: &str) -> Fallible<(StatusCode, Option<u64>)> {
    let r = s.call(Method::HEAD, path, user).header("Tus-Resumable", "1.0.0").send().await?;
    let at = r.headers().get("upload-offset").and_then(|v| v.to_str().ok()).and_then(|v| v.parse().ok());
    Ok((r.status(), at))
}

/// Opens a connection and sends the head of a part of `length` bytes at `offset`; the body is the
/// caller's to send (or not).
fn part_head(s: &System, user: &User, path: &str, offset: usize, length: usize) -> Fallible<std::net::TcpStream> {
    let url = reqwest::Url::parse(&format!("{}{path}", s.base))?;
    let addr = format!("{}:{}", url.host_str().ok_or("host")?, url.port().ok_or("port")?);
    let mut stream = std::net::TcpStream::connect(addr)?;
    stream.set_read_timeout(Some(std::time::Duration::from_secs(120)))?;
    let auth = if user.tenant == "cc" { format!("Authorization: Bearer {}\r\nmobile: 13800000000\r\n", user.token) } else { format!("Authorization: {}\r\nuserId: {}\r\nmobile: \r\n", user.token, user.user_id) };
    write!(
        stream,
        "PATCH {} HTTP/1.1\r\nHost: {}\r\nX-Variant: {}\r\n{auth}Tus-Resumable: 1.0.0\r\nUpload-Offset: {offset}\r\nContent-Type: application/offset+octet-stream\r\nContent-Length: {length}\r\nConnection: close\r\n\r\n",
        url.path(),
        url.host_str().unwrap_or_default(),
        user.tenant,
    )?;
    Ok(stream)
}

/// Sends the head of a part announcing all of `part`, then drops the connection: the client's
/// network going away mid-part.
fn cut_off(s: &System, user: &User, path: &str, offset: usize, part: &[u8]) -> Fallible<()> {
    let mut stream = part_head(s, user, path, offset, part.len())?;
    stream.write_all(&part[..part.len() / 2])?;
    stream.flush()?;
    stream.shutdown(std::net::Shutdown::Both)?;
    Ok(())
}

/// The objects stored under `user`'s upload directory `id`.
async fn objects(s: &System, user: &User, id: &str) -> Fallible<Vec<String>> {
    let dir = format!("{}{id}/", reelforge_kit::blob::user_material_prefix(&user.tenant, &user.user_id));
    let mut keys = s.blobs.list(&dir).await?;
    keys.sort();
    Ok(keys.into_iter().map(|k| k.trim_start_matches(&dir).to_owned()).collect())
}

async fn an_upload_cut_off_goes_on_from_its_last_part(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let ann = s.user("qs", "ann", 8).await?;
    let bob = s.user("qs", "bob", 8).await?;
    let (status, location, answer) = open(&s, &ann, "晚霞.mp4", MP4.len()).await?;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let id = answer["data"]["uploadId"].as_str().ok_or("uploadId")?.to_owned();
    assert_eq!(location, format!("/diyvrbt/upload/resumable/{id}"));
    let path = path_of(&location);
    let third = MP4.len() / 3;

    let (status, at, body) = patch(&s, &ann, &path, 0, &MP4[..third]).await?;
    assert_eq!((status, at), (StatusCode::NO_CONTENT, Some(third as u64)), "{body}");
    // The network goes away in the middle of the second part: none of it is kept.
    cut_off(&s, &ann, &path, third, &MP4[third..2 * third])?;
    assert_eq!(head(&s, &ann, &path).await?, (StatusCode::OK, Some(third as u64)), "the upload stands after its first part");
    // Bob, of the same tenant, does not find it, whatever he sends.
    assert_eq!(head(&s, &bob, &path).await?.0, StatusCode::NOT_FOUND);
    let (status, _, body) = patch(&s, &bob, &path, third, &MP4[third..]).await?;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    let gone = s.call(Method::DELETE, &path, &bob).header("Tus-Resumable", "1.0.0").send().await?;
    assert_eq!(gone.status(), StatusCode::NOT_FOUND);
    // A part sent at another offset is refused, naming where the upload stands.
    let (status, _, body) = patch(&s, &ann, &path, 0, &MP4[..third]).await?;
    assert_eq!(status, StatusCode::CONFLICT, "{body}");
    let refused: Value = serde_json::from_str(&body)?;
    assert_eq!((refused["code"].as_i64(), refused["data"]["reason"].as_str(), refused["data"]["offset"].as_u64()), (Some(3000), Some("wrong_offset"), Some(third as u64)), "{refused}");
    assert!(refused["desc"].as_str().unwrap_or_default().starts_with("Upload-Offset:"), "{refused}");

    // Resumed from where it stands: the second part, then the rest makes the material.
    let (status, at, body) = patch(&s, &ann, &path, third, &MP4[third..2 * third]).await?;
    assert_eq!((status, at), (StatusCode::NO_CONTENT, Some(2 * third as u64)), "{body}");
    let (status, at, body) = patch(&s, &ann, &path, 2 * third, &MP4[2 * third..]).await?;
    assert_eq!((status, at), (StatusCode::OK, Some(MP4.len() as u64)), "{body}");
    let made: Value = serde_json::from_str(&body)?;
    assert_eq!((made["code"].as_i64(), made["data"]["duplicate"].as_bool()), (Some(2000), Some(false)), "{made}");
    let material = made["data"]["materialId"].as_str().ok_or("materialId")?.to_owned();
    assert_eq!(material, id, "the upload's directory is the material's");
    let m = settled(&s, &ann, &material).await?;
    assert_eq!((m["state"].as_str(), m["materialName"].as_str(), m["type"].as_str()), (Some("ready"), Some("晚霞.mp4"), Some("video")), "{m}");
    let key = format!("{}{id}/original.mp4", reelforge_kit::blob::user_material_prefix(&ann.tenant, &ann.user_id));
    assert_eq!(s.blobs.get(&key).await?.to_vec(), MP4.to_vec(), "the original is the file byte for byte");
    let left = objects(&s, &ann, &id).await?;
    assert!(left.iter().all(|k| !k.starts_with("parts/") && k != "upload.json"), "the parts went with the upload: {left:?}");
    // Finished, the upload is no longer there to resume.
    assert_eq!(head(&s, &ann, &path).await?.0, StatusCode::NOT_FOUND);
    Ok(())
}

async fn refused_uploads_store_nothing(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let ann = s.user("qs", "ann", 8).await?;
    let prefix = reelforge_kit::blob::user_material_prefix(&ann.tenant, &ann.user_id);
    let (status, _, answer) = open(&s, &ann, "setup.exe", 100).await?;
    assert_eq!((status, answer["data"]["reason"].as_str()), (StatusCode::UNSUPPORTED_MEDIA_TYPE, Some("unsupported_file_type")), "{answer}");
    let (status, _, answer) = open(&s, &ann, "huge.png", 10 << 30).await?;
    assert_eq!((status, answer["data"]["reason"].as_str()), (StatusCode::PAYLOAD_TOO_LARGE, Some("file_too_large")), "{answer}");
    let bare = s.call(Method::POST, "/upload/resumable", &ann).header("Tus-Resumable", "1.0.0").header("Upload-Length", "10").send().await?;
    assert_eq!(bare.status(), StatusCode::BAD_REQUEST);
    let bare: Value = bare.json().await?;
    assert!(bare["desc"].as_str().unwrap_or_default().starts_with("Upload-Metadata:"), "{bare}");
    assert!(s.blobs.list(&prefix).await?.is_empty(), "nothing stored for the refused openings");
    // A picture sent as a video: refused at its first part, and the upload is gone.
    let (status, location, _) = open(&s, &ann, "clip.mp4", PNG.len()).await?;
    assert_eq!(status, StatusCode::CREATED);
    let path = path_of(&location);
    let (status, _, body) = patch(&s, &ann, &path, 0, PNG).await?;
    assert_eq!(status, StatusCode::UNSUPPORTED_MEDIA_TYPE, "{body}");
    assert_eq!(head(&s, &ann, &path).await?.0, StatusCode::NOT_FOUND);
    // A part beyond the file's length is refused whole.
    let (_, location, _) = open(&s, &ann, "clip.mp4", 10).await?;
    let (status, _, body) = patch(&s, &ann, &path_of(&location), 0, MP4).await?;
    assert_eq!(status, StatusCode::PAYLOAD_TOO_LARGE, "{body}");
    let given_up = s.call(Method::DELETE, &path_of(&location), &ann).header("Tus-Resumable", "1.0.0").send().await?;
    assert_eq!(given_up.status(), StatusCode::NO_CONTENT);
    assert!(s.blobs.list(&prefix).await?.is_empty(), "nothing left: {:?}", s.blobs.list(&prefix).await?);
    Ok(())
}

/// Two clients resuming one upload at once (catalogue U7): while the first client's part is being
/// received, the second's part at the same offset is refused (423, naming the cause) and changes
/// nothing; the first part is stored, the second client goes on from where the upload stands, and
/// the material is the file byte for byte.
async fn two_senders_of_one_upload_take_turns(backends: common::Backends) -> Fallible<()> {
    use std::io::Read;
    let s = common::start_in(backends).await?;
    let ann = s.user("qs", "ann", 8).await?;
    let (status, location, answer) = open(&s, &ann, "两个窗口.mp4", MP4.len()).await?;
    assert_eq!(status, StatusCode::CREATED, "{answer}");
    let id = answer["data"]["uploadId"].as_str().ok_or("uploadId")?.to_owned();
    let path = path_of(&location);
    let half = MP4.len() / 2;
    // The first client announces the first half and sends a little of it.
    let mut first = part_head(&s, &ann, &path, 0, half)?;
    first.write_all(&MP4[..1024])?;
    first.flush()?;
    let sending = format!("upload-sending:{}{id}/", reelforge_kit::blob::user_material_prefix(&ann.tenant, &ann.user_id));
    let deadline = std::time::Instant::now() + std::time::Duration::from_secs(60);
    while s.cache.get(&sending).await?.is_none() {
        if std::time::Instant::now() > deadline {
            return Err("the first part never held the upload".into());
        }
        tokio::time::sleep(std::time::Duration::from_millis(20)).await;
    }
    // The second client's part at the same offset meanwhile.
    let (status, _, body) = patch(&s, &ann, &path, 0, &MP4[..half]).await?;
    assert_eq!(status, StatusCode::LOCKED, "{body}");
    let refused: Value = serde_json::from_str(&body)?;
    assert_eq!((refused["code"].as_i64(), refused["data"]["reason"].as_str()), (Some(3000), Some("part_in_flight")), "{refused}");
    // The first client's part goes through (blocking I/O off the runtime the services answer on).
    let reply = tokio::task::spawn_blocking(move || -> std::io::Result<String> {
        first.write_all(&MP4[1024..half])?;
        first.flush()?;
        let mut reply = String::new();
        first.read_to_string(&mut reply)?;
        Ok(reply)
    })
    .await??;
    assert!(reply.starts_with("HTTP/1.1 204"), "{reply}");
    assert!(reply.to_ascii_lowercase().contains(&format!("upload-offset: {half}\r\n")), "{reply}");
    assert_eq!(head(&s, &ann, &path).await?, (StatusCode::OK, Some(half as u64)));
    // The second client asks where the upload stands and sends the rest from there.
    let (status, at, body) = patch(&s, &ann, &path, half, &MP4[half..]).await?;
    assert_eq!((status, at), (StatusCode::OK, Some(MP4.len() as u64)), "{body}");
    let key = format!("{}{id}/original.mp4", reelforge_kit::blob::user_material_prefix(&ann.tenant, &ann.user_id));
    assert_eq!(s.blobs.get(&key).await?.to_vec(), MP4.to_vec(), "the original is the file byte for byte");
    Ok(())
}

/// An upload abandoned past the janitor's grace period (24 h; none here) is swept (catalogue U6,
/// expiry): HEAD and a part answer 404, and nothing of it is left.
async fn an_abandoned_upload_is_swept(backends: common::Backends) -> Fallible<()> {
    let s = common::start_in(backends).await?;
    let ann = s.user("qs", "ann", 8).await?;
    let (_, location, answer) = open(&s, &ann, "半途.mp4", MP4.len()).await?;
    let id = answer["data"]["uploadId"].as_str().ok_or("uploadId")?.to_owned();
    let path = path_of(&location);
    let third = MP4.len() / 3;
    let (status, _, body) = patch(&s, &ann, &path, 0, &MP4[..third]).await?;
    assert_eq!(status, StatusCode::NO_CONTENT, "{body}");
    reelforge_material::Janitor::new(s.materials.clone(), s.blobs.clone(), std::time::Duration::ZERO).sweep().await?;
    assert_eq!(head(&s, &ann, &path).await?.0, StatusCode::NOT_FOUND);
    let (status, _, body) = patch(&s, &ann, &path, third, &MP4[third..]).await?;
    assert_eq!(status, StatusCode::NOT_FOUND, "{body}");
    assert!(objects(&s, &ann, &id).await?.is_empty(), "nothing of it is left");
    Ok(())
}

common::on_both_backends!(
    an_upload_cut_off_goes_on_from_its_last_part,
    refused_uploads_store_nothing,
    two_senders_of_one_upload_take_turns,
    an_abandoned_upload_is_swept
);
