//! Materials of a job into its scratch directory: ids looked up in the owner's library, every
//! path the document names downloaded from the blob store (local directory or S3, same code).

use std::path::Path;

use reelforge_kit::{BlobError, BlobStore};
use reelforge_proto::render::RenderJob;
use reelforge_render::Materials;
use reelforge_timeline::Rule;

use crate::clients::Clients;
use crate::error::WorkerError;

/// The storage key of a document path: a URL keeps its path, without query or leading slash.
fn key_of(src: &str) -> String {
    let src = src.trim();
    let path = match src.split_once("://") {
        Some((_, rest)) => rest.split_once('/').map_or("", |(_, p)| p),
        None => src,
    };
    path.split(['?', '#'])
        .next()
        .unwrap_or(path)
        .trim_start_matches('/')
        .to_owned()
}

/// Looks the rule's material ids up as the job's owner and downloads every material into `dir`;
/// an id the library does not know, or a path storage does not hold, fails naming it.
pub async fn materials(
    clients: &Clients,
    blob: &BlobStore,
    job: &RenderJob,
    rule: &Rule,
    dir: &Path,
) -> Result<Materials, WorkerError> {
    let mut m = Materials::new(dir);
    for id in reelforge_render::material_ids(rule) {
        match clients.material(job, &id).await {
            Ok(found) => {
                let path = found.relative_path;
                if path.is_empty() {
                    return Err(WorkerError::MissingMaterial(id));
                }
                m.by_id.insert(id, path);
            }
            Err(s)
                if matches!(
                    s.code(),
                    tonic::Code::NotFound | tonic::Code::InvalidArgument
                ) =>
            {
                return Err(WorkerError::UnknownMaterial(id));
            }
            Err(s) => return Err(WorkerError::Service("material", s)),
        }
    }
    let paths = reelforge_render::material_paths(rule, &m)?;
    for src in paths {
        let key = key_of(&src);
        let bytes = match blob.get(&key).await {
            Ok(b) => b,
            Err(BlobError::NotFound(_) | BlobError::Key(_)) => {
                return Err(WorkerError::MissingMaterial(src));
            }
            Err(e) => return Err(e.into()),
        };
        let file = dir.join(&key);
        if let Some(parent) = file.parent() {
            tokio::fs::create_dir_all(parent).await?;
        }
        tokio::fs::write(&file, &bytes).await?;
    }
    Ok(m)
}

#[cfg(test)]
mod tests {
    use super::key_of;

    #[test]
    fn keys_of_document_paths() {
        assert_eq!(key_of("https://cdn.example/t/qs/a.png?x=1"), "t/qs/a.png");
        assert_eq!(key_of("/t/qs/a.png"), "t/qs/a.png");
        assert_eq!(key_of(" t/qs/a.png#f "), "t/qs/a.png");
    }
}
