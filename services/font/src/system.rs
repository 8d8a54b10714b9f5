//! The system fonts: the font files under the machine's font directories (Debian's packages put
//! them in `/usr/share/fonts`), read once at start with fontdb. Each face is known by an id made
//! from its family and style, so the path it came from is never shown to anyone.

use std::collections::BTreeMap;
use std::path::{Path, PathBuf};

use crate::domain::{Font, FontError, FontFormat, style_name, system_id};

/// Where Debian's font packages install their files.
pub const DEBIAN_FONT_DIR: &str = "/usr/share/fonts";

/// One system face: what the editor sees, and where the server finds it.
#[derive(Debug, Clone)]
struct Face {
    font: Font,
    path: PathBuf,
    index: u32,
}

/// The catalogue of system fonts, sorted by family and style.
#[derive(Debug, Clone, Default)]
pub struct SystemFonts {
    faces: Vec<Face>,
}

impl SystemFonts {
    /// Reads every font file under `dirs`; files fontdb cannot read (Type 1, broken files) are
    /// skipped, and of two files with the same family and style the first path in sort order wins.
    pub fn load(dirs: &[PathBuf]) -> Self {
        let mut db = fontdb::Database::new();
        for dir in dirs {
            db.load_fonts_dir(dir);
        }
        let mut by_id: BTreeMap<String, Face> = BTreeMap::new();
        for info in db.faces() {
            let fontdb::Source::File(path) = &info.source else { continue };
            let Some(format) = path.extension().and_then(|e| e.to_str()).map(str::to_ascii_lowercase).as_deref().and_then(FontFormat::parse) else {
                continue;
            };
            let Some((family, _)) = info.families.first() else { continue };
            let name_cn = info
                .families
                .iter()
                .find(|(_, lang)| lang.primary_language() == "Chinese")
                .map_or_else(|| family.clone(), |(n, _)| n.clone());
            let style = style_name(info.weight.0, info.style != fontdb::Style::Normal);
            let id = system_id(family, &style);
            let face = Face {
                font: Font { id: id.clone(), name: family.clone(), name_cn, style, system: true, format },
                path: path.clone(),
                index: info.index,
            };
            match by_id.get(&id) {
                Some(kept) if (&kept.path, kept.index) <= (&face.path, face.index) => {}
                _ => {
                    by_id.insert(id, face);
                }
            }
        }
        let mut faces: Vec<Face> = by_id.into_values().collect();
        faces.sort_by(|a, b| (&a.font.name, &a.font.style).cmp(&(&b.font.name, &b.font.style)));
        Self { faces }
    }

    /// Every system font.
    pub fn list(&self) -> Vec<Font> {
        self.faces.iter().map(|f| f.font.clone()).collect()
    }

    fn face(&self, id: &str) -> Option<&Face> {
        self.faces.iter().find(|f| f.font.id == id)
    }

    /// The system font with this id.
    pub fn get(&self, id: &str) -> Option<&Font> {
        self.face(id).map(|f| &f.font)
    }

    /// The file of a system font, for serving; `None` when the id is not a system font.
    pub fn file(&self, id: &str) -> Option<&Path> {
        self.face(id).map(|f| f.path.as_path())
    }

    /// The characters of `text` the system font `id` lacks; `None` when it is not a system font.
    pub async fn missing(&self, id: &str, text: &str) -> Option<Result<String, FontError>> {
        let face = self.face(id)?.clone();
        let text = text.to_owned();
        // Reading a CJK collection is 20 MB of file work: keep it off the async threads.
        let r = tokio::task::spawn_blocking(move || {
            let data = std::fs::read(&face.path).map_err(|e| FontError::File(format!("system font {}: {e}", face.font.id)))?;
            let parsed = ttf_parser::Face::parse(&data, face.index).map_err(|e| FontError::File(format!("system font {}: {e}", face.font.id)))?;
            Ok(crate::domain::missing_glyphs(&parsed, &text))
        })
        .await
        .map_err(|e| FontError::File(format!("glyph check: {e}")));
        Some(r.and_then(|r| r))
    }
}
