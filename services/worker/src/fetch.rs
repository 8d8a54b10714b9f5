//! Materials of a job into its scratch directory: ids looked up in the owner's library (or, for an
//! id the job's template lends, in the template creator's), and only keys the job may read
//! downloaded from the blob store (local directory or S3, same code): the owner's
//! (`t/{tenant}/u/{user}/`), the tenant's system materials (`t/{tenant}/sys/`) and the keys the
//! template lends. A document source that is none of these or a same-origin material address
//! (`reelforge_timeline::source`) fails the job before anything is read: a hand-made job naming
//! `/etc/passwd`, `../x`, a URL, another tenant's key or another user's reads nothing. The owner and
//! the grant come from the job, which the task service wrote. The gateway's exact-frame still
//! fetches through this same function, so a still can read no more than a render.

use std::path::Path;

use reelforge_kit::{BlobError, BlobStore};
use reelforge_proto::render::RenderJob;
use reelforge_render::Materials;
use reelforge_timeline::Rule;
use reelforge_timeline::source::{Access, Grant, Source, system_prefix, user_prefix};

use crate::cache::MaterialCache;
use crate::clients::Clients;
use crate::error::WorkerError;

/// What a job may read: its owner's materials, the tenant's system ones and what the template the
/// task was made from lends, as the task service wrote them into the job.
pub fn access_of(job: &RenderJob) -> Access {
    Access::of(&job.tenant, &job.user_id).with_grant(Grant {
        owner: job.grant_owner.clone(),
        keys: job.granted_keys.iter().cloned().collect(),
        materials: job.granted_materials.iter().cloned().collect(),
    })
}

/// Whether a key the material service gave for a material of `user` is theirs or a system one.
fn library_key(key: &str, tenant: &str, user: &str) -> bool {
    (!user.is_empty() && key.starts_with(&user_prefix(tenant, user)))
        || key.starts_with(&system_prefix(tenant))
}

/// The storage key of material `id`: in the template creator's library when the template lends
/// it, else in the job owner's.
async fn key_of_material(
    clients: &Clients,
    job: &RenderJob,
    access: &Access,
    id: &str,
) -> Result<String, WorkerError> {
    let user = if access.grants_material(id) {
        access.grant.owner.as_str()
    } else {
        job.user_id.as_str()
    };
    match clients.material_as(job, user, id).await {
        Ok(found) => {
            let key = found.relative_path;
            if key.is_empty() {
                return Err(WorkerError::MissingMaterial(id.to_owned()));
            }
            if !library_key(&key, &job.tenant, user) {
                return Err(WorkerError::Rule(format!(
                    "material {id}: its key is neither the library owner's nor a system material's"
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
    let access = access_of(job);
    let mut m = Materials::new(dir);
    for id in reelforge_render::material_ids(rule) {
        let key = key_of_material(clients, job, &access, &id).await?;
        m.by_id.insert(id, key);
    }
    let mut downloads = Vec::new();
    for src in reelforge_render::material_paths(rule, &m)? {
        // A key the library gave above was checked there.
        let from_library = m.by_id.values().any(|k| *k == src);
        let source = if from_library {
            Source::Key(&src)
        } else {
            access
                .check(&src)
                .map_err(|e| WorkerError::Rule(format!("material source `{}`: {e}", src.trim())))?
        };
        let key = match source {
            Source::Key(k) => k.to_owned(),
            Source::Material { id } => key_of_material(clients, job, &access, id).await?,
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

/// Places a tool job's input materials in `dir` (`input-0`, …), each looked up as the job's owner
/// and read only from the owner's or the system library.
pub async fn inputs(
    clients: &Clients,
    blob: &BlobStore,
    cache: &MaterialCache,
    job: &RenderJob,
    dir: &Path,
) -> Result<Vec<std::path::PathBuf>, WorkerError> {
    let access = Access::of(&job.tenant, &job.user_id);
    tokio::fs::create_dir_all(dir).await?;
    let mut placed = Vec::with_capacity(job.material_ids.len());
    for (i, id) in job.material_ids.iter().enumerate() {
        let key = key_of_material(clients, job, &access, id).await?;
        let file = dir.join(format!("input-{i}"));
        match cache.place(blob, &key, &file).await {
            Err(WorkerError::Storage(BlobError::NotFound(_) | BlobError::Key(_))) => {
                return Err(WorkerError::MissingMaterial(id.clone()));
            }
            done => done?,
        }
        placed.push(file);
    }
    Ok(placed)
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
        let clients = Clients::connect("http://127.0.0.1:9", "http://127.0.0.1:9", keys, &Default::default())?;
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
    fn library_keys_must_be_the_owners_or_system() {
        assert!(library_key("t/qs/u/1/materials/a/original.png", "qs", "1"));
        assert!(library_key("t/qs/sys/materials/a/original.png", "qs", "1"));
        assert!(!library_key("t/qs/u/2/materials/a/original.png", "qs", "1"));
        assert!(!library_key(
            "t/qs/u/12/materials/a/original.png",
            "qs",
            "1"
        ));
        // The material service's old layout is no longer made, and no longer read.
        assert!(!library_key("materials/qs/a.png", "qs", "1"));
        assert!(!library_key("t/cc/u/1/materials/a/original.png", "qs", "1"));
        assert!(!library_key("t/qsx/a.png", "qs", "1"));
        assert!(!library_key("t/qs/tasks/1/renders/j.mp4", "qs", "1"));
    }

    /// Prefixes the document checks build are the ones the blob store makes keys under.
    #[test]
    fn prefixes_agree_with_the_blob_store() {
        for user in ["a@x.cn", "u1001", "a/../b", "..", "声"] {
            assert!(
                reelforge_kit::blob::user_material_prefix("qs", user)
                    .starts_with(&user_prefix("qs", user)),
                "{user}"
            );
        }
        assert!(
            reelforge_kit::blob::system_material_prefix("qs").starts_with(&system_prefix("qs"))
        );
    }

    /// A job of user 1 never reads user 2's private key of the same tenant, unless the template
    /// the task was made from names that key; its own keys and system keys it reads.
    #[tokio::test]
    async fn a_job_reads_another_users_key_only_through_its_template() -> TestResult {
        let root = tempfile::tempdir()?;
        let blob = BlobStore::open(&format!("fs://{}", root.path().join("blobs").display()))?;
        let theirs = "t/qs/u/2/materials/x/original.png";
        blob.put(theirs, &b"theirs"[..]).await?;
        blob.put("t/qs/sys/materials/s/original.png", &b"system"[..])
            .await?;
        let keys = Keyring::new(&[SigningKeyConfig {
            id: "k".into(),
            secret: "0123456789abcdef0123456789abcdef".into(),
        }])?;
        let clients = Clients::connect("http://127.0.0.1:9", "http://127.0.0.1:9", keys, &Default::default())?;
        let cache = MaterialCache::new(root.path().join("cache"), 1 << 20);
        let job = RenderJob {
            tenant: "qs".into(),
            user_id: "1".into(),
            ..Default::default()
        };
        let dir = root.path().join("job");
        let got = materials(&clients, &blob, &cache, &job, &rule_naming(theirs)?, &dir).await;
        assert!(
            matches!(&got, Err(WorkerError::Rule(m)) if m.contains(theirs) && m.contains("another user's")),
            "{got:?}"
        );
        assert!(!dir.exists(), "nothing was written");
        let system = materials(
            &clients,
            &blob,
            &cache,
            &job,
            &rule_naming("t/qs/sys/materials/s/original.png")?,
            &dir,
        )
        .await?;
        assert_eq!(
            std::fs::read(system.resolve("t/qs/sys/materials/s/original.png")?)?,
            b"system"
        );
        let lent = RenderJob {
            grant_owner: "2".into(),
            granted_keys: vec![theirs.into()],
            ..job.clone()
        };
        let dir = root.path().join("job2");
        let got = materials(&clients, &blob, &cache, &lent, &rule_naming(theirs)?, &dir).await?;
        assert_eq!(std::fs::read(got.resolve(theirs)?)?, b"theirs");
        Ok(())
    }
}
