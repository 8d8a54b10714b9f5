//! The tenant's system materials as administrators keep them (the maintenance area): which
//! starter categories an upload may go into and what it is listed as there, where its object
//! lives, and what an edit may change.

use crate::domain::{self, MaterialError, MaterialKind};

/// The starter categories an administrator uploads into: id, what the editor lists them as, and
/// the kinds of file each takes (the ids of `starter::catalogue`, docs/materials.md).
pub const CATEGORIES: [(i64, MaterialKind, &[MaterialKind]); 7] = [
    (2003, MaterialKind::Picture, &[MaterialKind::Picture]),
    (3001, MaterialKind::Backgrounds, &[MaterialKind::Picture]),
    (3002, MaterialKind::Backgrounds, &[MaterialKind::Gif]),
    (4001, MaterialKind::Picture, &[MaterialKind::Picture]),
    (5001, MaterialKind::SpecialEffects, &[MaterialKind::Picture, MaterialKind::Gif]),
    (5002, MaterialKind::SpecialEffects, &[MaterialKind::Picture, MaterialKind::Gif]),
    (6001, MaterialKind::Audio, &[MaterialKind::Audio]),
];

/// Open state of a system material the libraries offer.
pub const OFFERED: i32 = 1;
/// Open state of a retired system material: hidden from the libraries, still usable by the
/// documents that name it.
pub const RETIRED: i32 = 0;

fn ids() -> String {
    CATEGORIES.iter().map(|(id, _, _)| id.to_string()).collect::<Vec<_>>().join(", ")
}

/// What a file of `file` kind is listed as in system category `category_id`; refuses an unknown
/// category, or a file the category does not take.
pub fn library_kind(category_id: i64, file: MaterialKind) -> Result<MaterialKind, MaterialError> {
    let listed = listed_kind(category_id)?;
    let takes = CATEGORIES.iter().find(|(id, _, _)| *id == category_id).map_or(&[][..], |(_, _, t)| *t);
    if !takes.contains(&file) {
        let names: Vec<&str> = takes.iter().map(|k| k.as_str()).collect();
        return Err(MaterialError::Invalid(format!(
            "uploadFile: a {} file does not go into category {category_id} (it takes {})",
            file.as_str(),
            names.join(" or ")
        )));
    }
    Ok(listed)
}

/// What system category `category_id` lists its materials as; refuses an unknown category.
pub fn listed_kind(category_id: i64) -> Result<MaterialKind, MaterialError> {
    CATEGORIES
        .iter()
        .find(|(id, _, _)| *id == category_id)
        .map(|(_, listed, _)| *listed)
        .ok_or_else(|| MaterialError::Invalid(format!("categoryId: `{category_id}` is not a system category ({})", ids())))
}

/// Checks a category an edit moves system materials into.
pub fn check_category(category_id: i64) -> Result<i64, MaterialError> {
    listed_kind(category_id).map(|_| category_id)
}

/// Checks an open state of a system material: offered or retired.
pub fn check_open_state(state: i32) -> Result<i32, MaterialError> {
    match state {
        OFFERED | RETIRED => Ok(state),
        other => Err(MaterialError::Invalid(format!("openState: `{other}` is not 1 (offered) or 0 (retired)"))),
    }
}

/// Checks a style class: -1 none, or 1–8 (spec editor-core §2).
pub fn check_style(style_id: i64) -> Result<i64, MaterialError> {
    if style_id == -1 || (1..=8).contains(&style_id) {
        Ok(style_id)
    } else {
        Err(MaterialError::Invalid(format!("styleId: `{style_id}` is not -1 or a style class 1 to 8")))
    }
}

/// A system upload's key checked against the tenant: it must be
/// `t/{tenant}/sys/materials/{uuid}/original.{ext}` with an extension of `file`; answers the uuid,
/// which becomes the material's id.
pub fn parse_key(tenant: &str, key: &str, file: MaterialKind) -> Result<String, MaterialError> {
    let bad = || MaterialError::Invalid(format!("key: `{key}` is not a system upload of this tenant"));
    let rest = key.strip_prefix(&reelforge_kit::blob::system_material_prefix(tenant)).ok_or_else(bad)?;
    let (id, file_name) = rest.split_once('/').ok_or_else(bad)?;
    let ext = file_name.strip_prefix("original.").ok_or_else(bad)?;
    let id = uuid::Uuid::parse_str(id).map_err(|_| bad())?.to_string();
    if rest != format!("{id}/original.{ext}") {
        return Err(bad());
    }
    match domain::upload_kind(ext) {
        Some(k) if k == file => Ok(id),
        _ => Err(MaterialError::Invalid(format!("type: `{ext}` is not a {} file", file.as_str()))),
    }
}

/// What an edit of system materials changes; `None` leaves a field as it is.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Changes {
    /// A new display name.
    pub name: Option<String>,
    /// A new system category.
    pub category_id: Option<i64>,
    /// A new style class.
    pub style_id: Option<i64>,
    /// Offered or retired.
    pub open_state: Option<i32>,
}

impl Changes {
    /// Checks every field given; refuses an edit that changes nothing.
    pub fn parse(name: Option<&str>, category_id: Option<i64>, style_id: Option<i64>, open_state: Option<i32>) -> Result<Self, MaterialError> {
        let changes = Self {
            name: name.map(domain::parse_name).transpose()?,
            category_id: category_id.map(check_category).transpose()?,
            style_id: style_id.map(check_style).transpose()?,
            open_state: open_state.map(check_open_state).transpose()?,
        };
        if changes == Self::default() {
            return Err(MaterialError::Invalid("materialName, categoryId, styleId or openState: nothing to change".into()));
        }
        Ok(changes)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn categories_decide_what_an_upload_is_listed_as() {
        assert_eq!(library_kind(3001, MaterialKind::Picture).ok(), Some(MaterialKind::Backgrounds));
        assert_eq!(library_kind(3002, MaterialKind::Gif).ok(), Some(MaterialKind::Backgrounds));
        assert_eq!(library_kind(6001, MaterialKind::Audio).ok(), Some(MaterialKind::Audio));
        assert!(matches!(library_kind(3001, MaterialKind::Audio), Err(MaterialError::Invalid(m)) if m.contains("does not go into category 3001")));
        assert!(matches!(library_kind(1200, MaterialKind::Picture), Err(MaterialError::Invalid(m)) if m.contains("not a system category")));
    }

    #[test]
    fn keys_are_the_tenants_system_prefix() {
        let id = "5f0c2a8e-1c1b-4b1e-9a57-0d8e6f1c2b3a";
        assert_eq!(parse_key("qs", &format!("t/qs/sys/materials/{id}/original.png"), MaterialKind::Picture).ok().as_deref(), Some(id));
        assert!(parse_key("cc", &format!("t/qs/sys/materials/{id}/original.png"), MaterialKind::Picture).is_err());
        assert!(parse_key("qs", &format!("t/qs/u/a/materials/{id}/original.png"), MaterialKind::Picture).is_err());
        assert!(parse_key("qs", &format!("t/qs/sys/materials/{id}/original.mp3"), MaterialKind::Picture).is_err());
        assert!(parse_key("qs", &format!("t/qs/sys/materials/{id}/../original.png"), MaterialKind::Picture).is_err());
    }

    #[test]
    fn edits_are_checked_field_by_field() {
        assert!(Changes::parse(None, None, None, None).is_err(), "an empty edit is refused");
        assert!(Changes::parse(Some("  "), None, None, None).is_err());
        assert!(Changes::parse(None, Some(42), None, None).is_err());
        assert!(Changes::parse(None, None, Some(9), None).is_err());
        assert!(Changes::parse(None, None, None, Some(2)).is_err(), "audit states are not a system material's");
        let c = Changes::parse(Some(" 晚霞 "), Some(3001), Some(-1), Some(RETIRED)).ok();
        assert_eq!(c.and_then(|c| c.name), Some("晚霞".to_owned()));
    }
}
