//! Fonts and their rules, free of transport and SQL types: what a font is, how an uploaded file is
//! checked, and which characters of a text a font cannot draw.

use reelforge_kit::status::{ErrorKind, ServiceError};
use sha2::{Digest, Sha256};

/// Largest font file a user may upload, in bytes (CJK fonts run to about 20 MB).
pub const MAX_UPLOAD_BYTES: usize = 30 * 1024 * 1024;

/// Longest text the glyph check accepts, in characters.
pub const MAX_TEST_CHARS: usize = 10_000;

/// A font as the editor lists it.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Font {
    /// Its id: `sys-…` for a system font (from family and style), a UUID for an upload.
    pub id: String,
    /// The family name.
    pub name: String,
    /// The Chinese family name when the font carries one, else the family name.
    pub name_cn: String,
    /// The style, e.g. "Regular" or "Bold Italic".
    pub style: String,
    /// Whether it is a system font.
    pub system: bool,
    /// The file format.
    pub format: FontFormat,
}

/// The container format of a font file.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum FontFormat {
    /// TrueType outlines.
    Ttf,
    /// OpenType with CFF outlines.
    Otf,
    /// A collection of several faces (system fonts only).
    Ttc,
}

impl FontFormat {
    /// The file extension.
    pub fn ext(self) -> &'static str {
        match self {
            Self::Ttf => "ttf",
            Self::Otf => "otf",
            Self::Ttc => "ttc",
        }
    }

    /// The media type a browser expects.
    pub fn content_type(self) -> &'static str {
        match self {
            Self::Ttf => "font/ttf",
            Self::Otf => "font/otf",
            Self::Ttc => "font/collection",
        }
    }

    /// Parses a stored extension.
    pub fn parse(ext: &str) -> Option<Self> {
        match ext {
            "ttf" => Some(Self::Ttf),
            "otf" => Some(Self::Otf),
            "ttc" => Some(Self::Ttc),
            _ => None,
        }
    }

    /// The format by the file's magic bytes.
    pub fn sniff(data: &[u8]) -> Option<Self> {
        match data.get(..4)? {
            [0, 1, 0, 0] | b"true" => Some(Self::Ttf),
            b"OTTO" => Some(Self::Otf),
            b"ttcf" => Some(Self::Ttc),
            _ => None,
        }
    }
}

/// The stable id of a system font: the same family and style give the same id on every machine
/// and every start, whatever file it came from.
pub fn system_id(family: &str, style: &str) -> String {
    let digest = Sha256::digest(format!("{family}\u{0}{style}").as_bytes());
    let hex: String = digest.iter().take(8).map(|b| format!("{b:02x}")).collect();
    format!("sys-{hex}")
}

/// The style name of a weight and slant, as font menus write it.
pub fn style_name(weight: u16, italic: bool) -> String {
    let w = match weight {
        0..=150 => "Thin",
        151..=250 => "ExtraLight",
        251..=350 => "Light",
        351..=450 => "Regular",
        451..=550 => "Medium",
        551..=650 => "SemiBold",
        651..=750 => "Bold",
        751..=850 => "ExtraBold",
        _ => "Black",
    };
    match (w, italic) {
        ("Regular", true) => "Italic".to_owned(),
        (w, true) => format!("{w} Italic"),
        (w, false) => w.to_owned(),
    }
}

/// What an uploaded file turned out to be.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ParsedFont {
    /// The family name from the name table.
    pub family: String,
    /// The Chinese family name, if the font has one.
    pub family_cn: Option<String>,
    /// The style.
    pub style: String,
    /// The format (ttf or otf).
    pub format: FontFormat,
}

fn is_chinese(lang: ttf_parser::Language) -> bool {
    lang.primary_language() == "Chinese"
}

/// Checks an uploaded font file by parsing it: a single TrueType or OpenType face with a family
/// name and a character map; anything else is refused with the reason.
pub fn parse_upload(data: &[u8]) -> Result<ParsedFont, FontError> {
    if data.is_empty() {
        return Err(FontError::Invalid("file: empty".into()));
    }
    if data.len() > MAX_UPLOAD_BYTES {
        return Err(FontError::Invalid(format!("file: larger than {} MB", MAX_UPLOAD_BYTES / 1024 / 1024)));
    }
    let format = match FontFormat::sniff(data) {
        Some(f @ (FontFormat::Ttf | FontFormat::Otf)) => f,
        Some(FontFormat::Ttc) => return Err(FontError::Invalid("file: font collections (.ttc) are not accepted; upload one .ttf or .otf face".into())),
        None => return Err(FontError::Invalid("file: not a font (expected a TrueType .ttf or OpenType .otf file)".into())),
    };
    let face = ttf_parser::Face::parse(data, 0).map_err(|e| FontError::Invalid(format!("file: the font does not parse: {e}")))?;
    if face.tables().cmap.is_none() {
        return Err(FontError::Invalid("file: the font has no character map".into()));
    }
    let mut family = None;
    let mut family_cn = None;
    for id in [ttf_parser::name_id::TYPOGRAPHIC_FAMILY, ttf_parser::name_id::FAMILY] {
        for name in face.names().into_iter().filter(|n| n.name_id == id) {
            let Some(text) = name.to_string().filter(|t| !t.trim().is_empty()) else { continue };
            if is_chinese(name.language()) {
                family_cn.get_or_insert(text);
            } else if name.language() == ttf_parser::Language::English_UnitedStates || family.is_none() {
                family.get_or_insert(text);
            }
        }
    }
    let family = family.or_else(|| family_cn.clone()).ok_or_else(|| FontError::Invalid("file: the font has no family name".into()))?;
    Ok(ParsedFont { family, family_cn, style: style_name(face.weight().to_number(), face.is_italic()), format })
}

/// The distinct characters of `text` that `face` has no glyph for, in text order; whitespace and
/// control characters are never reported (they draw nothing in any font).
pub fn missing_glyphs(face: &ttf_parser::Face<'_>, text: &str) -> String {
    let mut missing = String::new();
    for c in text.chars() {
        if c.is_whitespace() || c.is_control() || missing.contains(c) {
            continue;
        }
        if face.glyph_index(c).is_none() {
            missing.push(c);
        }
    }
    missing
}

/// Checks the text of a glyph test.
pub fn check_text(text: &str) -> Result<(), FontError> {
    if text.chars().count() > MAX_TEST_CHARS {
        return Err(FontError::Invalid(format!("text: longer than {MAX_TEST_CHARS} characters")));
    }
    Ok(())
}

/// Why a font call failed.
#[derive(Debug, thiserror::Error)]
pub enum FontError {
    /// Bad input; the message names the field.
    #[error("{0}")]
    Invalid(String),
    /// No such font for this caller.
    #[error("font {0} does not exist")]
    NotFound(String),
    /// The database failed.
    #[error("font store")]
    Store(#[from] sea_orm::DbErr),
    /// The blob store failed.
    #[error("font storage")]
    Blob(#[from] reelforge_kit::blob::BlobError),
    /// A stored or system font file could not be read.
    #[error("font file: {0}")]
    File(String),
}

impl ServiceError for FontError {
    fn kind(&self) -> ErrorKind {
        match self {
            Self::Invalid(_) => ErrorKind::Invalid,
            Self::NotFound(_) => ErrorKind::NotFound,
            Self::Store(_) | Self::Blob(_) | Self::File(_) => ErrorKind::Internal,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn system_ids_are_stable_and_distinct() {
        assert_eq!(system_id("Noto Sans CJK SC", "Regular"), system_id("Noto Sans CJK SC", "Regular"));
        assert_ne!(system_id("Noto Sans CJK SC", "Regular"), system_id("Noto Sans CJK SC", "Bold"));
        assert!(system_id("a", "b").starts_with("sys-"));
    }

    #[test]
    fn styles_are_named() {
        assert_eq!(style_name(400, false), "Regular");
        assert_eq!(style_name(400, true), "Italic");
        assert_eq!(style_name(700, true), "Bold Italic");
    }

    #[test]
    fn non_fonts_are_refused_with_the_reason() {
        let e = parse_upload(b"MZ\x90\x00 this is an exe").err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("not a font"), "{e}");
        let e = parse_upload(&[0, 1, 0, 0, 0, 0]).err().map(|e| e.to_string()).unwrap_or_default();
        assert!(e.contains("does not parse"), "{e}");
        assert!(parse_upload(b"").is_err());
    }
}
