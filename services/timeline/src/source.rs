//! Where a document's material source may point: a server-made storage key
//! (`t/{tenant}/u/{user}/materials/{uuid}/original.{ext}`, or `t/{tenant}/…` for the tenant's own
//! system materials), or the same-origin material address the gateway serves
//! (`/diyvrbt/material/file/{id}/{part}`, query allowed), which names the material by id.
//! Everything else is refused: absolute paths, `..` or `.` segments, back-slashes, and every URL
//! with a scheme or a host, whatever the host (the document never names a file or another server).

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
}

/// The storage prefix of a tenant's objects.
pub fn tenant_prefix(tenant: &str) -> String {
    format!("t/{tenant}/")
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
