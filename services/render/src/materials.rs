//! Where a render finds its materials: a directory the document's paths are looked up in, and
//! the paths of the materials the document names only by id (a scene's background, a picture's
//! mask). The worker fills the ids from the material service; the CLI reads them from an
//! optional `materials.json` (`{"<id>": "<path>"}`) in the directory.

use crate::error::MediaError;
use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

/// Name of the optional id index in a materials directory.
pub const INDEX_FILE: &str = "materials.json";

/// A materials directory and the paths of materials known by id.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Materials {
    /// Directory the document's material paths are looked up in.
    pub dir: PathBuf,
    /// Material id → path (looked up in `dir` like any document path).
    pub by_id: BTreeMap<String, String>,
}

impl Materials {
    /// Returns the materials of `dir` with no ids known.
    pub fn new(dir: impl Into<PathBuf>) -> Self {
        Self {
            dir: dir.into(),
            by_id: BTreeMap::new(),
        }
    }

    /// Returns the materials of `dir`, with the ids of its `materials.json` when it has one.
    pub fn open(dir: &Path) -> Result<Self, MediaError> {
        let mut m = Self::new(dir);
        let index = dir.join(INDEX_FILE);
        if index.is_file() {
            let text = std::fs::read_to_string(&index)?;
            m.by_id = serde_json::from_str(&text)
                .map_err(|e| MediaError::Invalid(format!("{}: {e}", index.display())))?;
        }
        Ok(m)
    }

    /// Returns the file for a material path of the document.
    pub fn resolve(&self, src: &str) -> Result<PathBuf, MediaError> {
        resolve(&self.dir, src)
    }

    /// Returns the path recorded for material `id`, if the index knows it.
    pub fn path_of(&self, id: &str) -> Option<&str> {
        self.by_id.get(id.trim()).map(String::as_str)
    }
}

/// Returns the file for a material path of the document, looked up under `dir`.
fn resolve(dir: &Path, src: &str) -> Result<PathBuf, MediaError> {
    let src = src.trim();
    if src.is_empty() {
        return Err(MediaError::Missing("(no path)".to_owned()));
    }
    // A URL keeps only its path: materials are fetched into `dir` under the same key.
    let path = match src.split_once("://") {
        Some((_, rest)) => rest.split_once('/').map_or("", |(_, p)| p),
        None => src,
    };
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let direct = Path::new(path);
    if direct.is_absolute() && direct.is_file() {
        return Ok(direct.to_path_buf());
    }
    let rel = dir.join(path.trim_start_matches('/'));
    if rel.is_file() {
        return Ok(rel);
    }
    if let Some(name) = direct.file_name() {
        let flat = dir.join(name);
        if flat.is_file() {
            return Ok(flat);
        }
    }
    Err(MediaError::Missing(src.to_owned()))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn index_and_paths() -> Result<(), MediaError> {
        let dir = tempfile::tempdir()?;
        std::fs::create_dir_all(dir.path().join("bg"))?;
        std::fs::write(dir.path().join("bg/sea.png"), b"x")?;
        std::fs::write(dir.path().join(INDEX_FILE), r#"{"77": "bg/sea.png"}"#)?;
        let m = Materials::open(dir.path())?;
        assert_eq!(m.path_of("77"), Some("bg/sea.png"));
        assert_eq!(m.path_of("78"), None);
        assert!(m.resolve("https://cdn.example/bg/sea.png?x=1").is_ok());
        assert!(m.resolve("/bg/sea.png").is_ok());
        assert!(matches!(
            m.resolve("bg/none.png"),
            Err(MediaError::Missing(_))
        ));
        std::fs::write(dir.path().join(INDEX_FILE), "[1]")?;
        assert!(matches!(
            Materials::open(dir.path()),
            Err(MediaError::Invalid(_))
        ));
        Ok(())
    }
}
