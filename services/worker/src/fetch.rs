//! Materials of a job into its scratch directory: ids looked up in the owner's library, and only
//! keys under the job's tenant prefix downloaded from the blob store (local directory or S3, same
//! code). A document source that is not a key of the job's tenant or a same-origin material address
//! (`reelforge_timeline::source`) fails the job before anything is read: a hand-made job naming
//! `/etc/passwd`, `../x`, a URL or another tenant's key reads nothing. The gateway's exact-frame
//! still fetches through this same function, so a still can read no more than a render.

use std::path::Path;

use reelforge_kit::{BlobError, BlobStore};
use reelforge_proto::render::RenderJob;
use reelforge_render::Materials;
use reelforge_timeline::Rule;
use reelforge_timeline::source::{Source, parse_source_of, tenant_prefix};

use crate::cache::MaterialCache;
use crate::clients::Clients;
use crate::error::WorkerError;

/// Whether a key the material service gave lies under the tenant's prefix `t/{tenant}/` (user
/// uploads under `u/{user}/`, the starter library under `sys/`).
fn tenant_key(key: &str, tenant: &str) -> bool {
    key.starts_with(&tenant_prefix(tenant))
}

/// The storage key of material `id` in the job owner's library.
async fn key_of_material(
    clients: &Clients,
    job: &RenderJob,
    id: &str,
) -> Result<String, WorkerError> {
    match clients.material(job, id).await {
        Ok(found) => {
            let key = found.relative_path;
            if key.is_empty() {
                return Err(WorkerError::MissingMaterial(id.to_owned()));
            }
            if !tenant_key(&key, &job.tenant) {
                return Err(WorkerError::Rule(format!(
                    "material {id}: its key is not under the tenant's prefix"
                )));
            }
            Ok(key)
        }
        Err(s)
            if matches!(
                s.code(),
                tonic::Code::NotFound | tonic::Code::InvalidArgument
            ) =>
        {
            Err(WorkerError::UnknownMaterial(id.to_owned()))
        }
        Err(s) => Err(WorkerError::Service("material", s)),
    }
}

/// Looks the rule's material ids up as the job's owner and places every material in `dir` (through
/// the worker's material cache); an id the library does not know, or a key storage does not hold,
/// fails naming it; a source outside the job's tenant fails the job as a bad rule, before any download.
pub async fn materials(
    clients: &Clients,
    blob: &BlobStore,
    cache: &MaterialCache,
    job: &RenderJob,
    rule: &Rule,
    dir: &Path,
) -> Result<Materials, WorkerError> {
    let mut m = Materials::new(dir);
    for id in reelforge_render::material_ids(rule) {
        let key = key_of_material(clients, job, &id).await?;
        m.by_id.insert(id, key);
    }
    let mut downloads = Vec::new();
    for src in reelforge_render::material_paths(rule, &m)? {
        let from_library = m.by_id.values().any(|k| *k == src);
        let source = if from_library && tenant_key(&src, &job.tenant) {
            Source::Key(&src)
        } else {
            parse_source_of(&src, &job.tenant)
                .map_err(|e| WorkerError::Rule(format!("material source `{}`: {e}", src.trim())))?
        };
        let key = match source {
            Source::Key(k) => k.to_owned(),
            Source::Material { id } => key_of_material(clients, job, id).await?,
        };
        downloads.push((src.clone(), key, source.local_path()));
    }
    for (src, key, local) in downloads {
        // `local` is a checked relative key or `diyvrbt/material/file/{id}/original`: inside `dir`.
        let file = dir.join(&local);
        if let Some(parent) = file.parent() {
            tokio::fs::create_dir_all(parent).await?;
        }
        match cache.place(blob, &key, &file).await {
            Err(WorkerError::Storage(BlobError::NotFound(_) | BlobError::Key(_))) => {
                return Err(WorkerError::MissingMaterial(src));
            }
            placed => placed?,
        }
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::*;
    use reelforge_kit::Keyring;
    use reelforge_kit::config::SigningKeyConfig;

    type TestResult = Result<(), Box<dyn std::error::Error>>;

    fn rule_naming(src: &str) -> Result<Rule, Box<dyn std::error::Error>> {
        let doc = serde_json::json!({
            "resolutionRatio": {"width": 160, "height": 90, "targetWidth": 160},
            "scenes": [{"timeLength": 2, "bgColor": "#000000",
                "layers": [{"type": "picture", "src": src, "w": 10, "h": 10}]}]
        });
        Ok(Rule::parse(&doc.to_string())?)
    }

    /// A hand-made job of tenant qs naming a file outside its tenant reads nothing and writes
    /// nothing into its scratch directory; a key of its own tenant is fetched.
    #[tokio::test]
    async fn a_job_never_fetches_outside_its_tenant() -> TestResult {
        let root = tempfile::tempdir()?;
        let blob = BlobStore::open(&format!("fs://{}", root.path().join("blobs").display()))?;
        blob.put("t/cc/u/1/materials/x/original.png", &b"theirs"[..])
            .await?;
        blob.put("t/qs/u/1/materials/y/original.png", &b"ours"[..])
            .await?;
        std::fs::write(root.path().join("secret.png"), b"secret")?;
        let keys = Keyring::new(&[SigningKeyConfig {
            id: "k".into(),
            secret: "0123456789abcdef0123456789abcdef".into(),
        }])?;
        // Never called: a document naming keys only looks nothing up.
        let clients = Clients::connect("http://127.0.0.1:9", "http://127.0.0.1:9", keys)?;
        let job = RenderJob {
            tenant: "qs".into(),
            user_id: "1".into(),
            ..Default::default()
        };
        let cache = MaterialCache::new(root.path().join("cache"), 1 << 20);
        let secret = root.path().join("secret.png").display().to_string();
        for src in [
            "t/cc/u/1/materials/x/original.png",
            "/etc/passwd",
            secret.as_str(),
            "../secret.png",
            "t/qs/../cc/u/1/materials/x/original.png",
            "http://evil.example/x",
        ] {
            let dir = root.path().join("job");
            let got = materials(&clients, &blob, &cache, &job, &rule_naming(src)?, &dir).await;
            assert!(
                matches!(&got, Err(WorkerError::Rule(m)) if m.contains("material source")),
                "{src}: {got:?}"
            );
            assert!(!dir.exists(), "{src}: something was written");
        }
        let dir = root.path().join("job");
        let got = materials(
            &clients,
            &blob,
            &cache,
            &job,
            &rule_naming("t/qs/u/1/materials/y/original.png")?,
            &dir,
        )
        .await?;
        let file = got.resolve("t/qs/u/1/materials/y/original.png")?;
        assert!(file.starts_with(&dir));
        assert_eq!(std::fs::read(file)?, b"ours");
        Ok(())
    }

    #[test]
    fn library_keys_must_be_the_tenants() {
        assert!(tenant_key("t/qs/u/1/materials/a/original.png", "qs"));
        assert!(tenant_key("t/qs/sys/materials/a/original.png", "qs"));
        // The material service's old layout is no longer made, and no longer read.
        assert!(!tenant_key("materials/qs/a.png", "qs"));
        assert!(!tenant_key("t/cc/u/1/materials/a/original.png", "qs"));
        assert!(!tenant_key("t/qsx/a.png", "qs"));
    }
}
