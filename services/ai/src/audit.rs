//! Video auditing (docs/ai.md, "Video auditing"): a tenant's sensitive words (configuration, never
//! built in) looked for in an editor document's text layers and in the text the `tesseract` OCR
//! program reads off a video's frames. Matching folds full-width forms to half-width and case, and
//! skips everything that is not a letter or a digit, so `敏 感-词` and `ＤＥＭＯ` match `敏感词` and
//! `demo`. The frames themselves are decoded by the worker (GStreamer); this module reads one
//! picture, matches text, and shapes the report.

use std::path::Path;
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::provider::AiError;
use crate::speech::FieldError;

/// The catalogue key of the ability.
pub const ABILITY: &str = "video-auditing";

/// The farm job type of an audit (a tool run of the task service, not a toolbox type).
pub const VIDEO_AUDIT: &str = "VIDEO_AUDIT";

/// The tesseract languages read: Simplified Chinese and English (Debian `tesseract-ocr-chi-sim`,
/// `tesseract-ocr-eng`).
pub const LANGUAGES: [&str; 2] = ["chi_sim", "eng"];

/// Words OCR is less sure of than this (tesseract's 0–100) are not read: on busy pictures they are
/// mostly texture taken for letters.
const MIN_CONFIDENCE: f64 = 20.0;

/// The folded form of one character, or none for a character matching skips (spaces,
/// punctuation, symbols): full-width ASCII and the ideographic space become half-width, letters
/// lower case.
pub fn fold(c: char) -> Option<char> {
    let c = match c {
        '\u{FF01}'..='\u{FF5E}' => char::from_u32(c as u32 - 0xFEE0).unwrap_or(c),
        '\u{3000}' => ' ',
        _ => c,
    };
    c.is_alphanumeric().then(|| c.to_lowercase().next().unwrap_or(c))
}

/// A box on a frame, pixels of the frame as decoded.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
pub struct BBox {
    /// Left edge.
    pub x: u32,
    /// Top edge.
    pub y: u32,
    /// Width.
    pub w: u32,
    /// Height.
    pub h: u32,
}

impl BBox {
    fn union(self, o: Self) -> Self {
        let (x, y) = (self.x.min(o.x), self.y.min(o.y));
        let right = (self.x + self.w).max(o.x + o.w);
        let bottom = (self.y + self.h).max(o.y + o.h);
        Self { x, y, w: right - x, h: bottom - y }
    }
}

/// A piece of text read together: an OCR word with its box, or a layer's whole text.
#[derive(Debug, Clone, PartialEq)]
pub struct Piece {
    /// The text as read.
    pub text: String,
    /// Where it was read, for OCR.
    pub bbox: Option<BBox>,
}

/// One listed word found in a run of pieces.
#[derive(Debug, Clone, PartialEq)]
pub struct Found {
    /// The word as the list has it.
    pub word: String,
    /// The union of the boxes of the pieces it was read across.
    pub bbox: Option<BBox>,
}

/// A tenant's sensitive words, each kept as written and folded.
#[derive(Debug, Clone, Default)]
pub struct WordList {
    words: Vec<(String, Vec<char>)>,
}

impl WordList {
    /// The list from configuration; a word with no letter or digit is left out (it would match
    /// everything once spaces and punctuation are skipped).
    pub fn new(words: &[String]) -> Self {
        let mut words: Vec<(String, Vec<char>)> =
            words.iter().map(|w| (w.trim().to_owned(), w.chars().filter_map(fold).collect::<Vec<_>>())).filter(|(_, f)| !f.is_empty()).collect();
        words.dedup_by(|a, b| a.1 == b.1);
        Self { words }
    }

    /// Whether no word is listed.
    pub fn is_empty(&self) -> bool {
        self.words.is_empty()
    }

    /// Every listed word in `pieces` read as one text (each occurrence once; overlapping
    /// occurrences of one word count once).
    pub fn find(&self, pieces: &[Piece]) -> Vec<Found> {
        // The folded text, with the piece each folded character came from.
        let (folded, from): (Vec<char>, Vec<usize>) =
            pieces.iter().enumerate().flat_map(|(i, p)| p.text.chars().filter_map(fold).map(move |c| (c, i))).unzip();
        let mut found = Vec::new();
        for (word, w) in &self.words {
            let mut at = 0;
            while at + w.len() <= folded.len() {
                if folded[at..at + w.len()] == w[..] {
                    let bbox = from[at..at + w.len()].iter().filter_map(|&i| pieces[i].bbox).reduce(BBox::union);
                    found.push(Found { word: word.clone(), bbox });
                    at += w.len();
                } else {
                    at += 1;
                }
            }
        }
        found
    }
}

/// One line of text tesseract read, its words in order.
#[derive(Debug, Clone, PartialEq)]
pub struct OcrLine {
    /// The words with their boxes.
    pub words: Vec<Piece>,
}

impl OcrLine {
    /// The line as read: its words joined by a space between Latin letters or digits, by nothing
    /// between Chinese characters (tesseract reads Chinese as separate pieces).
    pub fn text(&self) -> String {
        let mut out = String::new();
        for w in &self.words {
            let latin = |c: Option<char>| c.is_some_and(|c| c.is_ascii_alphanumeric());
            if latin(out.chars().last()) && latin(w.text.chars().next()) {
                out.push(' ');
            }
            out.push_str(&w.text);
        }
        out
    }
}

/// Reads tesseract's TSV output (`level page block par line word left top width height conf
/// text`): the words (level 5) with a confidence of at least [`MIN_CONFIDENCE`], grouped by line.
/// Rows that are short, not numbers or empty are skipped; nothing here panics on odd input.
pub fn parse_tsv(tsv: &str) -> Vec<OcrLine> {
    let mut lines: Vec<((u32, u32, u32, u32), OcrLine)> = Vec::new();
    for row in tsv.lines() {
        let cols: Vec<&str> = row.splitn(12, '\t').collect();
        if cols.len() < 12 || cols[0].trim() != "5" {
            continue;
        }
        let n = |i: usize| cols[i].trim().parse::<u32>().ok();
        let (Some(page), Some(block), Some(par), Some(line)) = (n(1), n(2), n(3), n(4)) else { continue };
        let (Some(x), Some(y), Some(w), Some(h)) = (n(6), n(7), n(8), n(9)) else { continue };
        let conf = cols[10].trim().parse::<f64>().unwrap_or(-1.0);
        let text = cols[11].trim();
        if text.is_empty() || !conf.is_finite() || conf < MIN_CONFIDENCE {
            continue;
        }
        let bbox = BBox { x, y, w: w.min(u32::MAX / 2 - x.min(u32::MAX / 2)), h: h.min(u32::MAX / 2 - y.min(u32::MAX / 2)) };
        let piece = Piece { text: text.to_owned(), bbox: Some(bbox) };
        let key = (page, block, par, line);
        match lines.last_mut() {
            Some((k, l)) if *k == key => l.words.push(piece),
            _ => lines.push((key, OcrLine { words: vec![piece] })),
        }
    }
    lines.into_iter().map(|(_, l)| l).collect()
}

/// The OCR program.
#[derive(Debug, Clone)]
pub struct Tesseract {
    program: String,
}

impl Tesseract {
    /// The program at `program` (a name looked up on the PATH, or a path).
    pub fn new(program: &str) -> Self {
        Self { program: program.to_owned() }
    }

    /// Whether the program runs and has both languages' data; `Err` says what is missing and
    /// what installs it.
    pub fn check(&self) -> Result<(), String> {
        let install = "install the Debian packages tesseract-ocr, tesseract-ocr-eng and tesseract-ocr-chi-sim";
        let out = Command::new(&self.program)
            .arg("--list-langs")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("the OCR program `{}` cannot run ({e}): {install}", self.program))?;
        if !out.status.success() {
            return Err(format!("`{} --list-langs` failed ({}): {install}", self.program, out.status));
        }
        // The list goes to stdout in tesseract 5, to stderr in 4: one language a line after a header.
        let listed = format!("{}{}", String::from_utf8_lossy(&out.stdout), String::from_utf8_lossy(&out.stderr));
        for lang in LANGUAGES {
            if !listed.lines().any(|l| l.trim() == lang) {
                return Err(format!("`{}` has no `{lang}` language data: {install}", self.program));
            }
        }
        Ok(())
    }

    /// Reads the text on the picture at `image` (PNG, PGM…): tesseract started with its arguments
    /// (no shell), TSV on its stdout. Past `timeout` or once `cancel` is set, the program is killed.
    pub fn read(&self, image: &Path, timeout: Duration, cancel: &AtomicBool) -> Result<Vec<OcrLine>, AiError> {
        let mut command = Command::new(&self.program);
        command.arg(image).args(["stdout", "-l", &LANGUAGES.join("+"), "--psm", "11", "tsv"]);
        let crate::program::Finished { status, stdout: out, stderr: err } = crate::program::run(command, timeout, cancel)?;
        if !status.success() {
            return Err(AiError::Upstream(format!("tesseract failed ({status}): {}", String::from_utf8_lossy(&err).trim())));
        }
        Ok(parse_tsv(&String::from_utf8_lossy(&out)))
    }
}

/// Where the text of a hit was.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Source {
    /// Read off a frame by OCR.
    Frame,
    /// A text layer of the document.
    Text,
}

/// One listed word found.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Hit {
    /// The listed word.
    pub word: String,
    /// A frame or a text layer.
    pub source: Source,
    /// The frame's time, milliseconds (frames only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub time_ms: Option<u64>,
    /// Where on the frame (frames only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub bbox: Option<BBox>,
    /// The layer's id (text only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub layer_id: Option<String>,
    /// The line read (frames) or the layer's text (text).
    pub text: String,
    /// The run's output holding the frame's picture (frames only).
    #[serde(skip_serializing_if = "Option::is_none")]
    pub frame_output: Option<usize>,
}

/// An audit's result, the run's first output (`audit.json`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// `pass` (no hit) or `flagged`.
    pub verdict: String,
    /// What was audited: `material` or `work`.
    pub source: String,
    /// Frames read by OCR.
    pub frames_read: u64,
    /// Text layers read.
    pub layers_read: u64,
    /// The decoded frames' size (the boxes' space).
    pub frame_width: u32,
    /// The decoded frames' height.
    pub frame_height: u32,
    /// The words found, frames in time order then text layers.
    pub hits: Vec<Hit>,
}

impl Report {
    /// `pass` or `flagged` from the hits.
    pub fn verdict_of(hits: &[Hit]) -> &'static str {
        if hits.is_empty() { "pass" } else { "flagged" }
    }
}

/// The text layers of a document (`taskInfo`): each `word`, `dynamicWord` and `artWord` layer's
/// content (and its shown content where that differs) and each template's word replacements (grouped layers included), with the layer's id.
pub fn document_texts(task_info: &str) -> Result<Vec<(String, String)>, String> {
    use reelforge_timeline::Layer;
    use reelforge_timeline::layer::{LayerCommon, TextFields};
    // The text as written and, where a replacement changed it, as shown.
    fn text(common: &LayerCommon, t: &TextFields, out: &mut Vec<(String, String)>) {
        out.push((common.id.to_string(), t.content.clone()));
        if !t.show_content.is_empty() && t.show_content != t.content {
            out.push((common.id.to_string(), t.show_content.clone()));
        }
    }
    fn walk(layers: &[Layer], out: &mut Vec<(String, String)>) {
        for l in layers {
            match l {
                Layer::Word(t) | Layer::DynamicWord(t) => text(&t.common, &t.text, out),
                Layer::ArtWord(a) => text(&a.common, &a.text, out),
                Layer::Template(t) => {
                    for r in t.replaces.iter().filter(|r| r.material_type == "word") {
                        let text = if r.replace_content.is_empty() { &r.content } else { &r.replace_content };
                        let id = r.id.as_ref().map_or_else(|| t.common.id.to_string(), |i| format!("{}/{i}", t.common.id));
                        out.push((id, text.clone()));
                    }
                }
                Layer::Group(g) => walk(&g.attach_list, out),
                _ => {}
            }
        }
    }
    let rule = reelforge_timeline::Rule::parse(task_info).map_err(|e| e.to_string())?;
    let mut out = Vec::new();
    for scene in &rule.scenes {
        walk(&scene.layers, &mut out);
    }
    Ok(out.into_iter().filter(|(_, t)| !t.trim().is_empty()).collect())
}

/// The hits of the listed words in a document's text layers.
pub fn audit_document(words: &WordList, texts: &[(String, String)]) -> Vec<Hit> {
    texts
        .iter()
        .flat_map(|(id, text)| {
            words.find(&[Piece { text: text.clone(), bbox: None }]).into_iter().map(move |f| Hit {
                word: f.word,
                source: Source::Text,
                time_ms: None,
                bbox: None,
                layer_id: Some(id.clone()),
                text: text.clone(),
                frame_output: None,
            })
        })
        .collect()
}

/// The hits of the listed words in the lines OCR read off the frame at `time_ms`.
pub fn audit_frame(words: &WordList, lines: &[OcrLine], time_ms: u64) -> Vec<Hit> {
    lines
        .iter()
        .flat_map(|line| {
            words.find(&line.words).into_iter().map(move |f| Hit {
                word: f.word,
                source: Source::Frame,
                time_ms: Some(time_ms),
                bbox: f.bbox,
                layer_id: None,
                text: line.text(),
                frame_output: None,
            })
        })
        .collect()
}

/// A validated audit request: what is audited.
#[derive(Debug, Clone, PartialEq, Eq)]
pub enum Target {
    /// One of the caller's video materials (the run's input material).
    Material,
    /// One of the caller's works: its document's text, and its rendered video when it has one.
    Work(i64),
}

impl Target {
    /// Reads an audit's request: `params` (an object, no keys taken), the input materials and the
    /// source work; exactly one material or one work. Refusals name `materialId`, `taskId` or the
    /// unknown key.
    pub fn parse(params: &Value, material_ids: &[String], source_task_id: i64) -> Result<Self, FieldError> {
        let empty = Map::new();
        let map = match params {
            Value::Object(m) => m,
            Value::Null => &empty,
            _ => return Err(refuse("params", "must be an object")),
        };
        if let Some(k) = map.keys().find(|k| !["source", "sourceTaskId"].contains(&k.as_str())) {
            return Err(refuse(k, "unknown parameter; an audit takes a material or a work, nothing else"));
        }
        match (material_ids, source_task_id) {
            ([], id) if id > 0 => Ok(Self::Work(id)),
            ([_], 0) => Ok(Self::Material),
            ([], 0) => Err(refuse("materialId", "choose a video material or one of your works (taskId) to audit")),
            ([], id) => Err(refuse("taskId", format!("{id} is not a work's id"))),
            ([_], _) => Err(refuse("taskId", "give a material or a work, not both")),
            _ => Err(refuse("materialId", "one material is audited at a time")),
        }
    }

    /// The parameters stored with the run, as [`Target::parse`] reads them back.
    pub fn to_json(&self) -> Value {
        match self {
            Self::Material => serde_json::json!({"source": "material"}),
            Self::Work(id) => serde_json::json!({"source": "work", "sourceTaskId": id}),
        }
    }
}

fn refuse(field: &str, message: impl Into<String>) -> FieldError {
    FieldError { field: field.to_owned(), message: message.into() }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn list(words: &[&str]) -> WordList {
        WordList::new(&words.iter().map(|w| (*w).to_owned()).collect::<Vec<_>>())
    }

    fn words_in(l: &WordList, text: &str) -> Vec<String> {
        l.find(&[Piece { text: text.into(), bbox: None }]).into_iter().map(|f| f.word).collect()
    }

    #[test]
    fn spacing_punctuation_and_width_do_not_hide_a_word() {
        let l = list(&["样例词", "Demo Word"]);
        assert_eq!(words_in(&l, "这里有样例词。"), ["样例词"]);
        assert_eq!(words_in(&l, "样 例-词"), ["样例词"]);
        assert_eq!(words_in(&l, "样\u{3000}例，词"), ["样例词"]);
        assert_eq!(words_in(&l, "Ｄｅｍｏ　ＷＯＲＤ"), ["Demo Word"]);
        assert_eq!(words_in(&l, "d.e.m.o-w o r d"), ["Demo Word"]);
        assert!(words_in(&l, "样例 文字 demo").is_empty());
    }

    #[test]
    fn each_occurrence_is_found_once_with_its_boxes() {
        let l = list(&["样例词"]);
        let piece = |t: &str, x| Piece { text: t.into(), bbox: Some(BBox { x, y: 10, w: 20, h: 30 }) };
        let found = l.find(&[piece("样例", 0), piece("词", 40), piece("和", 70), piece("样例词", 100)]);
        assert_eq!(found.len(), 2);
        assert_eq!(found[0].bbox, Some(BBox { x: 0, y: 10, w: 60, h: 30 }));
        assert_eq!(found[1].bbox, Some(BBox { x: 100, y: 10, w: 20, h: 30 }));
    }

    #[test]
    fn a_word_of_punctuation_only_is_left_out() {
        assert!(list(&["", " ", "。！"]).is_empty());
        assert!(!list(&["词"]).is_empty());
    }

    #[test]
    fn tsv_words_are_grouped_by_line_and_unsure_ones_dropped() {
        let tsv = "level\tpage_num\tblock_num\tpar_num\tline_num\tword_num\tleft\ttop\twidth\theight\tconf\ttext\n\
                   1\t1\t0\t0\t0\t0\t0\t0\t640\t360\t-1\t\n\
                   5\t1\t1\t1\t1\t1\t147\t145\t121\t44\t96.6\t测试\n\
                   5\t1\t1\t1\t1\t2\t270\t144\t86\t45\t46.8\t敏感\n\
                   5\t1\t1\t1\t1\t3\t364\t147\t17\t43\t5.0\t~\n\
                   5\t1\t1\t1\t2\t1\t10\t200\t50\t40\t90\thello\n\
                   5\t1\t1\t1\t2\t2\t70\t200\t50\t40\t90\tworld\n";
        let lines = parse_tsv(tsv);
        assert_eq!(lines.len(), 2);
        assert_eq!(lines[0].text(), "测试敏感");
        assert_eq!(lines[1].words[0].bbox, Some(BBox { x: 10, y: 200, w: 50, h: 40 }));
        assert_eq!(lines[1].text(), "hello world");
    }

    #[test]
    fn odd_tsv_never_panics() {
        let odd = [
            "",
            "\t\t\t",
            "5",
            "5\t1\t1\t1\t1\t1\tx\t0\t1\t1\t90\ta",
            "5\t1\t1\t1\t1\t1\t4294967295\t4294967295\t4294967295\t4294967295\tNaN\ta",
            "5\t1\t1\t1\t1\t1\t4294967295\t4294967295\t4294967295\t4294967295\t99\ta\tb\tc",
            "5\t-1\t1\t1\t1\t1\t0\t0\t1\t1\t99\ta",
            "\u{0}\u{FFFF}\t5\t\n\n\r\n",
        ];
        for tsv in odd {
            let lines = parse_tsv(tsv);
            let _ = list(&["a"]).find(&lines.iter().flat_map(|l| l.words.clone()).collect::<Vec<_>>());
        }
        // Every byte string a broken program could print, cut at every point.
        let sample = "5\t1\t1\t1\t1\t1\t147\t145\t121\t44\t96.6\t测试\n5\t1\t1";
        for cut in 0..=sample.len() {
            if sample.is_char_boundary(cut) {
                let _ = parse_tsv(&sample[..cut]);
            }
        }
    }

    #[test]
    fn each_refusal_names_its_field() {
        let field = |p: Value, ids: &[&str], task: i64| {
            Target::parse(&p, &ids.iter().map(|s| (*s).to_owned()).collect::<Vec<_>>(), task).err().map(|e| e.field).unwrap_or_default()
        };
        assert_eq!(Target::parse(&Value::Null, &["m1".into()], 0), Ok(Target::Material));
        assert_eq!(Target::parse(&serde_json::json!({"source": "work", "sourceTaskId": 7}), &[], 7), Ok(Target::Work(7)));
        assert_eq!(field(Value::Null, &[], 0), "materialId");
        assert_eq!(field(Value::Null, &["a", "b"], 0), "materialId");
        assert_eq!(field(Value::Null, &["a"], 3), "taskId");
        assert_eq!(field(Value::Null, &[], -3), "taskId");
        assert_eq!(field(serde_json::json!({"words": ["x"]}), &["a"], 0), "words");
        assert_eq!(field(serde_json::json!([1]), &["a"], 0), "params");
    }

    #[test]
    fn a_document_text_layer_is_named_by_its_id() -> Result<(), String> {
        let doc = serde_json::json!({
            "version": 1,
            "scenes": [{"type": "canvas", "layers": [
                {"type": "word", "id": "L1", "content": "欢迎观看", "startTime": 0, "endTime": 2},
                {"type": "group", "id": "G", "attachList": [{"type": "artWord", "id": "L2", "content": "样 例·词", "startTime": 0, "endTime": 2}]}
            ]}]
        });
        let texts = document_texts(&doc.to_string())?;
        assert_eq!(texts.len(), 2, "{texts:?}");
        let hits = audit_document(&list(&["样例词"]), &texts);
        assert_eq!(hits.len(), 1);
        assert_eq!((hits[0].layer_id.as_deref(), hits[0].source), (Some("L2"), Source::Text));
        Ok(())
    }
}
