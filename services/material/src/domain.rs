//! Materials and their rules, free of transport and SQL types.

use reelforge_kit::status::{ErrorKind, ServiceError};

/// The kinds of material the library holds.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum MaterialKind {
    /// A still picture.
    Picture,
    /// An animated GIF.
    Gif,
    /// A vector shape.
    Shape,
    /// A group of materials.
    MaterialGroup,
    /// A video clip.
    Video,
    /// An audio clip.
    Audio,
    /// A special effect (atmosphere, border).
    SpecialEffects,
    /// An art word.
    ArtWord,
    /// A background.
    Backgrounds,
    /// A dynamic-effect word.
    DynamicWord,
}

const KINDS: [(MaterialKind, &str); 10] = [
    (MaterialKind::Picture, "picture"),
    (MaterialKind::Gif, "gif"),
    (MaterialKind::Shape, "shape"),
    (MaterialKind::MaterialGroup, "materialGroup"),
    (MaterialKind::Video, "video"),
    (MaterialKind::Audio, "audio"),
    (MaterialKind::SpecialEffects, "specialEffects"),
    (MaterialKind::ArtWord, "artWord"),
    (MaterialKind::Backgrounds, "backgrounds"),
    (MaterialKind::DynamicWord, "dynamicWord"),
];

impl MaterialKind {
    /// Parses the wire name.
    pub fn parse(s: &str) -> Result<Self, MaterialError> {
        KINDS
            .iter()
            .find(|(_, name)| *name == s)
            .map(|(k, _)| *k)
            .ok_or_else(|| MaterialError::Invalid(format!("type: unknown `{s}`")))
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        KINDS.iter().find(|(k, _)| *k == self).map(|(_, n)| *n).unwrap_or("picture")
    }
}

/// Who is asking: materials are always scoped to a tenant and a user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Owner {
    /// The tenant (variant key).
    pub tenant: String,
    /// The user's id.
    pub user_id: String,
}

/// A stored material.
#[derive(Debug, Clone, PartialEq)]
pub struct Material {
    /// Its id (a UUID).
    pub id: String,
    /// The uploader, empty for system materials.
    pub user_id: String,
    /// Its display name.
    pub name: String,
    /// What it is.
    pub kind: MaterialKind,
    /// Its category, 0 when none.
    pub category_id: i64,
    /// Whether it is shared (1) or private (0).
    pub open_state: i32,
    /// The storage key of the file, made by the server.
    pub relative_path: String,
    /// The storage key of its preview picture, may be empty.
    pub picture_path: String,
    /// Duration in seconds (0 for stills).
    pub time_length: f64,
    /// Pixel size as "WxH".
    pub size: String,
    /// Processing or audit state.
    pub material_state: i32,
    /// Whether it is one of the tenant's system materials.
    pub system: bool,
    /// Creation time, milliseconds since the epoch.
    pub created_ms: i64,
}

/// What is needed to record a material; the id and storage key are made by the store.
#[derive(Debug, Clone, PartialEq)]
pub struct NewMaterial {
    /// Display name (the file name of the upload).
    pub name: String,
    /// What it is.
    pub kind: MaterialKind,
    /// Its category, 0 when none.
    pub category_id: i64,
    /// Shared (1) or private (0).
    pub open_state: i32,
    /// Preview picture key, may be empty.
    pub picture_path: String,
    /// Duration in seconds.
    pub time_length: f64,
    /// Pixel size as "WxH".
    pub size: String,
    /// Processing or audit state.
    pub material_state: i32,
    /// A tenant system material rather than a user's own.
    pub system: bool,
}

/// Page number (from 1) and size.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct PageRequest {
    /// 1-based page number.
    pub num: u64,
    /// Rows per page.
    pub size: u64,
}

/// Largest page size accepted.
pub const MAX_PAGE_SIZE: u64 = 100;

impl PageRequest {
    /// Applies the defaults (page 1, 10 rows) to zeros and caps the size.
    pub fn new(num: u32, size: u32) -> Self {
        let num = if num == 0 { 1 } else { u64::from(num) };
        let size = if size == 0 { 10 } else { u64::from(size).min(MAX_PAGE_SIZE) };
        Self { num, size }
    }
}

/// A list query: the user's own materials or the tenant's system ones, optionally filtered.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct MaterialQuery {
    /// Only this kind.
    pub kind: Option<MaterialKind>,
    /// Only this category.
    pub category_id: Option<i64>,
    /// The tenant's system materials instead of the user's.
    pub system: bool,
    /// Which page.
    pub page: PageRequest,
}

/// Checks a material name.
pub fn parse_name(name: &str) -> Result<String, MaterialError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(MaterialError::Invalid("materialName: must not be empty".into()));
    }
    if name.chars().count() > 255 {
        return Err(MaterialError::Invalid("materialName: longer than 255 characters".into()));
    }
    Ok(name.to_owned())
}

/// Makes the storage key of a material from trusted parts only: the tenant, the id and a
/// sanitised extension of the original name.
pub fn storage_key(tenant: &str, id: &str, name: &str) -> String {
    let ext = name
        .rsplit_once('.')
        .map(|(_, e)| e.to_ascii_lowercase())
        .filter(|e| !e.is_empty() && e.len() <= 8 && e.chars().all(|c| c.is_ascii_alphanumeric()));
    match ext {
        Some(ext) => format!("materials/{tenant}/{id}.{ext}"),
        None => format!("materials/{tenant}/{id}"),
    }
}

/// Why a material call failed.
#[derive(Debug, thiserror::Error)]
pub enum MaterialError {
    /// Bad input; the message names the field.
    #[error("{0}")]
    Invalid(String),
    /// No such material visible to the caller.
    #[error("material {0} does not exist")]
    NotFound(String),
    /// The database failed.
    #[error("material store")]
    Store(#[from] sea_orm::DbErr),
}

impl ServiceError for MaterialError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Invalid(_) => ErrorKind::Invalid,
            Self::NotFound(_) => ErrorKind::NotFound,
            Self::Store(_) => ErrorKind::Internal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn storage_keys_ignore_hostile_names() {
        assert_eq!(storage_key("qs", "id1", "cat.PNG"), "materials/qs/id1.png");
        assert_eq!(storage_key("qs", "id1", "../../etc/passwd"), "materials/qs/id1");
        assert_eq!(storage_key("qs", "id1", "x./../y"), "materials/qs/id1");
    }

    #[test]
    fn page_defaults() {
        assert_eq!(PageRequest::new(0, 0), PageRequest { num: 1, size: 10 });
        assert_eq!(PageRequest::new(3, 1000).size, MAX_PAGE_SIZE);
    }

    #[test]
    fn kinds_round_trip() -> Result<(), MaterialError> {
        for (k, n) in KINDS {
            assert_eq!(MaterialKind::parse(n)?, k);
            assert_eq!(k.as_str(), n);
        }
        assert!(MaterialKind::parse("rocket").is_err());
        Ok(())
    }
}
