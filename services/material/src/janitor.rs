//! The janitor: removes the objects under the materials prefixes that no material references once
//! they are older than a grace period: uploads abandoned between the gateway's store and `Record`,
//! objects a failed cleanup left, files of deleted materials. An object a live row names (its
//! original or anything in its directory) and a fresh one are never touched. It also aborts the
//! uploads under `t/` begun longer ago than the grace period and never completed (a process killed
//! in the middle of one leaves its S3 multipart upload, which no object listing shows).

use std::collections::HashSet;
use std::time::{Duration, SystemTime};

use reelforge_kit::BlobStore;

use crate::domain::MaterialError;
use crate::store::MaterialStore;

/// What one sweep did.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Swept {
    /// The keys removed.
    pub removed: Vec<String>,
    /// The keys of the incomplete uploads aborted.
    pub aborted: Vec<String>,
    /// Unreferenced objects and incomplete uploads left because they are younger than the grace period.
    pub fresh: usize,
    /// Unreferenced objects and incomplete uploads whose removal failed (logged; the next sweep
    /// tries again).
    pub failed: usize,
}

/// Sweeps the material objects of every tenant.
#[derive(Clone)]
pub struct Janitor {
    store: MaterialStore,
    blob: BlobStore,
    grace: Duration,
}

/// The material directory of `key` (`t/{tenant}/u/{user}/materials/{id}/` or
/// `t/{tenant}/sys/materials/{id}/`) when the key is a file in one.
fn material_dir(key: &str) -> Option<&str> {
    let parts: Vec<&str> = key.split('/').collect();
    let depth = match parts.as_slice() {
        ["t", _, "u", _, "materials", ..] => 6,
        ["t", _, "sys", "materials", ..] => 5,
        _ => return None,
    };
    if parts.len() <= depth || parts[..depth].iter().any(|p| p.is_empty()) || parts[depth..].iter().any(|p| p.is_empty()) {
        return None;
    }
    let len: usize = parts[..depth].iter().map(|p| p.len() + 1).sum();
    key.get(..len)
}

impl Janitor {
    /// A janitor of the materials in `store` and their objects in `blob`, leaving unreferenced
    /// objects younger than `grace`.
    pub fn new(store: MaterialStore, blob: BlobStore, grace: Duration) -> Self {
        Self { store, blob, grace }
    }

    /// Removes every unreferenced material object and aborts every incomplete upload older than
    /// the grace period. The objects are listed before the rows are read, so a material recorded
    /// meanwhile keeps its objects.
    #[tracing::instrument(skip_all)]
    pub async fn sweep(&self) -> Result<Swept, MaterialError> {
        let objects = self.blob.list_modified("t/").await?;
        let uploads = self.blob.incomplete_uploads("t/").await?;
        let live: HashSet<String> = self.store.live_dirs().await?;
        let now = SystemTime::now();
        let mut swept = Swept::default();
        for (key, at) in objects {
            let Some(dir) = material_dir(&key) else { continue };
            if live.contains(dir) {
                continue;
            }
            // A time ahead of ours (another clock) reads as age zero: fresh.
            if now.duration_since(at).unwrap_or_default() < self.grace {
                swept.fresh += 1;
                continue;
            }
            match self.blob.delete(&key).await {
                Ok(()) => {
                    tracing::info!(%key, "unreferenced material object removed");
                    swept.removed.push(key);
                }
                Err(e) => {
                    tracing::warn!(%key, error = %e, "unreferenced material object not removed");
                    swept.failed += 1;
                }
            }
        }
        for upload in uploads {
            if now.duration_since(upload.initiated).unwrap_or_default() < self.grace {
                swept.fresh += 1;
                continue;
            }
            let key = upload.key.clone();
            match self.blob.abort_upload(&upload).await {
                Ok(()) => {
                    tracing::info!(%key, upload_id = %upload.upload_id, "incomplete upload aborted");
                    swept.aborted.push(key);
                }
                Err(e) => {
                    tracing::warn!(%key, upload_id = %upload.upload_id, error = %e, "incomplete upload not aborted");
                    swept.failed += 1;
                }
            }
        }
        let removed = u64::try_from(swept.removed.len()).unwrap_or(u64::MAX);
        let aborted = u64::try_from(swept.aborted.len()).unwrap_or(u64::MAX);
        reelforge_kit::metrics::JANITOR_REMOVED.with_label_values(&["objects"]).inc_by(removed);
        reelforge_kit::metrics::JANITOR_REMOVED.with_label_values(&["uploads"]).inc_by(aborted);
        tracing::info!(removed, aborted, fresh = swept.fresh, failed = swept.failed, "material janitor swept");
        Ok(swept)
    }

    /// Sweeps every `interval`, the first one interval from now, for as long as the process runs;
    /// a failed sweep is logged and the next one tries again.
    pub async fn run(self, interval: Duration) {
        let mut ticks = tokio::time::interval_at(tokio::time::Instant::now() + interval, interval);
        ticks.set_missed_tick_behavior(tokio::time::MissedTickBehavior::Delay);
        loop {
            ticks.tick().await;
            if let Err(e) = self.sweep().await {
                tracing::error!(error = %e, "material janitor sweep failed");
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::material_dir;

    #[test]
    fn only_files_in_material_directories_are_swept() {
        let id = "0b8f2a4e-1f5e-4d3a-9c7b-2a1e3f4d5c6b";
        assert_eq!(material_dir(&format!("t/qs/u/a@x.cn/materials/{id}/original.png")), Some(format!("t/qs/u/a@x.cn/materials/{id}/").as_str()));
        assert_eq!(material_dir(&format!("t/qs/sys/materials/{id}/cover.jpg")), Some(format!("t/qs/sys/materials/{id}/").as_str()));
        for other in [
            "t/qs/renders/1/out.mp4".to_owned(),
            format!("t/qs/u/a@x.cn/fonts/{id}/f.ttf"),
            format!("t/qs/u/a@x.cn/materials/{id}/"),
            "t/qs/u/a@x.cn/materials/stray.png".to_owned(),
            format!("t/qs/u//materials/{id}/original.png"),
        ] {
            assert_eq!(material_dir(&other), None, "{other}");
        }
    }
}
