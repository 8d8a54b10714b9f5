//! Materials kept on the worker's disk between jobs. A material's key is made by the server once per
//! upload (a fresh uuid) and its object is never written again, so the copy one job downloaded
//! serves the next job naming the same key: templates and batch cards render the same pictures,
//! clips and music over and over. The store is still asked for the object's size on every use, so
//! a deleted material is never rendered from the cache and a size that differs is fetched again.
//! Files are placed into a job's scratch directory as hard links (a copy across file systems), so a
//! cached file evicted while a job renders stays readable by that job.

use std::path::{Path, PathBuf};
use std::time::SystemTime;

use reelforge_kit::BlobStore;
use sha2::{Digest, Sha256};

use crate::error::WorkerError;

/// A size-bounded directory of materials fetched from the blob store, least recently used first out.
#[derive(Debug, Clone)]
pub struct MaterialCache {
    dir: PathBuf,
    limit_bytes: u64,
}

impl MaterialCache {
    /// A cache in `dir` holding at most `limit_bytes`; 0 turns it off (every use downloads).
    pub fn new(dir: impl Into<PathBuf>, limit_bytes: u64) -> Self {
        Self {
            dir: dir.into(),
            limit_bytes,
        }
    }

    /// Places the object under `key` at `dest`: from the cache when it holds the object at its
    /// current size, otherwise streamed from the store once into the cache (or straight to `dest`
    /// when the cache is off or the object alone exceeds it).
    pub async fn place(&self, blob: &BlobStore, key: &str, dest: &Path) -> Result<(), WorkerError> {
        let size = blob.size(key).await?;
        if self.limit_bytes == 0 || size > self.limit_bytes {
            blob.download_to(key, dest).await?;
            return Ok(());
        }
        let cached = self.dir.join(file_name(key));
        if file_size(&cached).await == Some(size) {
            touch(&cached).await;
            if link_or_copy(&cached, dest).await.is_ok() {
                return Ok(());
            }
            // Evicted between the look and the link: fetch it again below.
        }
        tokio::fs::create_dir_all(&self.dir).await?;
        let partial = self.dir.join(format!(
            ".{}.{}.part",
            file_name(key),
            uuid::Uuid::new_v4().simple()
        ));
        let fetched = match blob.download_to(key, &partial).await {
            Ok(got) if got == size => Ok(()),
            Ok(_) => Err(WorkerError::Scratch(std::io::Error::other(format!(
                "`{key}` changed while it was read"
            )))),
            Err(e) => Err(e.into()),
        };
        if let Err(e) = fetched {
            let _ = tokio::fs::remove_file(&partial).await;
            return Err(e);
        }
        // A rename is atomic: a job racing for the same key sees the whole file or none.
        tokio::fs::rename(&partial, &cached).await?;
        link_or_copy(&cached, dest).await?;
        self.evict(&cached).await;
        Ok(())
    }

    /// Removes the least recently used files (never `keep`) until the cache fits its limit.
    async fn evict(&self, keep: &Path) {
        let (dir, keep, limit) = (self.dir.clone(), keep.to_owned(), self.limit_bytes);
        let swept = tokio::task::spawn_blocking(move || -> std::io::Result<()> {
            let mut files = Vec::new();
            for entry in std::fs::read_dir(&dir)? {
                let entry = entry?;
                let meta = entry.metadata()?;
                let partial = entry.file_name().to_string_lossy().starts_with('.');
                if meta.is_file() && !partial {
                    files.push((
                        meta.modified().unwrap_or(SystemTime::UNIX_EPOCH),
                        meta.len(),
                        entry.path(),
                    ));
                }
            }
            let mut total: u64 = files.iter().map(|f| f.1).sum();
            files.sort();
            for (_, len, path) in files {
                if total <= limit {
                    break;
                }
                if path == keep {
                    continue;
                }
                match std::fs::remove_file(&path) {
                    Ok(()) => total -= len,
                    // Another process evicted it first.
                    Err(e) if e.kind() == std::io::ErrorKind::NotFound => total -= len,
                    Err(e) => return Err(e),
                }
            }
            Ok(())
        })
        .await;
        match swept {
            Ok(Ok(())) => {}
            Ok(Err(e)) => {
                tracing::warn!(error = %e, dir = %self.dir.display(), "material cache not trimmed")
            }
            Err(e) => tracing::warn!(error = %e, "material cache trim did not run"),
        }
    }
}

/// The cache's file name of a key: its SHA-256, so no key can name a path.
fn file_name(key: &str) -> String {
    Sha256::digest(key.as_bytes())
        .iter()
        .map(|b| format!("{b:02x}"))
        .collect()
}

async fn file_size(path: &Path) -> Option<u64> {
    tokio::fs::metadata(path)
        .await
        .ok()
        .filter(|m| m.is_file())
        .map(|m| m.len())
}

/// Marks a cached file as just used (its modification time orders eviction).
async fn touch(path: &Path) {
    let path = path.to_owned();
    let _ = tokio::task::spawn_blocking(move || {
        std::fs::File::options()
            .write(true)
            .open(&path)
            .and_then(|f| f.set_modified(SystemTime::now()))
    })
    .await;
}

async fn link_or_copy(from: &Path, to: &Path) -> std::io::Result<()> {
    match tokio::fs::hard_link(from, to).await {
        Ok(()) => Ok(()),
        // The same material named twice by one document.
        Err(e) if e.kind() == std::io::ErrorKind::AlreadyExists => Ok(()),
        Err(e) if e.kind() == std::io::ErrorKind::NotFound => Err(e),
        Err(_) => tokio::fs::copy(from, to).await.map(|_| ()),
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use reelforge_kit::BlobError;

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    fn store(root: &Path) -> Result<BlobStore, BlobError> {
        BlobStore::open(&format!("fs://{}", root.join("blobs").display()))
    }

    /// The second use of a key is served from the cache: the cached copy (altered here to tell
    /// the two apart) is what the job gets, and nothing new is written to the cache.
    #[tokio::test]
    async fn a_second_job_reads_the_cached_copy() -> TestResult {
        let root = tempfile::tempdir()?;
        let blob = store(root.path())?;
        blob.put("t/qs/u/1/materials/a/original.png", &b"picture!"[..])
            .await?;
        let cache = MaterialCache::new(root.path().join("cache"), 1 << 20);
        let first = root.path().join("job1.png");
        cache
            .place(&blob, "t/qs/u/1/materials/a/original.png", &first)
            .await?;
        assert_eq!(std::fs::read(&first)?, b"picture!");
        let cached = root
            .path()
            .join("cache")
            .join(file_name("t/qs/u/1/materials/a/original.png"));
        std::fs::remove_file(&first)?;
        std::fs::write(&cached, b"CACHED!!")?;
        let second = root.path().join("job2.png");
        cache
            .place(&blob, "t/qs/u/1/materials/a/original.png", &second)
            .await?;
        assert_eq!(std::fs::read(&second)?, b"CACHED!!");
        assert_eq!(std::fs::read_dir(root.path().join("cache"))?.count(), 1);
        Ok(())
    }

    /// A material deleted from the store is not served from the cache, and one whose size no
    /// longer matches is fetched again.
    #[tokio::test]
    async fn the_store_decides_what_exists() -> TestResult {
        let root = tempfile::tempdir()?;
        let blob = store(root.path())?;
        let key = "t/qs/u/1/materials/b/original.mp3";
        blob.put(key, &b"sound"[..]).await?;
        let cache = MaterialCache::new(root.path().join("cache"), 1 << 20);
        cache
            .place(&blob, key, &root.path().join("one.mp3"))
            .await?;
        blob.put(key, &b"longer sound"[..]).await?;
        cache
            .place(&blob, key, &root.path().join("two.mp3"))
            .await?;
        assert_eq!(std::fs::read(root.path().join("two.mp3"))?, b"longer sound");
        blob.delete(key).await?;
        let gone = cache
            .place(&blob, key, &root.path().join("three.mp3"))
            .await;
        assert!(
            matches!(gone, Err(WorkerError::Storage(BlobError::NotFound(_)))),
            "{gone:?}"
        );
        assert!(!root.path().join("three.mp3").exists());
        Ok(())
    }

    /// Past its limit the cache drops the least recently used files, never the one just placed,
    /// and a job's placed file outlives the eviction of its cached copy.
    #[tokio::test]
    async fn the_least_recently_used_go_first() -> TestResult {
        let root = tempfile::tempdir()?;
        let blob = store(root.path())?;
        let cache = MaterialCache::new(root.path().join("cache"), 25);
        let keys: Vec<String> = (0..4)
            .map(|i| format!("t/qs/u/1/materials/{i}/original.png"))
            .collect();
        for (i, key) in keys.iter().enumerate() {
            blob.put(key, vec![b'a' + i as u8; 10]).await?;
        }
        let placed = |i: usize| root.path().join(format!("p{i}"));
        let cached = |k: &str| root.path().join("cache").join(file_name(k));
        let aged = |k: &str, s: u64| {
            std::fs::File::options()
                .write(true)
                .open(cached(k))?
                .set_modified(SystemTime::UNIX_EPOCH + std::time::Duration::from_secs(s))
        };
        cache.place(&blob, &keys[0], &placed(0)).await?;
        cache.place(&blob, &keys[1], &placed(1)).await?;
        aged(&keys[0], 1)?;
        aged(&keys[1], 2)?;
        // Key 0, the oldest, is used again: key 1 becomes the oldest.
        cache.place(&blob, &keys[0], &placed(10)).await?;
        cache.place(&blob, &keys[2], &placed(2)).await?;
        let held = |k: &str| cached(k).exists();
        assert!(held(&keys[0]) && !held(&keys[1]) && held(&keys[2]));
        assert_eq!(std::fs::read(placed(1))?, vec![b'b'; 10]);
        // One object larger than the whole cache goes straight to the job.
        blob.put(&keys[3], vec![b'z'; 40]).await?;
        cache.place(&blob, &keys[3], &placed(3)).await?;
        assert!(!held(&keys[3]));
        assert_eq!(std::fs::read(placed(3))?.len(), 40);
        Ok(())
    }

    /// Turned off, nothing is written to the cache directory.
    #[tokio::test]
    async fn a_limit_of_zero_keeps_nothing() -> TestResult {
        let root = tempfile::tempdir()?;
        let blob = store(root.path())?;
        blob.put("t/qs/u/1/materials/c/original.png", &b"x"[..])
            .await?;
        let cache = MaterialCache::new(root.path().join("cache"), 0);
        cache
            .place(
                &blob,
                "t/qs/u/1/materials/c/original.png",
                &root.path().join("c.png"),
            )
            .await?;
        assert_eq!(std::fs::read(root.path().join("c.png"))?, b"x");
        assert!(!root.path().join("cache").exists());
        Ok(())
    }
}
