//! Blob storage for uploads, renders and covers: opendal on a local directory (embedded) or on an
//! S3-compatible store, chosen by URL. Keys are made by the server and checked here once more.

use bytes::Bytes;
use opendal::{ErrorKind, Operator, services};

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
    /// Opens `fs:///dir` or `s3://bucket?endpoint=…&region=…&access_key_id=…&secret_access_key=…&root=…`.
    pub fn open(url: &str) -> Result<Self, BlobError> {
        let op = if let Some(dir) = url.strip_prefix("fs://") {
            if dir.is_empty() {
                return Err(BlobError::Url("fs:// needs a directory".into()));
            }
            std::fs::create_dir_all(dir).map_err(|e| BlobError::Url(format!("cannot create {dir}: {e}")))?;
            Operator::new(services::Fs::default().root(dir))?
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
            Operator::new(b.disable_config_load().disable_ec2_metadata())?
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

    /// Answers whether the store is reachable.
    pub async fn check(&self) -> Result<(), BlobError> {
        Ok(self.op.check().await?)
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
    fn keys_that_climb_out_are_refused() {
        assert!(check_key("t/qs/u/1/materials/x/original.png").is_ok());
        for bad in ["", "/etc/passwd", "t/../../x", "a/./b", "a\\b"] {
            assert!(check_key(bad).is_err(), "{bad}");
        }
    }
}
