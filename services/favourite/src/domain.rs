//! Favourites and their rules.

use reelforge_kit::status::{ErrorKind, ServiceError};

/// One favourite of one user.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Favourite {
    /// The favourite thing's id.
    pub id: String,
    /// Its kind (a material type, `template` or `font`).
    pub kind: String,
    /// The owner.
    pub user_id: String,
    /// When it was added, in Unix milliseconds.
    pub created_ms: i64,
}

/// Most keywords a user's search history keeps (editor spec §9).
pub const SEARCH_HISTORY_LEN: u64 = 10;

/// Longest search keyword, in characters.
pub const MAX_KEYWORD_CHARS: usize = 64;

/// Checks and trims a search keyword.
pub fn parse_keyword(keyword: &str) -> Result<String, FavouriteError> {
    let k = keyword.trim();
    if k.is_empty() {
        return Err(FavouriteError::Invalid("keyword: must not be empty".into()));
    }
    if k.chars().count() > MAX_KEYWORD_CHARS {
        return Err(FavouriteError::Invalid(format!("keyword: longer than {MAX_KEYWORD_CHARS} characters")));
    }
    Ok(k.to_owned())
}

/// Checks the kind a list is filtered by; empty lists every kind.
pub fn parse_kind_filter(kind: &str) -> Result<Option<String>, FavouriteError> {
    if kind.is_empty() {
        return Ok(None);
    }
    if !KINDS.contains(&kind) {
        return Err(FavouriteError::Invalid(format!("type: unknown `{kind}`")));
    }
    Ok(Some(kind.to_owned()))
}

/// Kinds a favourite may have.
pub const KINDS: &[&str] = &[
    "picture", "gif", "shape", "materialGroup", "video", "audio", "specialEffects", "artWord", "backgrounds",
    "dynamicWord", "template", "font",
];

/// Checks a favourite's id and kind.
pub fn parse(id: &str, kind: &str) -> Result<(String, String), FavouriteError> {
    let id = id.trim();
    if id.is_empty() || id.len() > 64 {
        return Err(FavouriteError::Invalid("id: must be 1 to 64 characters".into()));
    }
    if !KINDS.contains(&kind) {
        return Err(FavouriteError::Invalid(format!("type: unknown `{kind}`")));
    }
    Ok((id.to_owned(), kind.to_owned()))
}

/// Why a favourite call failed.
#[derive(Debug, thiserror::Error)]
pub enum FavouriteError {
    /// Bad input; the message names the field.
    #[error("{0}")]
    Invalid(String),
    /// The database failed.
    #[error("favourite store")]
    Store(#[from] sea_orm::DbErr),
}

impl ServiceError for FavouriteError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Invalid(_) => ErrorKind::Invalid,
            Self::Store(_) => ErrorKind::Internal,
        }
    }
}
