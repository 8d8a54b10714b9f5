//! Curated collections (issue 29): topics, cases and industries, each an ordered list of the
//! tenant's approved templates that a template manager curates and publishes for the home page and
//! the template picker. The rules of a save live here; `store::collection` holds the rows.

use std::collections::BTreeSet;

use crate::domain::TaskError;
use crate::maintain::AuditEntry;
use crate::template::Template;

/// Longest name, in characters.
pub const NAME_MAX: usize = 40;
/// Longest description, in characters.
pub const DESCRIPTION_MAX: usize = 200;
/// Most templates in one collection.
pub const TEMPLATES_MAX: usize = 100;

/// What a collection gathers templates for.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum CollectionKind {
    /// 专题: a theme (a season, a holiday).
    Topic,
    /// 案例: showcase videos.
    Case,
    /// 行业: a trade's templates.
    Industry,
}

impl CollectionKind {
    /// Every kind, in the order the pages list them.
    pub const ALL: [Self; 3] = [Self::Topic, Self::Case, Self::Industry];

    /// The kind's name on the wire and in the table.
    pub fn name(self) -> &'static str {
        match self {
            Self::Topic => "topic",
            Self::Case => "case",
            Self::Industry => "industry",
        }
    }

    /// Reads a kind; the message names the field and the kinds there are.
    pub fn parse(text: &str) -> Result<Self, TaskError> {
        let text = text.trim();
        Self::ALL
            .into_iter()
            .find(|k| k.name() == text)
            .ok_or_else(|| TaskError::Invalid(format!("kind: `{text}` is not topic, case or industry")))
    }
}

/// One collection as stored.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Collection {
    pub id: i64,
    pub kind: CollectionKind,
    pub name: String,
    pub description: String,
    /// Shown to the tenant's users.
    pub published: bool,
    /// Its place among the collections of its kind, from 0.
    pub position: i32,
    /// The template whose cover is the collection's (0: none).
    pub cover_template_id: i64,
    /// The templates, in order.
    pub template_ids: Vec<i64>,
    /// The manager who changed it last.
    pub updated_by: String,
    pub updated_ms: i64,
}

/// A collection with what a list shows of its templates.
#[derive(Debug, Clone)]
pub struct CollectionCard {
    pub collection: Collection,
    /// The cover's template and its picture key, falling back to the first approved template when
    /// the chosen one is no longer approved (none: no key).
    pub cover: Option<(i64, String)>,
    /// Its templates that are still approved.
    pub approved: usize,
}

/// A collection with its templates and, for a manager, its audit trail.
#[derive(Debug, Clone)]
pub struct CollectionDetail {
    pub card: CollectionCard,
    pub templates: Vec<Template>,
    pub audit: Vec<AuditEntry>,
}

/// What a manager saves: a new collection (no id) or the whole of an existing one.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct CollectionInput {
    pub id: Option<i64>,
    pub kind: CollectionKind,
    pub name: String,
    pub description: String,
    pub template_ids: Vec<i64>,
    /// None: the first template's.
    pub cover_template_id: Option<i64>,
}

impl CollectionInput {
    /// Trims the texts and checks each field; the message names the field that is wrong.
    pub fn checked(mut self) -> Result<Self, TaskError> {
        self.name = self.name.trim().to_owned();
        self.description = self.description.trim().to_owned();
        if self.name.is_empty() {
            return Err(TaskError::Invalid("name: required".into()));
        }
        if self.name.chars().count() > NAME_MAX {
            return Err(TaskError::Invalid(format!("name: at most {NAME_MAX} characters")));
        }
        if self.description.chars().count() > DESCRIPTION_MAX {
            return Err(TaskError::Invalid(format!("description: at most {DESCRIPTION_MAX} characters")));
        }
        if self.template_ids.len() > TEMPLATES_MAX {
            return Err(TaskError::Invalid(format!("templateIds: at most {TEMPLATES_MAX}")));
        }
        let mut seen = BTreeSet::new();
        if let Some(id) = self.template_ids.iter().find(|id| !seen.insert(**id)) {
            return Err(TaskError::Invalid(format!("templateIds: {id} is listed twice")));
        }
        self.cover_template_id = match self.cover_template_id.filter(|id| *id > 0) {
            Some(id) if !self.template_ids.contains(&id) => {
                return Err(TaskError::Invalid(format!("coverTemplateId: {id} is not in the collection")));
            }
            Some(id) => Some(id),
            None => self.template_ids.first().copied(),
        };
        Ok(self)
    }
}

/// Checks that `ids` names each of `existing` exactly once (a new order of a kind's collections);
/// an id that is none of them is not found.
pub fn check_order(kind: CollectionKind, ids: &[i64], existing: &[i64]) -> Result<(), TaskError> {
    let named: BTreeSet<i64> = ids.iter().copied().collect();
    let have: BTreeSet<i64> = existing.iter().copied().collect();
    if let Some(id) = named.difference(&have).next() {
        return Err(TaskError::CollectionNotFound(*id));
    }
    if named.len() != ids.len() || named != have {
        return Err(TaskError::Invalid(format!(
            "ids: name every {} once ({} named, {} exist)",
            kind.name(),
            ids.len(),
            existing.len()
        )));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;

    fn input(ids: &[i64], cover: Option<i64>) -> CollectionInput {
        CollectionInput {
            id: None,
            kind: CollectionKind::Topic,
            name: " 夏日 ".into(),
            description: String::new(),
            template_ids: ids.to_vec(),
            cover_template_id: cover,
        }
    }

    fn refusal(r: Result<CollectionInput, TaskError>) -> String {
        match r {
            Err(TaskError::Invalid(m)) => m,
            other => panic!("expected a refusal, got {other:?}"),
        }
    }

    #[test]
    fn a_save_is_trimmed_and_its_cover_defaults_to_the_first_template() -> Result<(), TaskError> {
        let ok = input(&[4, 2], None).checked()?;
        assert_eq!(ok.name, "夏日");
        assert_eq!(ok.cover_template_id, Some(4));
        assert_eq!(input(&[4, 2], Some(2)).checked()?.cover_template_id, Some(2));
        assert_eq!(input(&[], None).checked()?.cover_template_id, None);
        Ok(())
    }

    #[test]
    fn each_bad_field_is_named() {
        let mut blank = input(&[1], None);
        blank.name = "  ".into();
        assert_eq!(refusal(blank.checked()), "name: required");
        let mut long = input(&[1], None);
        long.name = "长".repeat(NAME_MAX + 1);
        assert_eq!(refusal(long.checked()), "name: at most 40 characters");
        let mut wordy = input(&[1], None);
        wordy.description = "x".repeat(DESCRIPTION_MAX + 1);
        assert_eq!(refusal(wordy.checked()), "description: at most 200 characters");
        assert_eq!(refusal(input(&[1, 2, 1], None).checked()), "templateIds: 1 is listed twice");
        assert_eq!(refusal(input(&[1, 2], Some(9)).checked()), "coverTemplateId: 9 is not in the collection");
        let many: Vec<i64> = (1..=101).collect();
        assert_eq!(refusal(input(&many, None).checked()), "templateIds: at most 100");
        assert!(matches!(CollectionKind::parse("shop"), Err(TaskError::Invalid(m)) if m == "kind: `shop` is not topic, case or industry"));
    }

    #[test]
    fn an_order_names_every_collection_once() {
        assert!(check_order(CollectionKind::Case, &[3, 1, 2], &[1, 2, 3]).is_ok());
        for bad in [&[1, 2][..], &[1, 2, 2], &[3, 2, 1, 1]] {
            assert!(matches!(check_order(CollectionKind::Case, bad, &[1, 2, 3]), Err(TaskError::Invalid(_))), "{bad:?}");
        }
        for unknown in [&[1, 2, 3, 4][..], &[1, 2, 9]] {
            assert!(matches!(check_order(CollectionKind::Case, unknown, &[1, 2, 3]), Err(TaskError::CollectionNotFound(_))), "{unknown:?}");
        }
    }
}
