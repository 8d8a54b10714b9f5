//! The catalogue offer (issue 29, maintenance area): which entries of an editor catalogue the
//! tenant's editor offers for new picks, and in which order. The render still draws every entry,
//! so a layer that uses a hidden one keeps it.

use serde::{Deserialize, Serialize};

use crate::domain::TaskError;

/// An editor catalogue a tenant may trim and order.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Catalogue {
    /// The in- and out-animations.
    Animation,
    /// The art-word styles.
    ArtWord,
}

impl Catalogue {
    /// Reads a catalogue's name as the calls write it.
    pub fn parse(name: &str) -> Result<Self, TaskError> {
        match name.trim() {
            "animation" => Ok(Self::Animation),
            "artWord" => Ok(Self::ArtWord),
            other => Err(TaskError::Invalid(format!("catalogue: `{other}` is not animation or artWord"))),
        }
    }

    /// Its name as the calls write it.
    pub fn name(self) -> &'static str {
        match self {
            Self::Animation => "animation",
            Self::ArtWord => "artWord",
        }
    }

    /// The key its choice is kept under in the tenant's configuration.
    pub fn config_key(self) -> String {
        format!("catalogue.{}", self.name())
    }

    /// The item its changes are audited under.
    pub fn audit_item(self) -> String {
        format!("catalogue:{}", self.name())
    }

    /// Its entries' keys in the catalogue's own order.
    fn keys(self) -> Vec<&'static str> {
        match self {
            Self::Animation => reelforge_timeline::catalogue::animations::ANIMATIONS.iter().map(|a| a.key).collect(),
            Self::ArtWord => reelforge_timeline::catalogue::art_words::ART_WORDS.iter().map(|s| s.key).collect(),
        }
    }
}

/// One entry of an offer.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
pub struct OfferItem {
    /// The catalogue key.
    pub key: String,
    /// Whether the editor offers it for new picks.
    pub offered: bool,
}

/// Returns the offer from the tenant's stored choice (`None` or unreadable: every entry, in the
/// catalogue's order): each key once, in the stored order, keys the catalogue no longer has left
/// out and keys it has gained since appended, offered.
pub fn resolve(catalogue: Catalogue, stored: Option<&str>) -> Vec<OfferItem> {
    let keys = catalogue.keys();
    let stored: Vec<OfferItem> = stored.and_then(|s| serde_json::from_str(s).ok()).unwrap_or_default();
    let mut out: Vec<OfferItem> = Vec::with_capacity(keys.len());
    for item in stored {
        if keys.contains(&item.key.as_str()) && !out.iter().any(|o| o.key == item.key) {
            out.push(item);
        }
    }
    for key in keys {
        if !out.iter().any(|o| o.key == key) {
            out.push(OfferItem { key: key.to_owned(), offered: true });
        }
    }
    out
}

/// Checks a new choice: every entry of the catalogue exactly once and one offered at least; the
/// message names what is wrong.
pub fn check(catalogue: Catalogue, items: &[OfferItem]) -> Result<(), TaskError> {
    let invalid = |why: String| Err(TaskError::Invalid(format!("items: {why}")));
    let keys = catalogue.keys();
    for (i, item) in items.iter().enumerate() {
        if !keys.contains(&item.key.as_str()) {
            return invalid(format!("`{}` is not an entry of {}", item.key, catalogue.name()));
        }
        if items[..i].iter().any(|o| o.key == item.key) {
            return invalid(format!("`{}` is named twice", item.key));
        }
    }
    if let Some(missing) = keys.iter().find(|k| !items.iter().any(|o| o.key == **k)) {
        return invalid(format!("`{missing}` is missing"));
    }
    if !items.iter().any(|o| o.offered) {
        return invalid("at least one entry must stay offered".into());
    }
    Ok(())
}

/// The stored form of a checked choice.
pub fn stored(items: &[OfferItem]) -> String {
    serde_json::to_string(items).unwrap_or_default()
}

/// What the audit trail shows of a choice: the hidden keys in order, comma-separated.
pub fn hidden(items: &[OfferItem]) -> String {
    items.iter().filter(|o| !o.offered).map(|o| o.key.as_str()).collect::<Vec<_>>().join(",")
}

#[cfg(test)]
mod tests {
    use super::*;

    fn all(catalogue: Catalogue) -> Vec<OfferItem> {
        resolve(catalogue, None)
    }

    #[test]
    fn no_choice_offers_every_entry_in_catalogue_order() {
        let items = all(Catalogue::ArtWord);
        assert_eq!(items.first().map(|o| o.key.as_str()), Some("gold"));
        assert_eq!(items.len(), reelforge_timeline::catalogue::art_words::ART_WORDS.len());
        assert!(items.iter().all(|o| o.offered));
        assert_eq!(resolve(Catalogue::ArtWord, Some("not json")), items);
    }

    #[test]
    fn a_stored_choice_keeps_its_order_drops_old_keys_and_appends_new_ones() {
        let stored = r#"[{"key":"ice","offered":false},{"key":"gone","offered":true},{"key":"gold","offered":true},{"key":"ice","offered":true}]"#;
        let items = resolve(Catalogue::ArtWord, Some(stored));
        assert_eq!(items[0], OfferItem { key: "ice".into(), offered: false });
        assert_eq!(items[1].key, "gold");
        assert_eq!(items.len(), all(Catalogue::ArtWord).len());
        assert!(items[2..].iter().all(|o| o.offered));
    }

    #[test]
    fn a_choice_must_name_every_entry_once_and_offer_one() {
        let message = |items: &[OfferItem]| check(Catalogue::ArtWord, items).err().map(|e| e.to_string()).unwrap_or_default();
        let mut items = all(Catalogue::ArtWord);
        assert!(check(Catalogue::ArtWord, &items).is_ok());
        items.reverse();
        assert!(check(Catalogue::ArtWord, &items).is_ok(), "any order");

        let mut twice = items.clone();
        twice[1].key = twice[0].key.clone();
        assert!(message(&twice).contains("is named twice"), "{}", message(&twice));
        let mut unknown = items.clone();
        unknown.push(OfferItem { key: "FADE_IN".into(), offered: true });
        assert!(message(&unknown).contains("`FADE_IN` is not an entry of artWord"), "{}", message(&unknown));
        let missing: Vec<_> = items.iter().filter(|o| o.key != "neon").cloned().collect();
        assert!(message(&missing).contains("`neon` is missing"), "{}", message(&missing));
        let none: Vec<_> = items.iter().map(|o| OfferItem { key: o.key.clone(), offered: false }).collect();
        assert!(message(&none).contains("at least one entry must stay offered"), "{}", message(&none));
        assert!(Catalogue::parse("font").is_err());
        assert!(check(Catalogue::Animation, &all(Catalogue::Animation)).is_ok());
    }

    #[test]
    fn the_audit_shows_the_hidden_keys() {
        let mut items = all(Catalogue::ArtWord);
        items[2].offered = false;
        items[0].offered = false;
        assert_eq!(hidden(&items), "gold,neon");
        assert_eq!(resolve(Catalogue::ArtWord, Some(&stored(&items))), items);
    }
}
