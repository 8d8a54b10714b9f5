//! Where a render finds its materials: a directory the document's paths are looked up in, and
//! the paths of the materials the document names only by id (a scene's background, a picture's
//! mask). The worker fills the ids from the material service; the CLI reads them from an
//! optional `materials.json` (`{"<id>": "<path>"}`) in the directory.

use crate::error::MediaError;
use reelforge_timeline::source::{Source, parse_source};
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

/// Returns the file for a material source of the document, always inside `dir`: a storage key
/// (`dir/{key}`, or a file of that name directly in `dir`) or a same-origin material address
/// (`dir/diyvrbt/material/file/{id}/original`, where the worker puts it). Absolute paths, `..`,
/// URLs and anything else `reelforge_timeline::source` refuses are refused here too, whoever
/// calls (the worker and the CLI alike), so no document opens a file outside its materials.
fn resolve(dir: &Path, src: &str) -> Result<PathBuf, MediaError> {
    let src = src.trim();
    if src.is_empty() {
        return Err(MediaError::Missing("(no path)".to_owned()));
    }
    let source = parse_source(src)
        .map_err(|e| MediaError::Invalid(format!("material source \"{src}\": {e}")))?;
    let rel = dir.join(source.local_path());
    if rel.is_file() {
        return Ok(rel);
    }
    if let Source::Key(key) = source
        && let Some(name) = Path::new(key).file_name()
    {
        let flat = dir.join(name);
        if flat.is_file() {
            return Ok(flat);
        }
    }
    Err(MediaError::Missing(src.to_owned()))
}
