//! Blob storage for uploads, renders and covers: opendal on a local directory (embedded) or on an
//! S3-compatible store, chosen by URL. Keys are made by the server and checked here once more.

use bytes::Bytes;
use opendal::layers::TimeoutLayer;
use opendal::{ErrorKind, HttpTransporter, OperationContext, Operator, services};
use opendal_http_transport_reqwest::ReqwestTransport;

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
}

impl BlobStore {
    /// Opens `fs:///dir` or `s3://bucket?endpoint=…&region=…&access_key_id=…&secret_access_key=…&root=…`
    /// with the default timeouts.
    pub fn open(url: &str) -> Result<Self, BlobError> {
        Self::open_with(url, &TimeoutConfig::default())
    }

    /// Opens `url` (see [`BlobStore::open`]); calls to an S3 store time out as `timeouts` says.
    pub fn open_with(url: &str, timeouts: &TimeoutConfig) -> Result<Self, BlobError> {
        let op = if let Some(dir) = url.strip_prefix("fs://") {
            if dir.is_empty() {
                return Err(BlobError::Url("fs:// needs a directory".into()));
            }
            std::fs::create_dir_all(dir).map_err(|e| BlobError::Url(format!("cannot create {dir}: {e}")))?;
            // A streamed write goes to a temporary file renamed into place when complete, so a
            // refused or broken upload never leaves a partial object under its key.
            let partial = format!("{}/.partial", dir.trim_end_matches('/'));
            Operator::new(services::Fs::default().root(dir).atomic_write_dir(&partial))?
        } else if let Some(rest) = url.strip_prefix("s3://") {
            let (bucket, query) = rest.split_once('?').unwrap_or((rest, ""));
            if bucket.is_empty() {
                return Err(BlobError::Url("s3:// needs a bucket".into()));
            }
            let mut b = services::S3::default().bucket(bucket).region("us-east-1");
            for pair in query.split('&').filter(|p| !p.is_empty()) {
                let (k, v) = pair.split_once('=').unwrap_or((pair, ""));
                b = match k {
                    "endpoint" => b.endpoint(v),
                    "region" => b.region(v),
                    "access_key_id" => b.access_key_id(v),
                    "secret_access_key" => b.secret_access_key(v),
                    "root" => b.root(v),
                    "anonymous" => b.skip_signature(),
                    other => return Err(BlobError::Url(format!("unknown s3 option `{other}`"))),
                };
            }
            // An HTTP client of the store's own: opendal's default is one client for the whole
            // process, whose pooled connections die with the async runtime that opened them, so a
            // second runtime (each test has one) met "dispatch task is gone".
            let client = reqwest::Client::builder()
                .connect_timeout(TimeoutConfig::of(timeouts.connect_seconds))
                .build()
                .map_err(|e| BlobError::Url(format!("http client: {e}")))?;
            let transport = HttpTransporter::new(ReqwestTransport::new(client));
            let deadlines = TimeoutLayer::new()
                .with_timeout(TimeoutConfig::of(timeouts.storage_seconds))
                .with_io_timeout(TimeoutConfig::of(timeouts.storage_io_seconds));
            Operator::new(b.disable_config_load().disable_ec2_metadata())?
                .with_context(OperationContext::new().with_http_transport(transport))
                .layer(deadlines)
        } else {
            return Err(BlobError::Url(format!("unsupported scheme in `{url}` (expected fs:// or s3://)")));
        };
        Ok(Self { op })
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

    /// Answers whether the store is reachable.
    pub async fn check(&self) -> Result<(), BlobError> {
        Ok(self.op.check().await?)
    }
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
