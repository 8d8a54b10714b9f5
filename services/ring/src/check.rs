//! Checking a video against the caller's delivery profile with `reelforge-conform`. The task's MP4
//! is copied from storage into a scratch file and measured on a blocking thread; measurements are
//! kept in a small in-process cache (moka, as the auth service's) keyed by the video's storage key
//! (a render never rewrites a key with other content: each run writes its own job's key), so `/ring/check` followed by `saveRing`
//! measures once. The profile is applied to the measurement on every call (cheap, and the variant's
//! profile may differ).

use std::path::PathBuf;

use reelforge_conform::{Measurement, Report};
use reelforge_kit::BlobStore;
use reelforge_kit::config::DeliveryProfile;

use crate::domain::RingError;

/// Measurements kept.
const CACHED: u64 = 64;

/// The profile checks: measuring videos read from storage.
#[derive(Clone)]
pub struct Checker {
    blob: BlobStore,
    scratch: PathBuf,
    cache: moka::sync::Cache<String, Measurement>,
}

impl Checker {
    /// Reads videos from `blob` into files under `scratch` to measure them.
    pub fn new(blob: BlobStore, scratch: PathBuf) -> Self {
        Self {
            blob,
            scratch,
            cache: moka::sync::Cache::new(CACHED),
        }
    }

    /// The rules a document decides (size, orientation, duration): `{conforms, violations}`.
    pub fn precheck(
        &self,
        profile: &DeliveryProfile,
        width: u32,
        height: u32,
        seconds: f64,
    ) -> serde_json::Value {
        let violations = reelforge_conform::precheck(profile, width, height, seconds);
        serde_json::json!({ "conforms": violations.is_empty(), "violations": violations })
    }

    /// The report of the finished video under `video_key` against `profile`.
    pub async fn check(
        &self,
        profile: &DeliveryProfile,
        video_key: &str,
    ) -> Result<Report, RingError> {
        let m = self.measurement(video_key).await?;
        Ok(reelforge_conform::check(profile, &m))
    }

    /// Refuses a video that breaks `profile` (`profile_violation`, with the violations).
    pub async fn require_conforming(
        &self,
        profile: &DeliveryProfile,
        video_key: &str,
    ) -> Result<(), RingError> {
        let report = self.check(profile, video_key).await?;
        if report.conforms {
            return Ok(());
        }
        let summary = report
            .violations
            .iter()
            .map(|v| v.message.as_str())
            .collect::<Vec<_>>()
            .join("; ");
        let violations = serde_json::to_value(&report.violations)
            .map_err(|e| RingError::Measure(e.to_string()))?;
        Err(RingError::ProfileViolation {
            summary,
            violations,
        })
    }

    async fn measurement(&self, key: &str) -> Result<Measurement, RingError> {
        if let Some(m) = self.cache.get(key) {
            return Ok(m);
        }
        std::fs::create_dir_all(&self.scratch)
            .map_err(|e| RingError::Measure(format!("{}: {e}", self.scratch.display())))?;
        let file = tempfile::Builder::new()
            .prefix("ring-check-")
            .suffix(".mp4")
            .tempfile_in(&self.scratch)
            .map_err(|e| RingError::Measure(e.to_string()))?;
        self.blob
            .download_to(key, file.path())
            .await
            .map_err(|e| RingError::Blob(e.to_string()))?;
        // Measuring decodes the whole file: off the async threads. The file goes when it is done.
        let m = tokio::task::spawn_blocking(move || reelforge_conform::measure(file.path()))
            .await
            .map_err(|e| RingError::Measure(e.to_string()))?
            .map_err(|e| RingError::Measure(e.to_string()))?;
        self.cache.insert(key.to_owned(), m.clone());
        Ok(m)
    }
}
