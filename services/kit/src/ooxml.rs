//! Checks an Office Open XML package (a pptx presentation, an xlsx workbook) before anything else
//! reads it: a zip archive whose every entry is read here, counting what it expands to, so a zip
//! bomb stops at the limit instead of filling memory or disk (entry count, total uncompressed
//! bytes, XML nesting depth; sizes the archive declares are not believed). It must hold
//! `[Content_Types].xml`, `_rels/.rels` and a main part of the expected kind (not the
//! macro-enabled one), every XML part well formed and without a DTD. A zip of anything else (an
//! executable renamed `.pptx`) is refused.

use std::collections::HashSet;
use std::io::{BufReader, Read, Seek};

use quick_xml::events::Event;

/// The kinds of package checked.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Package {
    /// A PowerPoint presentation (pptx).
    Presentation,
    /// An Excel workbook (xlsx).
    Workbook,
}

impl Package {
    /// The content type of the main part.
    fn main_content_type(self) -> &'static str {
        match self {
            Self::Presentation => "application/vnd.openxmlformats-officedocument.presentationml.presentation.main+xml",
            Self::Workbook => "application/vnd.openxmlformats-officedocument.spreadsheetml.sheet.main+xml",
        }
    }

    fn name(self) -> &'static str {
        match self {
            Self::Presentation => "a pptx presentation",
            Self::Workbook => "an xlsx workbook",
        }
    }
}

/// How far a package may expand.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Limits {
    /// Entries in the archive.
    pub max_entries: usize,
    /// Bytes of all entries together, uncompressed.
    pub max_total_bytes: u64,
    /// Elements nested in one XML part.
    pub max_xml_depth: usize,
}

/// Why a package was refused; the message is shown to the user.
#[derive(Debug, thiserror::Error)]
pub enum OoxmlError {
    /// Not a zip archive, or a damaged one.
    #[error("not {0}: {1}")]
    NotZip(&'static str, String),
    /// A required part is missing, or the main part is of another kind.
    #[error("not {0}: {1}")]
    NotPackage(&'static str, String),
    /// An XML part cannot be read.
    #[error("not {kind}: `{part}` is not well-formed XML ({reason})")]
    BadXml {
        /// The package kind.
        kind: &'static str,
        /// The part.
        part: String,
        /// What the parser said.
        reason: String,
    },
    /// More entries than allowed.
    #[error("the archive holds more than {0} entries")]
    TooManyEntries(usize),
    /// It expands beyond the limit.
    #[error("the archive expands to more than {} MB", .0 / (1024 * 1024))]
    TooLarge(u64),
    /// An XML part nests deeper than allowed.
    #[error("`{part}` nests XML deeper than {depth} elements")]
    TooDeep {
        /// The part.
        part: String,
        /// The limit.
        depth: usize,
    },
}

impl OoxmlError {
    /// Whether the package broke a limit (rather than being no package of the kind).
    pub fn is_limit(&self) -> bool {
        matches!(self, Self::TooManyEntries(_) | Self::TooLarge(_) | Self::TooDeep { .. })
    }
}

/// Reads at most what is left of the budget shared by all entries.
struct Budget<'a, R> {
    inner: R,
    left: &'a mut u64,
    limit: u64,
    over: bool,
}

impl<R: Read> Read for Budget<'_, R> {
    fn read(&mut self, buf: &mut [u8]) -> std::io::Result<usize> {
        // One byte more than is left shows the entry goes over, without reading it all.
        let room = usize::try_from(self.left.saturating_add(1)).unwrap_or(usize::MAX).min(buf.len());
        let n = self.inner.read(&mut buf[..room])?;
        let n64 = n as u64;
        if n64 > *self.left {
            self.over = true;
            return Err(std::io::Error::other(OoxmlError::TooLarge(self.limit)));
        }
        *self.left -= n64;
        Ok(n)
    }
}

/// Checks that `reader` holds an OOXML package of kind `package` within `limits`.
pub fn check<R: Read + Seek>(reader: R, package: Package, limits: &Limits) -> Result<(), OoxmlError> {
    let kind = package.name();
    let mut archive = zip::ZipArchive::new(reader).map_err(|e| OoxmlError::NotZip(kind, e.to_string()))?;
    if archive.len() > limits.max_entries {
        return Err(OoxmlError::TooManyEntries(limits.max_entries));
    }
    let mut left = limits.max_total_bytes;
    let mut names = HashSet::new();
    let mut overrides: Vec<(String, String)> = Vec::new();
    for i in 0..archive.len() {
        let entry = archive.by_index(i).map_err(|e| OoxmlError::NotZip(kind, e.to_string()))?;
        let name = entry.name().map_err(|e| OoxmlError::NotZip(kind, e.to_string()))?.into_owned();
        if entry.enclosed_name().is_none() {
            return Err(OoxmlError::NotPackage(kind, format!("entry `{name}` leaves the archive")));
        }
        if entry.is_dir() {
            continue;
        }
        let xml = name.ends_with(".xml") || name.ends_with(".rels");
        let mut budget = Budget { inner: entry, left: &mut left, limit: limits.max_total_bytes, over: false };
        let read = if xml {
            let content_types = name == "[Content_Types].xml";
            read_xml(&mut budget, kind, &name, limits.max_xml_depth, content_types.then_some(&mut overrides))
        } else {
            std::io::copy(&mut budget, &mut std::io::sink()).map(|_| ()).map_err(|e| OoxmlError::NotZip(kind, format!("`{name}`: {e}")))
        };
        if budget.over {
            return Err(OoxmlError::TooLarge(limits.max_total_bytes));
        }
        read?;
        names.insert(name);
    }
    for required in ["[Content_Types].xml", "_rels/.rels"] {
        if !names.contains(required) {
            return Err(OoxmlError::NotPackage(kind, format!("no `{required}`")));
        }
    }
    let main = overrides
        .iter()
        .find(|(part, content_type)| content_type == package.main_content_type() && names.contains(part.trim_start_matches('/')));
    if main.is_none() {
        return Err(OoxmlError::NotPackage(kind, "no main part of this kind (a macro-enabled file is not accepted)".into()));
    }
    Ok(())
}

/// Reads one XML part to its end, checking its depth; collects `<Override PartName ContentType>`
/// into `overrides` when given (the content types part).
fn read_xml<R: Read>(
    input: R,
    kind: &'static str,
    part: &str,
    max_depth: usize,
    mut overrides: Option<&mut Vec<(String, String)>>,
) -> Result<(), OoxmlError> {
    let mut reader = quick_xml::Reader::from_reader(BufReader::new(input));
    reader.config_mut().check_end_names = true;
    let bad = |reason: String| OoxmlError::BadXml { kind, part: part.to_owned(), reason };
    let mut buf = Vec::new();
    let mut depth = 0usize;
    let mut root = false;
    loop {
        let event = reader.read_event_into(&mut buf).map_err(|e| bad(e.to_string()))?;
        match event {
            Event::Start(ref e) | Event::Empty(ref e) => {
                root = true;
                if matches!(event, Event::Start(_)) {
                    depth += 1;
                    if depth > max_depth {
                        return Err(OoxmlError::TooDeep { part: part.to_owned(), depth: max_depth });
                    }
                }
                if let Some(list) = overrides.as_deref_mut()
                    && e.local_name().into_inner() == "Override"
                {
                    let attr = |key: &str| -> Option<String> {
                        e.attributes()
                            .flatten()
                            .find(|a| a.key.local_name().into_inner() == key)
                            .and_then(|a| a.normalized_value(quick_xml::XmlVersion::Implicit1_0).ok())
                            .map(|v| v.into_owned())
                    };
                    if let (Some(name), Some(content_type)) = (attr("PartName"), attr("ContentType")) {
                        list.push((name, content_type));
                    }
                }
            }
            Event::End(_) => depth = depth.saturating_sub(1),
            Event::DocType(_) => return Err(bad("a DTD is not allowed".into())),
            Event::Eof => break,
            _ => {}
        }
        buf.clear();
    }
    if !root || depth != 0 {
        return Err(bad("no complete root element".into()));
    }
    Ok(())
}

#[cfg(test)]
mod tests {
    use std::io::{Cursor, Write};

    use super::*;

    const LIMITS: Limits = Limits { max_entries: 100, max_total_bytes: 1 << 20, max_xml_depth: 32 };

    fn zip_of(entries: &[(&str, &[u8])]) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
        let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
        let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
        for (name, data) in entries {
            w.start_file(*name, options)?;
            w.write_all(data)?;
        }
        Ok(w.finish()?.into_inner())
    }

    fn types(content_type: &str) -> String {
        format!(
            r#"<?xml version="1.0"?><Types xmlns="http://schemas.openxmlformats.org/package/2006/content-types"><Default Extension="xml" ContentType="application/xml"/><Override PartName="/ppt/presentation.xml" ContentType="{content_type}"/></Types>"#
        )
    }

    const RELS: &[u8] = br#"<?xml version="1.0"?><Relationships xmlns="http://schemas.openxmlformats.org/package/2006/relationships"/>"#;
    const MAIN: &[u8] = br#"<p:presentation xmlns:p="x"><p:sldIdLst/></p:presentation>"#;

    fn deck(extra: &[(&str, &[u8])]) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
        let t = types(Package::Presentation.main_content_type());
        let mut entries: Vec<(&str, &[u8])> = vec![("[Content_Types].xml", t.as_bytes()), ("_rels/.rels", RELS), ("ppt/presentation.xml", MAIN)];
        entries.extend_from_slice(extra);
        zip_of(&entries)
    }

    #[test]
    fn a_presentation_passes_and_other_zips_do_not() -> Result<(), Box<dyn std::error::Error>> {
        check(Cursor::new(deck(&[])?), Package::Presentation, &LIMITS)?;
        let exe = zip_of(&[("setup.exe", b"MZ\x90\0\x03\0\0\0")])?;
        assert!(matches!(check(Cursor::new(exe), Package::Presentation, &LIMITS), Err(OoxmlError::NotPackage(..))));
        assert!(matches!(check(Cursor::new(deck(&[])?), Package::Workbook, &LIMITS), Err(OoxmlError::NotPackage(..))), "a deck is no workbook");
        let macro_types = types("application/vnd.ms-powerpoint.presentation.macroEnabled.main+xml");
        let pptm = zip_of(&[("[Content_Types].xml", macro_types.as_bytes()), ("_rels/.rels", RELS), ("ppt/presentation.xml", MAIN)])?;
        assert!(check(Cursor::new(pptm), Package::Presentation, &LIMITS).is_err(), "macro-enabled");
        assert!(matches!(check(Cursor::new(b"PK\x03\x04 not really".to_vec()), Package::Presentation, &LIMITS), Err(OoxmlError::NotZip(..))));
        let broken = deck(&[("ppt/slides/slide1.xml", b"<p:sld><p:cSld></p:sld>")])?;
        assert!(matches!(check(Cursor::new(broken), Package::Presentation, &LIMITS), Err(OoxmlError::BadXml { .. })));
        let dtd = deck(&[("ppt/slides/slide1.xml", b"<!DOCTYPE x [<!ENTITY a \"aaaa\">]><x>&a;</x>")])?;
        assert!(matches!(check(Cursor::new(dtd), Package::Presentation, &LIMITS), Err(OoxmlError::BadXml { .. })));
        Ok(())
    }

    #[test]
    fn expansion_is_bounded_while_reading() -> Result<(), Box<dyn std::error::Error>> {
        // 4 MiB of zeros compress to a few KiB: the declared size is not what stops it.
        let zeros = vec![0u8; 4 << 20];
        let bomb = deck(&[("ppt/media/image1.bin", &zeros)])?;
        assert!(bomb.len() < 64 * 1024, "{} bytes", bomb.len());
        let err = check(Cursor::new(bomb), Package::Presentation, &LIMITS).err().ok_or("a bomb passed")?;
        assert!(matches!(err, OoxmlError::TooLarge(_)) && err.is_limit(), "{err}");
        let many: Vec<(String, Vec<u8>)> = (0..150).map(|i| (format!("ppt/x{i}.bin"), vec![1u8])).collect();
        let many: Vec<(&str, &[u8])> = many.iter().map(|(n, d)| (n.as_str(), d.as_slice())).collect();
        assert!(matches!(check(Cursor::new(deck(&many)?), Package::Presentation, &LIMITS), Err(OoxmlError::TooManyEntries(100))));
        let deep = format!("{}{}", "<a>".repeat(40), "</a>".repeat(40));
        let deep = deck(&[("ppt/slides/slide1.xml", deep.as_bytes())])?;
        assert!(matches!(check(Cursor::new(deep), Package::Presentation, &LIMITS), Err(OoxmlError::TooDeep { depth: 32, .. })));
        Ok(())
    }
}
