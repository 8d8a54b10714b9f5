//! Where a document's material source may point: a server-made storage key
//! (`t/{tenant}/u/{user}/materials/{uuid}/original.{ext}`, or `t/{tenant}/sys/materials/…` for the
//! tenant's system materials), or the same-origin material address the gateway serves
//! (`/diyvrbt/material/file/{id}/{part}`, query allowed), which names the material by id.
//! Everything else is refused: absolute paths, `..` or `.` segments, back-slashes, and every URL
//! with a scheme or a host, whatever the host (the document never names a file or another server).
//!
//! Whose keys a document may name is [`Access`]: its owner's (`t/{tenant}/u/{user}/`), the
//! tenant's system materials (`t/{tenant}/sys/`), and what the template the document was made
//! from names ([`Grant`]). Another user's private key of the same tenant is refused
//! ([`SourceError::NotYours`]), another tenant's too ([`SourceError::Foreign`]).

use std::collections::BTreeSet;

use thiserror::Error;

/// The same-origin address of a material's files, followed by `{id}/{part}`.
pub const MATERIAL_FILE_PREFIX: &str = "/diyvrbt/material/file/";

/// The parts of a material the gateway serves under [`MATERIAL_FILE_PREFIX`].
pub const MATERIAL_PARTS: [&str; 5] = ["original", "cover", "filmstrip", "waveform", "preview"];

/// A source a document may name.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Source<'a> {
    /// A storage key, relative, without `.` or `..` segments.
    Key(&'a str),
    /// A material by id (the same-origin address); a render uses its original file.
    Material {
        /// The material id.
        id: &'a str,
    },
}

impl Source<'_> {
    /// The file's path relative to a render's materials directory: the key itself, or
    /// `diyvrbt/material/file/{id}/original` for a material named by id.
    pub fn local_path(&self) -> String {
        match self {
            Source::Key(k) => (*k).to_owned(),
            Source::Material { id } => {
                format!("{}{id}/original", MATERIAL_FILE_PREFIX.trim_start_matches('/'))
            }
        }
    }
}

/// Why a source is refused.
#[derive(Debug, Clone, PartialEq, Eq, Error)]
pub enum SourceError {
    /// A URL (scheme or host): documents name materials by id or key only.
    #[error("a URL is not a material source; name the material by id or by its key")]
    Url,
    /// An absolute path.
    #[error("an absolute path is not a material source")]
    Absolute,
    /// A `..` or `.` segment, an empty segment, a back-slash or a control character.
    #[error("not a storage key (`..`, `.`, empty segments, back-slashes and control characters are refused)")]
    NotAKey,
    /// A material address that is not `{id}/{part}`.
    #[error("a material address must be {MATERIAL_FILE_PREFIX}{{id}}/{{part}}")]
    BadAddress,
    /// A key outside the tenant's prefix.
    #[error("not a material of this tenant")]
    Foreign,
    /// A key of the tenant that is neither the owner's, a system material, nor the template's.
    #[error("another user's private material: name one of your own materials, a system material or one of the template's")]
    NotYours,
}

/// The storage prefix of a tenant's objects.
pub fn tenant_prefix(tenant: &str) -> String {
    format!("t/{tenant}/")
}

/// The storage prefix of everything a user uploads, `t/{tenant}/u/{user}/`, each part one safe key
/// segment (as `reelforge_kit::blob::user_material_prefix` makes them, which this prefix begins).
pub fn user_prefix(tenant: &str, user: &str) -> String {
    format!("t/{}/u/{}/", key_segment(tenant), key_segment(user))
}

/// The storage prefix of a tenant's system materials (the starter library shared by its users),
/// `t/{tenant}/sys/`.
pub fn system_prefix(tenant: &str) -> String {
    format!("t/{}/sys/", key_segment(tenant))
}

/// Makes `s` one key segment: bytes other than letters, digits and `@._+-` percent-encoded, and a
/// segment of dots encoded, so no id climbs out of its prefix or into another's.
pub fn key_segment(s: &str) -> String {
    let safe = |b: u8| b.is_ascii_alphanumeric() || matches!(b, b'@' | b'_' | b'+' | b'-' | b'.');
    let out: String = s.bytes().map(|b| if safe(b) { (b as char).to_string() } else { format!("%{b:02X}") }).collect();
    if out.bytes().all(|b| b == b'.') { out.replace('.', "%2E") } else { out }
}

/// What a template lends the documents made from it: every source its own document names (keys
/// and material ids), usable through the template by whoever filled it, and the template's creator,
/// whose library the material ids are looked up in.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Grant {
    /// The template's creator; empty for no template.
    pub owner: String,
    /// Storage keys the template's document names.
    pub keys: BTreeSet<String>,
    /// Material ids the template's document names (addresses, scene backgrounds, masks).
    pub materials: BTreeSet<String>,
}

impl Grant {
    /// Whether the grant lends anything.
    pub fn is_empty(&self) -> bool {
        self.keys.is_empty() && self.materials.is_empty()
    }
}

/// Whose document it is: the sources it may name are the owner's materials, the tenant's system
/// materials and what the template it was made from grants.
#[derive(Debug, Clone, Default, PartialEq, Eq)]
pub struct Access {
    /// The tenant.
    pub tenant: String,
    /// The owner; empty for a document of no user (the starters), which may name system materials only.
    pub user: String,
    /// What the template the document was made from lends.
    pub grant: Grant,
}

impl Access {
    /// The access of `user`'s documents of `tenant`, made from no template.
    pub fn of(tenant: &str, user: &str) -> Self {
        Self { tenant: tenant.to_owned(), user: user.to_owned(), grant: Grant::default() }
    }

    /// The same access, with what a template lends.
    pub fn with_grant(self, grant: Grant) -> Self {
        Self { grant, ..self }
    }

    /// Whether a key lies under the owner's prefix or the tenant's system prefix, or is the template's.
    pub fn may_use_key(&self, key: &str) -> bool {
        let own = !self.user.is_empty() && key.starts_with(&user_prefix(&self.tenant, &self.user));
        own || key.starts_with(&system_prefix(&self.tenant)) || self.grant.keys.contains(key)
    }

    /// Whether material `id` is lent by the template (then it is looked up in the template
    /// creator's library, not the owner's).
    pub fn grants_material(&self, id: &str) -> bool {
        !self.grant.owner.is_empty() && self.grant.materials.contains(id)
    }

    /// Reads a source as [`parse_source`] does, refusing a key of another tenant (`Foreign`) or of
    /// another user (`NotYours`). A material id is answered as it is: the material library
    /// decides whose it is.
    pub fn check<'a>(&self, src: &'a str) -> Result<Source<'a>, SourceError> {
        let source = parse_source_of(src, &self.tenant)?;
        match source {
            Source::Key(k) if !self.may_use_key(k) => Err(SourceError::NotYours),
            _ => Ok(source),
        }
    }
}

/// Reads a non-empty source (trimmed) into a key or a material id, refusing what is not one.
pub fn parse_source(src: &str) -> Result<Source<'_>, SourceError> {
    let src = src.trim();
    if let Some(rest) = src.strip_prefix(MATERIAL_FILE_PREFIX) {
        let path = rest.split(['?', '#']).next().unwrap_or(rest);
        let (id, part) = path.split_once('/').ok_or(SourceError::BadAddress)?;
        let id_ok = !id.is_empty()
            && id
                .bytes()
                .all(|b| b.is_ascii_alphanumeric() || b == b'-' || b == b'_');
        if !id_ok || !MATERIAL_PARTS.contains(&part) {
            return Err(SourceError::BadAddress);
        }
        return Ok(Source::Material { id });
    }
    if src.starts_with("//") || src.contains("://") || has_scheme(src) {
        return Err(SourceError::Url);
    }
    if src.starts_with('/') || src.starts_with('\\') {
        return Err(SourceError::Absolute);
    }
    let bad = src.is_empty()
        || src.contains('\\')
        || src.chars().any(char::is_control)
        || src.contains(['?', '#'])
        || src.split('/').any(|seg| seg.is_empty() || seg == ".." || seg == ".");
    if bad {
        return Err(SourceError::NotAKey);
    }
    Ok(Source::Key(src))
}

/// Checks a source against a tenant too: a key must lie under `t/{tenant}/`.
pub fn parse_source_of<'a>(src: &'a str, tenant: &str) -> Result<Source<'a>, SourceError> {
    let source = parse_source(src)?;
    match source {
        Source::Key(k) if !k.starts_with(&tenant_prefix(tenant)) => Err(SourceError::Foreign),
        _ => Ok(source),
    }
}

/// Whether a text starts with a URL scheme (`data:`, `file:`, `C:`…): letters, digits, `+`, `-`
/// or `.` before the first `:`, ahead of any `/`.
fn has_scheme(src: &str) -> bool {
    match src.split_once(':') {
        Some((scheme, _)) => {
            !scheme.is_empty()
                && !scheme.contains('/')
                && scheme
                    .bytes()
                    .all(|b| b.is_ascii_alphanumeric() || matches!(b, b'+' | b'-' | b'.'))
        }
        None => false,
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn keys_and_material_addresses_are_accepted() {
        let key = "t/qs/u/7/materials/0b5e/original.png";
        assert_eq!(parse_source(key), Ok(Source::Key(key)));
        assert_eq!(parse_source_of(key, "qs"), Ok(Source::Key(key)));
        let address = "/diyvrbt/material/file/0b5e-11/original?ticket=abc";
        assert_eq!(parse_source(address), Ok(Source::Material { id: "0b5e-11" }));
        assert_eq!(
            parse_source(address).map(|s| s.local_path()),
            Ok("diyvrbt/material/file/0b5e-11/original".to_owned())
        );
    }

    #[test]
    fn a_document_names_its_owners_system_and_template_keys_only() {
        let mine = "t/qs/u/a@x.cn/materials/1/original.png";
        let theirs = "t/qs/u/b@x.cn/materials/2/original.png";
        let lent = "t/qs/u/c@x.cn/materials/3/original.png";
        let system = "t/qs/sys/materials/4/original.png";
        let access = Access::of("qs", "a@x.cn");
        assert_eq!(access.check(mine), Ok(Source::Key(mine)));
        assert_eq!(access.check(system), Ok(Source::Key(system)));
        assert_eq!(access.check(theirs), Err(SourceError::NotYours));
        assert_eq!(access.check(lent), Err(SourceError::NotYours));
        assert_eq!(access.check("t/qs/tasks/9/renders/j.mp4"), Err(SourceError::NotYours));
        // A user id that begins another's is not a prefix of it.
        assert_eq!(Access::of("qs", "a").check(mine), Err(SourceError::NotYours));
        assert_eq!(access.check("t/cc/u/a@x.cn/materials/1/original.png"), Err(SourceError::Foreign));
        let grant = Grant { owner: "c@x.cn".into(), keys: [lent.to_owned()].into(), materials: ["m3".to_owned()].into() };
        let filled = access.clone().with_grant(grant);
        assert_eq!(filled.check(lent), Ok(Source::Key(lent)));
        assert_eq!(filled.check(theirs), Err(SourceError::NotYours));
        assert!(filled.grants_material("m3") && !filled.grants_material("m2") && !access.grants_material("m3"));
        // A document of no user names system materials only.
        assert_eq!(Access::of("qs", "").check(system), Ok(Source::Key(system)));
        assert_eq!(Access::of("qs", "").check(mine), Err(SourceError::NotYours));
        // Ids with unsafe bytes are encoded as the blob store encodes them.
        assert_eq!(user_prefix("qs", "a/../b"), "t/qs/u/a%2F..%2Fb/");
        assert_eq!(user_prefix("qs", ".."), "t/qs/u/%2E%2E/");
    }

    #[test]
    fn paths_urls_and_foreign_keys_are_refused() {
        for (src, want) in [
            ("/etc/passwd", SourceError::Absolute),
            ("../x", SourceError::NotAKey),
            ("t/qs/../cc/a.png", SourceError::NotAKey),
            ("t/qs//a.png", SourceError::NotAKey),
            ("a\\b.png", SourceError::NotAKey),
            ("http://evil.example/x", SourceError::Url),
            ("//evil.example/x", SourceError::Url),
            ("file:///etc/passwd", SourceError::Url),
            ("data:image/png;base64,AAAA", SourceError::Url),
            ("C:\\x.png", SourceError::Url),
            ("/diyvrbt/material/file/../../x/original", SourceError::BadAddress),
            ("/diyvrbt/material/file/abc/secret", SourceError::BadAddress),
        ] {
            assert_eq!(parse_source(src), Err(want), "{src}");
        }
        assert_eq!(
            parse_source_of("t/cc/u/1/materials/x/original.png", "qs"),
            Err(SourceError::Foreign)
        );
        assert_eq!(parse_source_of("t/qsx/a.png", "qs"), Err(SourceError::Foreign));
    }
}
