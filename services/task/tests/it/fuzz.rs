//! Fuzz harnesses of what a task save and a card sheet upload parse (see kit's `testing::fuzz`):
//! the document (taskInfo) as saved, the SVG of a shape as checked, sanitised and then drawn by
//! usvg and resvg with the render crate's options, and card sheets (CSV, and xlsx both as bytes and
//! as parts mutated inside a well-formed zip).

use std::collections::BTreeMap;
use std::io::{Cursor, Read, Write};
use std::time::Duration;

use reelforge_kit::testing::fuzz::{Counting, Fuzz};
use reelforge_task::template::{self, SheetFormat, card_rows, header_xlsx, read_sheet, starters};
use reelforge_task::TaskError;
use reelforge_task::domain::check_rule;
use reelforge_timeline::{Rule, svg};
use resvg::{tiny_skia, usvg};

#[global_allocator]
static ALLOC: Counting = Counting;

const JSON_WORDS: &[&[u8]] = &[
    b"{", b"}", b"[", b"]", b",", b":", b"\"", b"null", b"true", b"-1", b"0", b"1e308", b"-1e308", b"1e999", b"18446744073709551616", b"0.000001",
    b"\"type\":", b"\"layers\":", b"\"scenes\":", b"\"timeLength\":", b"\"attachList\":", b"\"word\"", b"\"picture\"", b"\"video\"", b"\"shape\"",
    b"\"group\"", b"\"artWord\"", b"\"shapeCode\":", b"\"startTime\":", b"\"endTime\":", b"\"fontSize\":", b"\"frameRate\":", b"\\u0000", b"\\ud800",
];

/// The documents of the repository's tests and the starter templates.
fn documents() -> Result<Vec<Vec<u8>>, Box<dyn std::error::Error>> {
    let mut seeds: Vec<Vec<u8>> = starters().into_iter().map(|s| s.task_info.into_bytes()).collect();
    let fixtures = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("../timeline/tests/fixtures");
    for entry in std::fs::read_dir(fixtures)? {
        let path = entry?.path();
        if path.extension().is_some_and(|e| e == "json") {
            seeds.push(std::fs::read(path)?);
        }
    }
    Ok(seeds)
}

#[test]
fn document() -> Result<(), Box<dyn std::error::Error>> {
    Fuzz::new("document", documents()?)
        .dictionary(JSON_WORDS)
        .cases(500)
        .run(|bytes| {
            let text = String::from_utf8_lossy(bytes);
            // A refusal names what is wrong; a parsed document saves and parses back the same.
            match check_rule(&text, "t1") {
                Err(TaskError::Invalid(why)) if why.is_empty() => return Err("a refusal without a reason".into()),
                _ => {}
            }
            if let Ok(rule) = Rule::parse(&text) {
                let saved = serde_json::to_string(&rule).map_err(|e| e.to_string())?;
                let again = Rule::parse(&saved).map_err(|e| format!("a saved document does not parse: {e}"))?;
                if again != rule {
                    return Err("a saved document parses differently".into());
                }
            }
            Ok(())
        })?;
    Ok(())
}

/// usvg options as the render crate's: no resources directory, no file behind an `href`.
fn render_options() -> usvg::Options<'static> {
    usvg::Options {
        resources_dir: None,
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: usvg::ImageHrefResolver::default_data_resolver(),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    }
}

#[test]
fn shape_svg() -> Result<(), Box<dyn std::error::Error>> {
    let mut seeds: Vec<Vec<u8>> = reelforge_timeline::catalogue::shapes::SHAPES
        .iter()
        .filter_map(|s| reelforge_timeline::catalogue::shapes::svg(s.key))
        .map(String::into_bytes)
        .collect();
    seeds.push(
        br##"<svg xmlns="http://www.w3.org/2000/svg" xmlns:xlink="http://www.w3.org/1999/xlink" viewBox="0 0 100 100"><defs><linearGradient id="g"><stop offset="0" stop-color="red"/><stop offset="1" stop-color="blue"/></linearGradient><filter id="f"><feGaussianBlur stdDeviation="3"/></filter><clipPath id="c"><circle cx="50" cy="50" r="40"/></clipPath></defs><g clip-path="url(#c)" filter="url(#f)"><rect width="100" height="100" fill="url(#g)"/><use xlink:href="#p"/><path id="p" d="M10 10 L90 90 Q 50 0 10 90 Z" stroke="#000" stroke-width="4"/><text x="10" y="50" font-size="20">Hi</text></g><style>rect { fill: green }</style></svg>"##.to_vec(),
    );
    // Regressions: an attribute name starting with a character of more than one byte (a panic).
    seeds.push(r#"<svg xmlns="http://www.w3.org/2000/svg" 中=""/>"#.into());
    Fuzz::new("shape-svg", seeds)
        .dictionary(&[
            b"<", b">", b"/>", b"</g>", b"<g>", b"<use href=\"#p\"/>", b"id=\"p\"", b"url(#g)", b"url(#f)", b"transform=\"scale(1e9)\"", b"stroke-width=\"1e9\"",
            b"stdDeviation=\"1e6\"", b"<pattern id=\"g\" width=\"0.001\" height=\"0.001\">", b"<filter id=\"f\" x=\"-1e9\" width=\"1e10\">", b"viewBox=\"0 0 0 0\"",
            b"viewBox=\"0 0 1e-9 1e-9\"", b"width=\"1e9\"", b"d=\"M0 0", b"A 1e9 1e9 0 1 1", b"<!DOCTYPE svg>", b"&#x", b"xlink:href=\"data:image/png;base64,\"",
            b"<image href=\"data:image/png;base64,iVBORw0KGgo=\"/>", b"<text>", b"<tspan>", b"font-size=\"1e9\"", b"<mask id=\"m\">", b"mask=\"url(#m)\"",
        ])
        .cases(300)
        .memory(512 << 20)
        .hang(Duration::from_secs(20))
        .run(|bytes| {
            let text = String::from_utf8_lossy(bytes);
            // What the sanitiser writes back is accepted; what is accepted draws, in bounded time and memory.
            if let Ok(clean) = svg::sanitise(&text) {
                svg::check(&clean).map_err(|e| format!("the sanitised SVG is refused: {e}\n{clean}"))?;
            }
            if svg::check(&text).is_ok()
                && let Ok(tree) = usvg::Tree::from_str(&text, &render_options())
                && let Some(mut pm) = tiny_skia::Pixmap::new(96, 96)
            {
                let size = tree.size();
                let t = tiny_skia::Transform::from_scale(96.0 / size.width(), 96.0 / size.height());
                resvg::render(&tree, t, &mut pm.as_mut());
            }
            Ok(())
        })?;
    Ok(())
}

/// The card fields of a template that names every kind once, by position.
fn every_field() -> BTreeMap<i64, i64> {
    template::CARD_LABELS.iter().enumerate().map(|(i, (code, _))| (*code, i as i64)).collect()
}

/// The contract of reading a sheet: rows, or a refusal whose message names the file.
fn sheet(format: SheetFormat, bytes: &[u8]) -> Result<(), String> {
    match read_sheet(format, bytes) {
        Ok(rows) => {
            let _ = card_rows(&rows, &every_field());
            Ok(())
        }
        Err(TaskError::Invalid(why)) if why.starts_with("file: ") => Ok(()),
        Err(e) => Err(format!("a refusal that does not name the file: {e:?}")),
    }
}

const SHEET_WORDS: &[&[u8]] = &[
    b"<c r=\"A1\" t=\"s\"><v>0</v></c>", b"<c r=\"XFD1048576\"><v>1</v></c>", b"r=\"XFD1048576\"", b"r=\"A1048576\"", b"ref=\"A1:XFD1048576\"",
    b"<dimension ref=\"A1:XFD1048576\"/>", b"<row r=\"1048576\">", b"t=\"s\"", b"t=\"inlineStr\"", b"<is><t>x</t></is>", b"<v>4294967295</v>", b"<si><t>",
    b"</t></si>", b"<f>", b"<![CDATA[", b"&amp;", b"<", b">", b"\"", b"PK\x03\x04",
];

#[test]
fn sheet_csv() -> Result<(), Box<dyn std::error::Error>> {
    let header = template::CARD_LABELS.iter().map(|(_, l)| *l).collect::<Vec<_>>().join(",");
    let seed = format!("\u{feff}{header}\n张三,经理,\"市场,部\",13800000000,a@b.c\n\"multi\nline\",x\n");
    Fuzz::new("sheet-csv", vec![seed.into_bytes()])
        .dictionary(&[b",", b"\"", b"\"\"", b"\n", b"\r\n", b"\xef\xbb\xbf", b"\xff"])
        .cases(1000)
        .memory(64 << 20)
        .run(|bytes| sheet(SheetFormat::Csv, bytes))?;
    Ok(())
}

#[test]
fn sheet_xlsx_bytes() -> Result<(), Box<dyn std::error::Error>> {
    Fuzz::new("sheet-xlsx-bytes", vec![header_xlsx(&every_field())?])
        .dictionary(SHEET_WORDS)
        .cases(500)
        .memory(256 << 20)
        .run(|bytes| sheet(SheetFormat::Xlsx, bytes))?;
    Ok(())
}

/// Separates the parts of a structured input.
const PART: &[u8] = b"\0\0";

#[test]
fn sheet_xlsx_parts() -> Result<(), Box<dyn std::error::Error>> {
    // The parts of a real workbook, in order; a case mutates their text and zips them again.
    let mut book = zip::ZipArchive::new(Cursor::new(header_xlsx(&every_field())?))?;
    let mut names = Vec::new();
    let mut parts = Vec::new();
    for i in 0..book.len() {
        let mut entry = book.by_index(i)?;
        let mut data = Vec::new();
        entry.read_to_end(&mut data)?;
        names.push(entry.name()?.into_owned());
        parts.push(data);
    }
    Fuzz::new("sheet-xlsx-parts", vec![parts.join(PART)])
        .dictionary(SHEET_WORDS)
        .dictionary(&[PART])
        .cases(300)
        .memory(256 << 20)
        .run(|bytes| {
            let mut w = zip::ZipWriter::new(Cursor::new(Vec::new()));
            let options = zip::write::SimpleFileOptions::default().compression_method(zip::CompressionMethod::Deflated);
            let mut rest = bytes;
            for name in &names {
                let end = rest.windows(PART.len()).position(|w| w == PART).unwrap_or(rest.len());
                w.start_file(name.as_str(), options).map_err(|e| e.to_string())?;
                w.write_all(&rest[..end]).map_err(|e| e.to_string())?;
                rest = rest.get(end + PART.len()..).unwrap_or_default();
            }
            let zipped = w.finish().map_err(|e| e.to_string())?.into_inner();
            sheet(SheetFormat::Xlsx, &zipped)
        })?;
    Ok(())
}
