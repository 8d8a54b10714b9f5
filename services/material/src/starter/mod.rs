//! The starter library: backgrounds in every style class, masks, borders, atmosphere effects,
//! button samples and music, all made by the project (tiny-skia pictures, GIFs with a fixed
//! palette, a small synthesiser), so a new installation has something to pick from.
//!
//! The files are made once per process, on a blocking thread, the first time a tenant needs them:
//! pictures measured from their pixels with covers made as uploads' are, music probed through
//! GStreamer as uploads are (waveform, loudness). Each tenant then gets
//! its own copies under `t/{tenant}/sys/materials/{id}/` and its rows, once (see `store::seed`).
//! Ids are derived from the tenant and the entry, so concurrent seedings write the same objects
//! and the losing transaction leaves nothing behind.

pub mod catalogue;

use std::collections::HashSet;
use std::sync::Arc;
use std::time::Instant;

use reelforge_kit::BlobStore;
use reelforge_pixels::{animate, music, paint, still};
use tokio::sync::OnceCell;

use crate::domain::{self, MaterialError, MaterialKind, Probed};
use crate::probe;
use crate::store::{MaterialStore, Seeded};
use catalogue::{Art, Entry};

/// One starter material, made and probed.
struct Made {
    /// The catalogue entry's key.
    key: &'static str,
    /// Display name.
    name: &'static str,
    /// Its material kind.
    kind: MaterialKind,
    /// Its system category.
    category_id: i64,
    /// Its style class, -1 none.
    style_id: i64,
    /// The file's extension.
    ext: &'static str,
    /// The file.
    bytes: Vec<u8>,
    /// What probing found (keys empty).
    probed: Probed,
    /// The cover probing made.
    cover: Option<Vec<u8>>,
    /// The waveform probing made.
    waveform: Option<String>,
}

/// What GStreamer calls the codec of a file with this extension, as an upload's row records it.
fn codec(ext: &str) -> &'static str {
    match ext {
        "jpg" => "JPEG image",
        "png" => "PNG image",
        _ => "GIF image",
    }
}

/// Makes `entry`'s file and probes it. Pictures are measured and get their cover from the pixels
/// drawn (the cover as an upload's: at most 480 px, JPEG); GStreamer's set-up would cost more
/// than the drawing. Music is probed through GStreamer as an upload is, for its waveform and
/// loudness.
fn make(entry: &Entry, scratch: &std::path::Path) -> Result<Made, String> {
    let (bytes, ext, picture, duration) = match &entry.art {
        Art::Still { w, h, opaque, draw } => {
            let mut canvas = paint::Canvas::new(*w, *h)?;
            draw(&mut canvas);
            let rgba = canvas.rgba();
            let (bytes, ext) = still::encode(&rgba, *opaque)?;
            (bytes, ext, Some(rgba), 0.0)
        }
        Art::Moving { w, h, frames, draw } => {
            let (bytes, first) = animate::gif(*w, *h, *frames, catalogue::FRAME_DELAY_CS, *draw)?;
            (
                bytes,
                "gif",
                Some(first),
                f64::from(*frames) * f64::from(catalogue::FRAME_DELAY_CS) / 100.0,
            )
        }
        Art::Music(tune) => (music::wav(&music::render(tune, 7)), "wav", None, 0.0),
    };
    let (probed, cover, waveform) = match picture {
        Some(rgba) => {
            let probed = Probed {
                duration,
                width: rgba.width() as i32,
                height: rgba.height() as i32,
                codec: codec(ext).to_owned(),
                ..Probed::default()
            };
            (probed, Some(probe::cover_of(&rgba)?), None)
        }
        None => {
            let path = scratch.join(format!("{}.{ext}", entry.key));
            std::fs::write(&path, &bytes).map_err(|e| e.to_string())?;
            let out = probe::probe_file(&path, MaterialKind::Audio, ext)?;
            (out.probed, None, out.waveform)
        }
    };
    Ok(Made {
        key: entry.key,
        name: entry.name,
        kind: entry.kind,
        category_id: entry.category_id,
        style_id: entry.style_id,
        ext,
        bytes,
        probed,
        cover,
        waveform,
    })
}

/// Makes and probes every entry, on as many threads as there are cores (at most 4). Blocks:
/// run it on a blocking thread.
fn make_all() -> Result<Vec<Made>, String> {
    let scratch = tempfile::tempdir().map_err(|e| format!("scratch directory: {e}"))?;
    let entries = catalogue::entries();
    let workers = std::thread::available_parallelism().map_or(1, |n| n.get().min(4));
    let mut made: Vec<Option<Result<Made, String>>> = (0..entries.len()).map(|_| None).collect();
    std::thread::scope(|scope| {
        let runs: Vec<_> = (0..workers)
            .map(|w| {
                let (entries, dir) = (&entries, scratch.path());
                scope.spawn(move || {
                    (w..entries.len())
                        .step_by(workers)
                        .map(|i| {
                            (
                                i,
                                make(&entries[i], dir)
                                    .map_err(|e| format!("{}: {e}", entries[i].key)),
                            )
                        })
                        .collect::<Vec<_>>()
                })
            })
            .collect();
        for run in runs {
            match run.join() {
                Ok(results) => results.into_iter().for_each(|(i, r)| made[i] = Some(r)),
                Err(_) => return Err("a starter worker panicked".to_owned()),
            }
        }
        Ok(())
    })?;
    made.into_iter()
        .map(|m| m.unwrap_or_else(|| Err("an entry was not made".to_owned())))
        .collect()
}

/// The starter files of this process, made on first use.
static LIBRARY: OnceCell<Arc<Vec<Made>>> = OnceCell::const_new();

async fn library() -> Result<Arc<Vec<Made>>, MaterialError> {
    LIBRARY
        .get_or_try_init(|| async {
            let started = Instant::now();
            let made = tokio::task::spawn_blocking(make_all)
                .await
                .map_err(|e| MaterialError::Starter(e.to_string()))?;
            let made = made.map_err(MaterialError::Starter)?;
            tracing::info!(
                items = made.len(),
                ms = started.elapsed().as_millis() as u64,
                "starter library made"
            );
            Ok(Arc::new(made))
        })
        .await
        .cloned()
}

/// The id of entry `key` in `tenant`'s library: the same on every seeding of the tenant (a
/// 128-bit FNV-1a hash as a version-8 UUID), different across tenants.
pub fn starter_id(tenant: &str, key: &str) -> String {
    let mut h: u128 = 0x6c62_272e_07bb_0142_62b8_2175_6295_c58d;
    for b in tenant.bytes().chain([0]).chain(key.bytes()) {
        h ^= u128::from(b);
        h = h.wrapping_mul(0x0000_0000_0100_0000_0000_0000_0000_013b);
    }
    uuid::Builder::from_custom_bytes(h.to_be_bytes())
        .into_uuid()
        .to_string()
}

/// Seeds tenants' starter libraries into a store and a blob store.
#[derive(Clone)]
pub struct Starter {
    store: MaterialStore,
    blob: BlobStore,
    /// Tenants known to be seeded, so a system list costs no query for it after the first.
    seeded: Arc<std::sync::Mutex<HashSet<String>>>,
    /// Held while seeding: concurrent first lists in this process store the files once (other
    /// processes are kept to one set by the seed row).
    seeding: Arc<tokio::sync::Mutex<()>>,
}

impl Starter {
    /// Seeds into `store`, the files into `blob`.
    pub fn new(store: MaterialStore, blob: BlobStore) -> Self {
        Self {
            store,
            blob,
            seeded: Arc::default(),
            seeding: Arc::default(),
        }
    }

    fn known(&self, tenant: &str) -> bool {
        self.seeded.lock().is_ok_and(|s| s.contains(tenant))
    }

    /// Seeds `tenant`'s starter library unless it is seeded; answers whether this call did.
    pub async fn seed(&self, tenant: &str) -> Result<bool, MaterialError> {
        if self.known(tenant) {
            return Ok(false);
        }
        let _seeding = self.seeding.lock().await;
        if self.known(tenant) || self.store.is_seeded(tenant).await? {
            self.remember(tenant);
            return Ok(false);
        }
        let seeded = self.store_files_and_rows(tenant).await?;
        self.remember(tenant);
        Ok(seeded)
    }

    fn remember(&self, tenant: &str) {
        if let Ok(mut s) = self.seeded.lock() {
            s.insert(tenant.to_owned());
        }
    }

    /// Stores the files, then the rows, so a listed starter material always has its file.
    async fn store_files_and_rows(&self, tenant: &str) -> Result<bool, MaterialError> {
        let started = Instant::now();
        let made = library().await?;
        let mut rows = Vec::with_capacity(made.len());
        for m in made.iter() {
            let id = starter_id(tenant, m.key);
            let key = domain::storage_key(tenant, None, &id, &format!("{}.{}", m.key, m.ext));
            self.blob.put(&key, m.bytes.clone()).await?;
            let mut probed = m.probed.clone();
            if let Some(cover) = &m.cover {
                probed.cover_key = domain::derived_key(&key, "cover.jpg");
                self.blob.put(&probed.cover_key, cover.clone()).await?;
            }
            if let Some(waveform) = &m.waveform {
                probed.waveform_key = domain::derived_key(&key, "waveform.json");
                self.blob
                    .put(&probed.waveform_key, waveform.clone().into_bytes())
                    .await?;
            }
            rows.push(Seeded {
                id,
                key,
                kind: m.kind,
                name: m.name.to_owned(),
                category_id: m.category_id,
                style_id: m.style_id,
                file_size: m.bytes.len() as u64,
                probed,
            });
        }
        let seeded = self.store.seed(tenant, rows).await?;
        if seeded {
            tracing::info!(%tenant, items = made.len(), ms = started.elapsed().as_millis() as u64, "starter library seeded");
        }
        Ok(seeded)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ids_are_stable_per_tenant_and_differ_across_tenants() {
        let a = starter_id("qs", "bg-gradient-dawn");
        assert_eq!(a, starter_id("qs", "bg-gradient-dawn"));
        assert_ne!(a, starter_id("cc", "bg-gradient-dawn"));
        assert_ne!(a, starter_id("qs", "bg-gradient-ocean"));
        assert!(uuid::Uuid::parse_str(&a).is_ok(), "{a}");
    }

    #[test]
    fn every_entry_has_its_own_key() {
        let entries = catalogue::entries();
        let keys: std::collections::BTreeSet<&str> = entries.iter().map(|e| e.key).collect();
        assert_eq!(keys.len(), entries.len());
    }
}
