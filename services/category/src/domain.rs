//! Categories and their rules, free of transport and SQL types.

use reelforge_kit::status::{ErrorKind, ServiceError};

/// What a category classifies.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Dimension {
    /// The customer's industry.
    Industry,
    /// The purpose of the video.
    Use,
    /// The aspect-ratio size group.
    Size,
    /// Interactive voice response templates (one level only).
    Ivvr,
    /// The audio library's categories (`GET /category/audio`).
    Audio,
}

impl Dimension {
    /// Parses the wire name.
    pub fn parse(s: &str) -> Result<Self, CategoryError> {
        match s {
            "industry" => Ok(Self::Industry),
            "use" => Ok(Self::Use),
            "size" => Ok(Self::Size),
            "ivvr" | "IVVR" => Ok(Self::Ivvr),
            "audio" => Ok(Self::Audio),
            other => Err(CategoryError::Invalid(format!("dimension: unknown `{other}` (industry, use, size, ivvr, audio)"))),
        }
    }

    /// The wire name.
    pub fn as_str(self) -> &'static str {
        match self {
            Self::Industry => "industry",
            Self::Use => "use",
            Self::Size => "size",
            Self::Ivvr => "ivvr",
            Self::Audio => "audio",
        }
    }
}

/// A category with its children.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Category {
    /// Its id.
    pub id: i64,
    /// Its name.
    pub name: String,
    /// What it classifies.
    pub dimension: Dimension,
    /// The parent's id, or -1 on the first level.
    pub higher_up_id: i64,
    /// Whether it is pushed to the home page.
    pub push: bool,
    /// Second-level categories.
    pub children: Vec<Category>,
}

/// Longest category name, in characters.
pub const MAX_NAME_CHARS: usize = 32;

/// Checks and trims a category name.
pub fn parse_name(name: &str) -> Result<String, CategoryError> {
    let name = name.trim();
    if name.is_empty() {
        return Err(CategoryError::Invalid("categoryName: must not be empty".into()));
    }
    if name.chars().count() > MAX_NAME_CHARS {
        return Err(CategoryError::Invalid(format!("categoryName: longer than {MAX_NAME_CHARS} characters")));
    }
    Ok(name.to_owned())
}

/// Most categories one push call may name.
pub const MAX_PUSH_IDS: usize = 200;

/// Checks the ids of a push call: at least one, at most [`MAX_PUSH_IDS`], duplicates dropped.
pub fn parse_push_ids(ids: &[i64]) -> Result<Vec<i64>, CategoryError> {
    if ids.is_empty() {
        return Err(CategoryError::Invalid("ids: must name at least one category".into()));
    }
    if ids.len() > MAX_PUSH_IDS {
        return Err(CategoryError::Invalid(format!("ids: more than {MAX_PUSH_IDS} categories")));
    }
    let mut out = ids.to_vec();
    out.sort_unstable();
    out.dedup();
    Ok(out)
}

/// Arranges flat rows into first-level categories with their children, in id order.
pub fn into_tree(mut rows: Vec<Category>) -> Vec<Category> {
    rows.sort_by_key(|c| c.id);
    let (mut roots, children): (Vec<_>, Vec<_>) = rows.into_iter().partition(|c| c.higher_up_id < 0);
    for child in children {
        if let Some(parent) = roots.iter_mut().find(|r| r.id == child.higher_up_id) {
            parent.children.push(child);
        }
    }
    roots
}

/// Where categories are used: how many templates are filed under them and the first names.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Use {
    /// Templates filed under one of the categories.
    pub templates: u64,
    /// The first of their names.
    pub names: Vec<String>,
}

/// Refuses deleting `name` while `used` names templates: the refusal says where it is used.
pub fn check_unused(name: &str, used: &Use) -> Result<(), CategoryError> {
    if used.templates == 0 {
        return Ok(());
    }
    let more = if used.templates > used.names.len() as u64 { "…" } else { "" };
    Err(CategoryError::InUse(format!(
        "category `{name}` is in use: {} template(s) are filed under it or its children ({}{more}); move them to another category first",
        used.templates,
        used.names.join(", "),
    )))
}

/// Why a category call failed.
#[derive(Debug, thiserror::Error)]
pub enum CategoryError {
    /// Bad input; the message names the field.
    #[error("{0}")]
    Invalid(String),
    /// No such category for this tenant.
    #[error("category {0} does not exist")]
    NotFound(i64),
    /// Another category of the same level already has the name.
    #[error("categoryName: `{0}` already exists here")]
    Duplicate(String),
    /// Templates are filed under the category (or one of its children); the message says which.
    #[error("{0}")]
    InUse(String),
    /// Where the category is used could not be asked.
    #[error("category use: {0}")]
    Uses(String),
    /// The database failed.
    #[error("category store")]
    Store(#[from] sea_orm::DbErr),
}

impl ServiceError for CategoryError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Invalid(_) => ErrorKind::Invalid,
            Self::NotFound(_) => ErrorKind::NotFound,
            Self::Duplicate(_) => ErrorKind::Invalid,
            Self::InUse(_) => ErrorKind::Conflict,
            Self::Uses(_) | Self::Store(_) => ErrorKind::Internal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_used_category_is_refused_with_where_it_is_used() {
        assert!(check_unused("餐饮", &Use::default()).is_ok());
        let used = Use { templates: 7, names: vec!["春节".into(), "开业".into()] };
        let Err(CategoryError::InUse(m)) = check_unused("餐饮", &used) else { panic!("a used category passed") };
        assert!(m.contains("`餐饮`") && m.contains("7 template(s)") && m.contains("春节, 开业…"), "{m}");
    }
}
