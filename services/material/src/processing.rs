//! Background processing of recorded uploads: the original is copied from the blob store into a
//! scratch directory, probed on a blocking thread, the derived files are stored beside the
//! original, and the row becomes ready or failed with its reason.

use std::sync::Arc;

use reelforge_kit::BlobStore;
use tokio::sync::Semaphore;

use crate::domain::{self, Material, MaterialKind};
use crate::probe;
use crate::store::MaterialStore;

/// Probes run at once: decoding is CPU-heavy and shares the machine with renders.
const CONCURRENT_PROBES: usize = 2;

/// Starts probes in the background.
#[derive(Clone)]
pub struct Prober {
    store: MaterialStore,
    blob: BlobStore,
    permits: Arc<Semaphore>,
}

impl Prober {
    /// Probes materials of `store` whose files are in `blob`.
    pub fn new(store: MaterialStore, blob: BlobStore) -> Self {
        Self { store, blob, permits: Arc::new(Semaphore::new(CONCURRENT_PROBES)) }
    }

    /// Probes `m` in the background.
    pub fn spawn(&self, m: Material) {
        self.spawn_with(m, None);
    }

    /// Probes `m` in the background from `local`, the copy of its original the upload's inspection
    /// made, when a probe may start now; else the copy goes (copies are not kept on disk waiting
    /// their turn) and the probe reads the original from the blob store again.
    pub(crate) fn spawn_with(&self, m: Material, local: Option<Local>) {
        let this = self.clone();
        match Arc::clone(&self.permits).try_acquire_owned() {
            Ok(permit) => tokio::spawn(async move {
                let _permit = permit;
                this.process(m, local).await;
            }),
            Err(_) => tokio::spawn(async move {
                drop(local);
                let Ok(_permit) = this.permits.acquire().await else { return };
                this.process(m, None).await;
            }),
        };
    }

    /// Probes every material left processing (by a restart while it was being probed).
    pub async fn resume(&self) {
        match self.store.processing().await {
            Ok(rows) => rows.into_iter().for_each(|m| self.spawn(m)),
            Err(e) => tracing::error!(error = %e, "materials left processing could not be read"),
        }
    }

    async fn process(&self, m: Material, local: Option<Local>) {
        let result = self.probe(&m, local).await;
        let written = match &result {
            Ok((p, _)) => self.store.set_probed(&m.id, p).await,
            Err(reason) => {
                tracing::info!(material = %m.id, %reason, "material failed probing");
                self.store.set_failed(&m.id, reason).await
            }
        };
        match (written, result) {
            (Ok(()), Ok((p, Some(local)))) => self.make_preview(&m, &p, local).await,
            (Err(e), Ok((p, _))) => {
                // The row went away (deleted while it was probed): its derived files must go too.
                tracing::warn!(material = %m.id, error = %e, "probe result not recorded");
                for key in [p.cover_key, p.filmstrip_key, p.waveform_key, p.preview_key].iter().filter(|k| !k.is_empty()) {
                    let _ = self.blob.delete(key).await;
                }
            }
            (Err(e), Err(_)) => tracing::warn!(material = %m.id, error = %e, "probe failure not recorded"),
            (Ok(()), _) => {}
        }
    }

    /// Transcodes a video browsers cannot play (by its container or its codec) into an H.264/AAC
    /// preview, after the material is ready (the render uses the original); a failure leaves the
    /// material without a preview.
    async fn make_preview(&self, m: &Material, p: &domain::Probed, local: Local) {
        let out = local.dir.path().join("preview.mp4");
        let (src, dst, audio, duration) = (local.path.clone(), out.clone(), p.has_audio, p.duration);
        let made = tokio::task::spawn_blocking(move || probe::preview(&src, &dst, audio, duration)).await;
        if let Err(reason) = made.map_err(|e| e.to_string()).and_then(|r| r) {
            tracing::warn!(material = %m.id, %reason, "no preview");
            return;
        }
        let key = domain::derived_key(&m.relative_path, "preview.mp4");
        if let Err(e) = self.blob.upload_file(&key, &out).await {
            tracing::error!(material = %m.id, error = %e, "preview not stored");
            return;
        }
        if let Err(e) = self.store.set_preview(&m.id, &key).await {
            tracing::warn!(material = %m.id, error = %e, "preview not recorded");
            let _ = self.blob.delete(&key).await;
        }
    }

    /// Probes `m` (from `local` when given); answers the facts and, for a video that needs a
    /// preview, the local copy.
    async fn probe(&self, m: &Material, local: Option<Local>) -> Result<(domain::Probed, Option<Local>), String> {
        if m.kind == MaterialKind::Pptx {
            return Ok((domain::Probed::default(), None));
        }
        let local = match local {
            Some(local) => local,
            None => Local::download(&self.blob, &m.relative_path).await?,
        };
        let ext = local.ext();
        // Probed as what the file is: a system background or effect is a picture or a GIF.
        let kind = domain::upload_kind(&ext).unwrap_or(m.kind);
        let (at, of) = (local.path.clone(), ext.clone());
        let out = tokio::task::spawn_blocking(move || probe::probe_file(&at, kind, &of))
            .await
            .map_err(|e| format!("probe: {e}"))??;
        let mut probed = out.probed;
        let (preview, preview_name) = match out.preview {
            Some((bytes, name)) => (Some(bytes), name),
            None => (None, "preview"),
        };
        let files = [
            (out.cover, "cover.jpg", &mut probed.cover_key),
            (out.filmstrip, "filmstrip.jpg", &mut probed.filmstrip_key),
            (out.waveform.map(String::into_bytes), "waveform.json", &mut probed.waveform_key),
            (preview, preview_name, &mut probed.preview_key),
        ];
        for (bytes, name, key) in files {
            if let Some(bytes) = bytes {
                let k = domain::derived_key(&m.relative_path, name);
                self.blob.put(&k, bytes).await.map_err(|e| format!("storing {name}: {e}"))?;
                *key = k;
            }
        }
        Ok((probed, out.transcode.then_some(local)))
    }
}

/// A local copy of an original in a scratch directory, which goes when it is dropped.
pub(crate) struct Local {
    dir: tempfile::TempDir,
    /// The copy: `{dir}/original.{ext}`.
    pub(crate) path: std::path::PathBuf,
}

impl Local {
    /// Copies the object `key` from `blob` into a fresh scratch directory.
    pub(crate) async fn download(blob: &BlobStore, key: &str) -> Result<Self, String> {
        let dir = tempfile::tempdir().map_err(|e| format!("scratch directory: {e}"))?;
        let ext = key.rsplit_once('.').map(|(_, e)| e).filter(|e| !e.contains('/')).unwrap_or("bin");
        let path = dir.path().join(format!("original.{ext}"));
        blob.download_to(key, &path).await.map_err(|e| format!("reading the upload: {e}"))?;
        Ok(Self { dir, path })
    }

    /// The copy's extension, lower case.
    pub(crate) fn ext(&self) -> String {
        self.path.extension().map(|e| e.to_string_lossy().to_ascii_lowercase()).unwrap_or_default()
    }
}
