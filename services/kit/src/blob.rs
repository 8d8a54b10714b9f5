//! Blob storage for uploads, renders and covers: opendal on a local directory (embedded) or on an
//! S3-compatible store, chosen by URL. Keys are made by the server and checked here once more.

use std::path::PathBuf;
use std::time::{Duration, SystemTime};

use bytes::Bytes;
use opendal::layers::TimeoutLayer;
use opendal::{ErrorKind, HttpTransporter, OperationContext, Operator, services};
use opendal_http_transport_reqwest::ReqwestTransport;
use reqsign_aws_v4::{Credential, RequestSigner, StaticCredentialProvider};
use reqsign_core::{Context, Signer};

use crate::config::TimeoutConfig;

/// Why a storage call failed.
#[derive(Debug, thiserror::Error)]
pub enum BlobError {
    /// The storage URL is malformed or names an unknown scheme.
    #[error("storage url: {0}")]
    Url(String),
    /// The key is empty, absolute or climbs out of its prefix.
    #[error("storage key `{0}` is not allowed")]
    Key(String),
    /// No object under the key.
    #[error("no object `{0}`")]
    NotFound(String),
    /// The store failed.
    #[error("storage: {0}")]
    Store(#[from] opendal::Error),
}

/// A blob store.
#[derive(Clone, Debug)]
pub struct BlobStore {
    op: Operator,
    /// Where writes begun and never completed are found: opendal sees only objects.
    unfinished: Unfinished,
}

#[derive(Clone, Debug)]
enum Unfinished {
    /// The file store's directory of temporary files.
    Files(PathBuf),
    /// The S3 store's multipart uploads.
    Multipart(S3Calls),
}

/// A write begun and never completed: an S3 multipart upload, or a temporary file of the file store.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct IncompleteUpload {
    /// The key being written; on the file store the temporary file, `.partial/{name}`.
    pub key: String,
    /// Which upload of the key: the S3 upload id, or the temporary file's name.
    pub upload_id: String,
    /// When it began by the store's clock (on the file store, when its file was last written).
    pub initiated: SystemTime,
}

impl BlobStore {
    /// Opens `fs:///dir` or `s3://bucket?endpoint=…&region=…&access_key_id=…&secret_access_key=…&root=…`
    /// with the default timeouts.
    pub fn open(url: &str) -> Result<Self, BlobError> {
        Self::open_with(url, &TimeoutConfig::default())
    }

    /// Opens `url` (see [`BlobStore::open`]); calls to an S3 store time out as `timeouts` says.
    pub fn open_with(url: &str, timeouts: &TimeoutConfig) -> Result<Self, BlobError> {
        let (op, unfinished) = if let Some(dir) = url.strip_prefix("fs://") {
            if dir.is_empty() {
                return Err(BlobError::Url("fs:// needs a directory".into()));
            }
            std::fs::create_dir_all(dir).map_err(|e| BlobError::Url(format!("cannot create {dir}: {e}")))?;
            // A streamed write goes to a temporary file renamed into place when complete, so a
            // refused or broken upload never leaves a partial object under its key.
            let partial = format!("{}/.partial", dir.trim_end_matches('/'));
            (Operator::new(services::Fs::default().root(dir).atomic_write_dir(&partial))?, Unfinished::Files(partial.into()))
        } else if let Some(rest) = url.strip_prefix("s3://") {
            let (bucket, query) = rest.split_once('?').unwrap_or((rest, ""));
            if bucket.is_empty() {
                return Err(BlobError::Url("s3:// needs a bucket".into()));
            }
            let (mut endpoint, mut region, mut key_id, mut secret, mut root, mut anonymous) = (None, "us-east-1", None, None, "", false);
            for pair in query.split('&').filter(|p| !p.is_empty()) {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                match k {
                    "endpoint" => endpoint = Some(v),
                    "region" => region = v,
                    "access_key_id" => key_id = Some(v),
                    "secret_access_key" => secret = Some(v),
                    "root" => root = v,
                    "anonymous" => anonymous = true,
                    other => return Err(BlobError::Url(format!("unknown s3 option `{other}`"))),
                }
            }
            let mut b = services::S3::default().bucket(bucket).region(region).root(root);
            if let Some(endpoint) = endpoint {
                b = b.endpoint(endpoint);
            }
            if let Some(id) = key_id {
                b = b.access_key_id(id);
            }
            if let Some(secret) = secret {
                b = b.secret_access_key(secret);
            }
            if anonymous {
                b = b.skip_signature();
            }
            // An HTTP client of the store's own: opendal's default is one client for the whole
            // process, whose pooled connections die with the async runtime that opened them, so a
            // second runtime (each test has one) met "dispatch task is gone".
            let client = reqwest::Client::builder()
                .connect_timeout(TimeoutConfig::of(timeouts.connect_seconds))
                .build()
                .map_err(|e| BlobError::Url(format!("http client: {e}")))?;
            // Addressed as opendal addresses it: path-style, the endpoint's scheme defaulting to https.
            let endpoint = match endpoint {
                Some(e) if e.starts_with("http") => e.to_owned(),
                Some(e) => format!("https://{e}"),
                None => "https://s3.amazonaws.com".to_owned(),
            };
            let signer = match (key_id, secret) {
                (Some(id), Some(secret)) if !anonymous => Some(Signer::new(
                    Context::new(),
                    StaticCredentialProvider::new(id, secret),
                    RequestSigner::new("s3", region),
                )),
                _ => None,
            };
            let calls = S3Calls {
                client: client.clone(),
                bucket_url: format!("{}/{}", endpoint.trim_end_matches('/'), uri_encode(bucket, false)),
                root: match root.trim_matches('/') {
                    "" => String::new(),
                    r => format!("{r}/"),
                },
                signer,
                timeout: TimeoutConfig::of(timeouts.storage_seconds),
            };
            let transport = HttpTransporter::new(ReqwestTransport::new(client));
            let deadlines = TimeoutLayer::new()
                .with_timeout(TimeoutConfig::of(timeouts.storage_seconds))
                .with_io_timeout(TimeoutConfig::of(timeouts.storage_io_seconds));
            let op = Operator::new(b.disable_config_load().disable_ec2_metadata())?
                .with_context(OperationContext::new().with_http_transport(transport))
                .layer(deadlines);
            (op, Unfinished::Multipart(calls))
        } else {
            return Err(BlobError::Url(format!("unsupported scheme in `{url}` (expected fs:// or s3://)")));
        };
        Ok(Self { op, unfinished })
    }

    /// Writes `data` under `key`, replacing what was there.
    pub async fn put(&self, key: &str, data: impl Into<Bytes>) -> Result<(), BlobError> {
        check_key(key)?;
        self.op.write(key, data.into()).await?;
        Ok(())
    }

    /// Opens a streamed writer for `key`: written bytes go out in chunks of [`WRITE_CHUNK`] (an S3
    /// multipart upload part each), so an object of any size is never held whole in memory.
    pub async fn writer(&self, key: &str) -> Result<BlobWriter, BlobError> {
        check_key(key)?;
        let inner = self.op.writer_with(key).chunk(WRITE_CHUNK).await?;
        Ok(BlobWriter { inner: Some(inner), op: self.op.clone(), key: key.to_owned(), ended: false })
    }

    /// The bytes `range` of the object under `key` as a stream of chunks, for answers too large to
    /// hold in memory.
    pub async fn stream(
        &self,
        key: &str,
        range: std::ops::Range<u64>,
    ) -> Result<impl futures::Stream<Item = std::io::Result<Bytes>> + Send + 'static, BlobError> {
        check_key(key)?;
        let reader = match self.op.reader_with(key).chunk(READ_CHUNK).await {
            Ok(r) => r,
            Err(e) if e.kind() == ErrorKind::NotFound => return Err(BlobError::NotFound(key.to_owned())),
            Err(e) => return Err(e.into()),
        };
        Ok(reader.into_bytes_stream(range).await?)
    }

    /// Copies the object under `key` into the local file `path` chunk by chunk; answers its size.
    pub async fn download_to(&self, key: &str, path: &std::path::Path) -> Result<u64, BlobError> {
        use futures::TryStreamExt;
        use tokio::io::AsyncWriteExt;
        let size = self.size(key).await?;
        let mut chunks = self.stream(key, 0..size).await?;
        let mut file = tokio::fs::File::create(path).await.map_err(io_error)?;
        while let Some(chunk) = chunks.try_next().await.map_err(io_error)? {
            file.write_all(&chunk).await.map_err(io_error)?;
        }
        file.flush().await.map_err(io_error)?;
        Ok(size)
    }

    /// Streams the local file `path` into the object under `key`; on failure nothing remains.
    pub async fn upload_file(&self, key: &str, path: &std::path::Path) -> Result<(), BlobError> {
        use tokio::io::AsyncReadExt;
        let mut writer = self.writer(key).await?;
        let copied = async {
            let mut file = tokio::fs::File::open(path).await.map_err(io_error)?;
            let mut buf = vec![0u8; READ_CHUNK];
            loop {
                let n = file.read(&mut buf).await.map_err(io_error)?;
                if n == 0 {
                    return writer.close().await;
                }
                writer.write(Bytes::copy_from_slice(&buf[..n])).await?;
            }
        }
        .await;
        if copied.is_err() {
            let _ = writer.abort().await;
        }
        copied
    }

    /// Reads the whole object under `key`.
    pub async fn get(&self, key: &str) -> Result<Bytes, BlobError> {
        check_key(key)?;
        match self.op.read(key).await {
            Ok(buf) => Ok(buf.to_bytes()),
            Err(e) if e.kind() == ErrorKind::NotFound => Err(BlobError::NotFound(key.to_owned())),
            Err(e) => Err(e.into()),
        }
    }

    /// The size in bytes of the object under `key`.
    pub async fn size(&self, key: &str) -> Result<u64, BlobError> {
        check_key(key)?;
        match self.op.stat(key).await {
            Ok(meta) => Ok(meta.content_length()),
            Err(e) if e.kind() == ErrorKind::NotFound => Err(BlobError::NotFound(key.to_owned())),
            Err(e) => Err(e.into()),
        }
    }

    /// Reads the bytes `range` of the object under `key`.
    pub async fn read_range(&self, key: &str, range: std::ops::Range<u64>) -> Result<Bytes, BlobError> {
        check_key(key)?;
        match self.op.read_with(key).range(range).await {
            Ok(buf) => Ok(buf.to_bytes()),
            Err(e) if e.kind() == ErrorKind::NotFound => Err(BlobError::NotFound(key.to_owned())),
            Err(e) => Err(e.into()),
        }
    }

    /// Copies the object under `from` to `to` inside the store (the store copies: nothing passes
    /// through this process), replacing what was at `to`.
    pub async fn copy(&self, from: &str, to: &str) -> Result<(), BlobError> {
        check_key(from)?;
        check_key(to)?;
        self.op.copy(from, to).await?;
        Ok(())
    }

    /// Answers whether an object exists under `key`.
    pub async fn exists(&self, key: &str) -> Result<bool, BlobError> {
        check_key(key)?;
        Ok(self.op.exists(key).await?)
    }

    /// Removes the object under `key`; removing a missing object is not an error.
    pub async fn delete(&self, key: &str) -> Result<(), BlobError> {
        check_key(key)?;
        Ok(self.op.delete(key).await?)
    }

    /// Lists the keys under `prefix` (which ends with `/`), recursively.
    pub async fn list(&self, prefix: &str) -> Result<Vec<String>, BlobError> {
        check_key(prefix)?;
        let entries = self.op.list_with(prefix).recursive(true).await?;
        Ok(entries.into_iter().filter(|e| !e.path().ends_with('/')).map(|e| e.path().to_owned()).collect())
    }

    /// Lists the objects under `prefix` (which ends with `/`), recursively, with when each was last
    /// written by the store's clock; an object whose time the store does not say is left out (so
    /// nothing acts on an age it does not know), and so is one gone before it was looked at.
    pub async fn list_modified(&self, prefix: &str) -> Result<Vec<(String, std::time::SystemTime)>, BlobError> {
        check_key(prefix)?;
        let entries = self.op.list_with(prefix).recursive(true).await?;
        let mut out = Vec::new();
        for e in entries.into_iter().filter(|e| !e.path().ends_with('/')) {
            // S3 lists the time; the file store may not, then each object is asked.
            let at = match e.metadata().last_modified() {
                Some(at) => Some(at),
                None => match self.op.stat(e.path()).await {
                    Ok(m) => m.last_modified(),
                    Err(err) if err.kind() == ErrorKind::NotFound => None,
                    Err(err) => return Err(err.into()),
                },
            };
            if let Some(at) = at {
                out.push((e.path().to_owned(), std::time::SystemTime::from(at)));
            }
        }
        Ok(out)
    }

    /// The writes under `prefix` begun and never completed, which a process killed in the middle
    /// of an upload leaves (a writer dropped unended aborts its own): the S3 store's multipart
    /// uploads, or every temporary file of the file store whatever the prefix, since a temporary
    /// file's name keeps only the last segment of its key.
    pub async fn incomplete_uploads(&self, prefix: &str) -> Result<Vec<IncompleteUpload>, BlobError> {
        check_key(prefix)?;
        match &self.unfinished {
            Unfinished::Files(dir) => temporary_files(dir).await,
            Unfinished::Multipart(s3) => s3.uploads(prefix).await,
        }
    }

    /// Gives `upload` up, removing what was sent so far; one already gone is not an error.
    pub async fn abort_upload(&self, upload: &IncompleteUpload) -> Result<(), BlobError> {
        match &self.unfinished {
            Unfinished::Files(dir) => {
                if matches!(upload.upload_id.as_str(), "" | "." | "..") || upload.upload_id.contains(['/', '\\']) {
                    return Err(BlobError::Key(upload.key.clone()));
                }
                match tokio::fs::remove_file(dir.join(&upload.upload_id)).await {
                    Err(e) if e.kind() != std::io::ErrorKind::NotFound => Err(io_error(e)),
                    _ => Ok(()),
                }
            }
            Unfinished::Multipart(s3) => {
                check_key(&upload.key)?;
                s3.abort(&upload.key, &upload.upload_id).await
            }
        }
    }

    /// Answers whether the store is reachable.
    pub async fn check(&self) -> Result<(), BlobError> {
        Ok(self.op.check().await?)
    }
}

/// The temporary files of the file store's writes in progress or abandoned; one gone before it
/// was looked at is left out.
async fn temporary_files(dir: &std::path::Path) -> Result<Vec<IncompleteUpload>, BlobError> {
    let mut entries = match tokio::fs::read_dir(dir).await {
        Ok(entries) => entries,
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => return Ok(Vec::new()),
        Err(e) => return Err(io_error(e)),
    };
    let mut out = Vec::new();
    while let Some(entry) = entries.next_entry().await.map_err(io_error)? {
        let meta = match entry.metadata().await {
            Ok(meta) => meta,
            Err(e) if e.kind() == std::io::ErrorKind::NotFound => continue,
            Err(e) => return Err(io_error(e)),
        };
        let name = entry.file_name().to_string_lossy().into_owned();
        if meta.is_file() {
            out.push(IncompleteUpload { key: format!(".partial/{name}"), upload_id: name, initiated: meta.modified().map_err(io_error)? });
        }
    }
    Ok(out)
}

/// Signed S3 calls of our own for what opendal does not do: list and abort the multipart uploads
/// it did not start.
#[derive(Clone, Debug)]
struct S3Calls {
    /// The store's client (opendal's transport has a clone of it).
    client: reqwest::Client,
    /// `{endpoint}/{bucket}`.
    bucket_url: String,
    /// The store's root as a prefix of the bucket's keys (`a/b/`, or empty).
    root: String,
    /// None for an anonymous store.
    signer: Option<Signer<Credential>>,
    timeout: Duration,
}

/// A page of a `ListMultipartUploads` answer.
#[derive(serde::Deserialize)]
#[serde(rename_all = "PascalCase")]
struct UploadsPage {
    #[serde(default)]
    is_truncated: bool,
    #[serde(default)]
    next_key_marker: String,
    #[serde(default)]
    next_upload_id_marker: String,
    #[serde(default, rename = "Upload")]
    uploads: Vec<UploadEntry>,
}

#[derive(serde::Deserialize)]
#[serde(rename_all = "PascalCase")]
struct UploadEntry {
    key: String,
    upload_id: String,
    initiated: String,
}

impl S3Calls {
    /// The multipart uploads under `prefix`, page by page; one whose time the store does not say
    /// (or says unreadably) is left out, so nothing acts on an age it does not know.
    async fn uploads(&self, prefix: &str) -> Result<Vec<IncompleteUpload>, BlobError> {
        let mut query = format!("uploads&prefix={}", uri_encode(&format!("{}{prefix}", self.root), false));
        let mut out = Vec::new();
        loop {
            let body = self.call(reqwest::Method::GET, format!("{}?{query}", self.bucket_url), "ListMultipartUploads").await?;
            let page: UploadsPage = quick_xml::de::from_str(&body).map_err(|e| s3_error("ListMultipartUploads answer", e))?;
            for u in page.uploads {
                let (Some(key), Ok(at)) = (u.key.strip_prefix(&self.root), chrono::DateTime::parse_from_rfc3339(&u.initiated)) else { continue };
                out.push(IncompleteUpload { key: key.to_owned(), upload_id: u.upload_id, initiated: at.into() });
            }
            // A truncated page without markers would ask for the same page for ever.
            if !page.is_truncated || page.next_key_marker.is_empty() {
                return Ok(out);
            }
            query = format!(
                "uploads&prefix={}&key-marker={}&upload-id-marker={}",
                uri_encode(&format!("{}{prefix}", self.root), false),
                uri_encode(&page.next_key_marker, false),
                uri_encode(&page.next_upload_id_marker, false)
            );
        }
    }

    async fn abort(&self, key: &str, upload_id: &str) -> Result<(), BlobError> {
        let url = format!("{}/{}?uploadId={}", self.bucket_url, uri_encode(&format!("{}{key}", self.root), true), uri_encode(upload_id, false));
        match self.call(reqwest::Method::DELETE, url, "AbortMultipartUpload").await {
            // Gone already: aborted by another janitor, or completed.
            Err(BlobError::Store(e)) if e.kind() == ErrorKind::NotFound => Ok(()),
            other => other.map(drop),
        }
    }

    /// Sends a signed request without a body; answers the body of a 2xx answer.
    async fn call(&self, method: reqwest::Method, url: String, what: &'static str) -> Result<String, BlobError> {
        let (mut head, ()) = http::Request::builder().method(method).uri(&url).body(()).map_err(|e| s3_error(what, e))?.into_parts();
        if let Some(signer) = &self.signer {
            signer.sign(&mut head, None).await.map_err(|e| s3_error(what, e))?;
        }
        let answer = self.client.request(head.method, url).headers(head.headers).timeout(self.timeout).send().await.map_err(|e| s3_error(what, e))?;
        let status = answer.status();
        let body = answer.text().await.map_err(|e| s3_error(what, e))?;
        if status.is_success() {
            return Ok(body);
        }
        let kind = match status {
            reqwest::StatusCode::NOT_FOUND => ErrorKind::NotFound,
            reqwest::StatusCode::FORBIDDEN => ErrorKind::PermissionDenied,
            _ => ErrorKind::Unexpected,
        };
        Err(BlobError::Store(opendal::Error::new(kind, format!("{what}: {status}: {body}"))))
    }
}

fn s3_error(what: &'static str, e: impl Into<anyhow::Error>) -> BlobError {
    BlobError::Store(opendal::Error::new(ErrorKind::Unexpected, what).set_source(e))
}

/// `s` percent-encoded as S3 reads a path (`/` kept) or a query value (`/` encoded too).
fn uri_encode(s: &str, keep_slash: bool) -> String {
    s.bytes()
        .map(|b| match b {
            b'A'..=b'Z' | b'a'..=b'z' | b'0'..=b'9' | b'-' | b'_' | b'.' | b'~' => (b as char).to_string(),
            b'/' if keep_slash => "/".to_owned(),
            _ => format!("%{b:02X}"),
        })
        .collect()
}

/// The prefix of the objects a user uploads: `t/{tenant}/u/{user}/materials/`, each part made one
/// safe key segment (bytes other than letters, digits and `@._+-` percent-encoded, so no id can
/// climb out or reach into another user's prefix).
pub fn user_material_prefix(tenant: &str, user_id: &str) -> String {
    format!("t/{}/u/{}/materials/", key_segment(tenant), key_segment(user_id))
}

/// The prefix of a user's copyright proofs (ring orders): `t/{tenant}/u/{user}/copyright/`, beside
/// the materials and outside the material janitor's sweep, which keeps only what a material names.
pub fn user_copyright_prefix(tenant: &str, user_id: &str) -> String {
    format!("t/{}/u/{}/copyright/", key_segment(tenant), key_segment(user_id))
}

/// The prefix of a tenant's system materials (the starter library, shared by its users):
/// `t/{tenant}/sys/materials/`, under the tenant's prefix like every render source.
pub fn system_material_prefix(tenant: &str) -> String {
    format!("t/{}/sys/materials/", key_segment(tenant))
}

fn key_segment(s: &str) -> String {
    let safe = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'@' | b'_' | b'+' | b'-') || b == b'.';
    let mut out: String = s.bytes().map(|b| if safe(b) { (b as char).to_string() } else { format!("%{b:02X}") }).collect();
    // A segment of only dots would be `.` or `..`.
    if out.bytes().all(|b| b == b'.') {
        out = out.replace('.', "%2E");
    }
    out
}

/// Bytes a streamed writer gathers before sending them (the part size of an S3 multipart upload,
/// which must be at least 5 MiB).
pub const WRITE_CHUNK: usize = 8 * 1024 * 1024;
/// Bytes a streamed read asks the store for at once.
const READ_CHUNK: usize = 1024 * 1024;

fn io_error(e: std::io::Error) -> BlobError {
    BlobError::Store(opendal::Error::new(ErrorKind::Unexpected, "local file").set_source(e))
}

/// A streamed write of one object; nothing is visible under the key until [`BlobWriter::close`].
/// One dropped before it was closed or aborted (the request that fed it was dropped when its
/// client went away) is aborted in the background, so no temporary file or open multipart upload
/// outlives it.
pub struct BlobWriter {
    /// Always there until the writer is dropped unended (then the clean-up takes it).
    inner: Option<opendal::Writer>,
    op: Operator,
    key: String,
    ended: bool,
}

impl BlobWriter {
    /// Appends `data`.
    pub async fn write(&mut self, data: Bytes) -> Result<(), BlobError> {
        Ok(self.open()?.write(data).await?)
    }

    /// Completes the object.
    pub async fn close(&mut self) -> Result<(), BlobError> {
        self.ended = true;
        self.open()?.close().await?;
        Ok(())
    }

    /// Gives the write up, removing what was sent so far (an S3 multipart upload is aborted, a
    /// temporary file removed) and anything under the key.
    pub async fn abort(&mut self) -> Result<(), BlobError> {
        self.ended = true;
        let aborted = self.open()?.abort().await;
        self.op.delete(&self.key).await?;
        Ok(aborted?)
    }

    fn open(&mut self) -> Result<&mut opendal::Writer, BlobError> {
        self.inner.as_mut().ok_or_else(|| BlobError::Key(format!("{} (the write has ended)", self.key)))
    }
}

impl Drop for BlobWriter {
    fn drop(&mut self) {
        if self.ended {
            return;
        }
        let Some(inner) = self.inner.take() else { return };
        let Ok(runtime) = tokio::runtime::Handle::try_current() else {
            tracing::error!(key = %self.key, "a dropped write could not be cleaned up (no async runtime)");
            return;
        };
        let mut writer = BlobWriter { inner: Some(inner), op: self.op.clone(), key: std::mem::take(&mut self.key), ended: true };
        runtime.spawn(async move {
            if let Err(e) = writer.abort().await {
                tracing::error!(key = %writer.key, error = %e, "a dropped write not cleaned up");
            }
        });
    }
}

fn check_key(key: &str) -> Result<(), BlobError> {
    let bad = key.is_empty()
        || key.starts_with('/')
        || key.contains('\\')
        || key.contains('\0')
        || key.split('/').any(|seg| seg == ".." || seg == ".");
    if bad { Err(BlobError::Key(key.to_owned())) } else { Ok(()) }
}

#[cfg(test)]
mod tests {
    use super::check_key;

    #[test]
    fn user_prefixes_are_one_segment_each() {
        assert_eq!(super::user_material_prefix("qs", "a@x.cn"), "t/qs/u/a@x.cn/materials/");
        assert_eq!(super::user_material_prefix("qs", "../b/c"), "t/qs/u/..%2Fb%2Fc/materials/");
        assert_eq!(super::user_material_prefix("qs", ".."), "t/qs/u/%2E%2E/materials/");
    }

    #[test]
    fn keys_that_climb_out_are_refused() {
        assert!(check_key("t/qs/u/1/materials/x/original.png").is_ok());
        for bad in ["", "/etc/passwd", "t/../../x", "a/./b", "a\\b"] {
            assert!(check_key(bad).is_err(), "{bad}");
        }
    }
}
