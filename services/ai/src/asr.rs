//! Speech recognition (docs/ai.md, "Speech recognition"): the request validated once (the sound's
//! language; a refusal names its field), and the local recogniser, CMU PocketSphinx's
//! `pocketsphinx_continuous` with the English acoustic model, dictionary and language model of the
//! Debian package `pocketsphinx-en-us`, started with its arguments (never a shell) on a 16 kHz mono
//! 16-bit WAV, its word timings read from its `-time yes` lines. The sound is decoded and resampled
//! by the worker (GStreamer); a recognition runs as a farm job (`VOICE_TO_TEXT`).

use std::path::{Path, PathBuf};
use std::process::{Command, Stdio};
use std::sync::atomic::AtomicBool;
use std::time::Duration;

use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};

use crate::provider::{AiError, Unavailable};
use crate::speech::FieldError;

/// The catalogue key of the ability.
pub const ABILITY: &str = "speech-content-analysis";

/// The farm job type of a recognition (a tool run of the task service, not a toolbox type).
pub const VOICE_TO_TEXT: &str = "VOICE_TO_TEXT";

/// The sample rate the acoustic model was trained at; the worker resamples every sound to it.
pub const SAMPLE_RATE: u32 = 16_000;

/// A language a sound may be recognised in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Language {
    /// English (American): the local model.
    English,
    /// Mandarin Chinese: no model ships in a package, so no local recognition.
    Mandarin,
}

impl Language {
    /// The wire name (`en`, `cmn`).
    pub fn name(self) -> &'static str {
        match self {
            Self::English => "en",
            Self::Mandarin => "cmn",
        }
    }

    /// The ISO 639-1 code an OpenAI-compatible transcription takes (`en`, `zh`).
    pub fn iso(self) -> &'static str {
        match self {
            Self::English => "en",
            Self::Mandarin => "zh",
        }
    }

    /// Reads a wire name; `en-US`, `zh`, `zh-CN` are taken as their language.
    pub fn parse(name: &str) -> Option<Self> {
        match name.trim().to_ascii_lowercase().as_str() {
            "en" | "en-us" | "en_us" => Some(Self::English),
            "cmn" | "zh" | "zh-cn" | "zh_cn" => Some(Self::Mandarin),
            _ => None,
        }
    }

    /// Why the local recogniser cannot hear this language, if it cannot.
    pub fn local_gap(self) -> Option<Unavailable> {
        match self {
            Self::English => None,
            Self::Mandarin => Some(Unavailable {
                code: "not-configured",
                words: format!(
                    "no Mandarin speech model ships in a Debian package, so the local recogniser hears English only; set [ai.abilities.{ABILITY}] provider = \"http\" with an endpoint that transcribes Mandarin"
                ),
            }),
        }
    }
}

/// A validated recognition request (its material is the run's one input).
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Recognition {
    /// The sound's language.
    pub language: Language,
}

impl Recognition {
    /// Reads `{language?}` (English when absent) and the run's input materials: exactly one.
    /// Refusals name `language`, `materialId` or the unknown key.
    pub fn parse(params: &Value, material_ids: &[String]) -> Result<Self, FieldError> {
        let empty = Map::new();
        let map = match params {
            Value::Object(m) => m,
            Value::Null => &empty,
            _ => return Err(refuse("params", "must be an object")),
        };
        if let Some(k) = map.keys().find(|k| k.as_str() != "language") {
            return Err(refuse(k, "unknown parameter; a recognition takes a material and its language"));
        }
        let language = match map.get("language").filter(|v| !v.is_null()) {
            None => Language::English,
            Some(v) => v
                .as_str()
                .and_then(Language::parse)
                .ok_or_else(|| refuse("language", format!("{v} is not supported; use en (English) or cmn (Mandarin)")))?,
        };
        match material_ids {
            [_] => Ok(Self { language }),
            [] => Err(refuse("materialId", "choose a sound or a video to recognise")),
            _ => Err(refuse("materialId", "one material is recognised at a time")),
        }
    }

    /// The parameters stored with the run, as [`Recognition::parse`] reads them back.
    pub fn to_json(&self) -> Value {
        serde_json::json!({"language": self.language.name()})
    }
}

fn refuse(field: &str, message: impl Into<String>) -> FieldError {
    FieldError { field: field.to_owned(), message: message.into() }
}

/// One recognised word and when it was said, milliseconds from the sound's start.
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Word {
    /// The word as the dictionary spells it.
    pub word: String,
    /// When it starts.
    pub start_ms: u64,
    /// When it ends.
    pub end_ms: u64,
}

/// A recognition's result, the run's first output (`transcript.json`).
#[derive(Debug, Clone, PartialEq, Eq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Transcript {
    /// The language heard (`en`).
    pub language: String,
    /// The words joined by spaces.
    pub text: String,
    /// Each word with its times, in the order said.
    pub words: Vec<Word>,
    /// The sound's length, milliseconds.
    pub duration_ms: u64,
    /// Who recognised it (`pocketsphinx en-us`).
    pub model: String,
}

/// The local recogniser: the `pocketsphinx_continuous` program and a model directory holding the
/// acoustic model (`en-us/`), the dictionary (`cmudict-en-us.dict`) and the language model
/// (`en-us.lm.bin`), as the Debian package lays them out.
#[derive(Debug, Clone)]
pub struct PocketSphinx {
    program: String,
    model_dir: PathBuf,
}

impl PocketSphinx {
    /// The program at `program` (a name looked up on the PATH, or a path) with the model in `model_dir`.
    pub fn new(program: &str, model_dir: &Path) -> Self {
        Self { program: program.to_owned(), model_dir: model_dir.to_owned() }
    }

    fn hmm(&self) -> PathBuf {
        self.model_dir.join("en-us")
    }

    fn dict(&self) -> PathBuf {
        self.model_dir.join("cmudict-en-us.dict")
    }

    fn lm(&self) -> PathBuf {
        self.model_dir.join("en-us.lm.bin")
    }

    /// Whether the program runs and the model's files are there; `Err` says what is missing and
    /// what installs it.
    pub fn check(&self) -> Result<(), String> {
        let install = "install the Debian packages pocketsphinx and pocketsphinx-en-us";
        // Without arguments the program prints its options and exits; what matters is that it starts.
        Command::new(&self.program)
            .arg("-h")
            .stdin(Stdio::null())
            .stdout(Stdio::null())
            .stderr(Stdio::null())
            .status()
            .map_err(|e| format!("the local recogniser `{}` cannot run ({e}): {install}", self.program))?;
        for needed in [self.hmm().join("mdef"), self.hmm().join("means"), self.dict(), self.lm()] {
            if !needed.is_file() {
                return Err(format!("the English speech model has no {}: {install}", needed.display()));
            }
        }
        Ok(())
    }

    /// Recognises the 16 kHz mono 16-bit WAV at `wav` lasting `duration_ms`. Past `timeout` or once
    /// `cancel` is set, the program is killed. A sound with no word heard fails with
    /// [`AiError::BadInput`] saying so.
    pub fn recognise(&self, wav: &Path, duration_ms: u64, timeout: Duration, cancel: &AtomicBool) -> Result<Transcript, AiError> {
        let mut command = Command::new(&self.program);
        command
            .arg("-infile")
            .arg(wav)
            .args(["-time", "yes", "-samprate", &SAMPLE_RATE.to_string()])
            .arg("-hmm")
            .arg(self.hmm())
            .arg("-dict")
            .arg(self.dict())
            .arg("-lm")
            .arg(self.lm());
        // Its log goes to stderr: a whole screen per utterance, kept only for a failure's words.
        let crate::program::Finished { status, stdout: out, stderr: err } = crate::program::run(command, timeout, cancel)?;
        if !status.success() {
            let err = String::from_utf8_lossy(&err);
            let last = err.lines().rev().find(|l| l.contains("ERROR")).unwrap_or_default();
            return Err(AiError::Upstream(format!("pocketsphinx failed ({status}): {}", last.trim())));
        }
        let words = parse_timings(&String::from_utf8_lossy(&out));
        if words.is_empty() {
            return Err(AiError::BadInput("no speech was heard in the sound".to_owned()));
        }
        let text = words.iter().map(|w| w.word.as_str()).collect::<Vec<_>>().join(" ");
        Ok(Transcript { language: Language::English.name().to_owned(), text, words, duration_ms, model: "pocketsphinx en-us".to_owned() })
    }
}

/// An OpenAI-compatible `verbose_json` transcription, as far as it is read.
#[derive(Deserialize)]
struct Verbose {
    #[serde(default)]
    words: Vec<VerboseWord>,
}

#[derive(Deserialize)]
struct VerboseWord {
    word: String,
    start: f64,
    end: f64,
}

/// Recognises the 16 kHz WAV `wav` (lasting `duration_ms`) through the HTTP provider configured
/// for `tenant` (`POST /audio/transcriptions` with word timestamps, its retries); an answer with
/// no word fails with [`AiError::BadInput`] as the local recogniser's does.
pub async fn recognise_http(
    providers: &crate::Providers,
    tenant: &str,
    wav: &[u8],
    language: Language,
    duration_ms: u64,
) -> Result<Transcript, AiError> {
    let http = providers.http(tenant, ABILITY).await?;
    let body = http.transcription(providers.client(), wav, language.iso()).await?;
    let verbose: Verbose = serde_json::from_slice(&body).map_err(|e| AiError::Upstream(format!("not a verbose_json transcription: {e}")))?;
    let ms = |s: f64| (s.max(0.0) * 1000.0).round() as u64;
    let words: Vec<Word> = verbose
        .words
        .into_iter()
        .map(|w| Word { word: w.word.trim().to_owned(), start_ms: ms(w.start), end_ms: ms(w.end) })
        .filter(|w| !w.word.is_empty())
        .collect();
    if words.is_empty() {
        return Err(AiError::BadInput("no speech was heard in the sound".to_owned()));
    }
    // Chinese words are written together, others with a space.
    let cjk = |c: char| ('\u{3400}'..='\u{9fff}').contains(&c);
    let mut text = String::new();
    for w in &words {
        let tight = text.chars().last().is_some_and(cjk) && w.word.chars().next().is_some_and(cjk);
        if !text.is_empty() && !tight {
            text.push(' ');
        }
        text.push_str(&w.word);
    }
    Ok(Transcript { language: language.name().to_owned(), text, words, duration_ms, model: format!("http {}", http.model()) })
}

/// Reads `pocketsphinx_continuous -time yes`'s output: per utterance a line with the hypothesis,
/// then one line per segment, `word start end confidence` (seconds). Silences (`<sil>`), the
/// utterance's bounds (`<s>`, `</s>`) and fillers (`[NOISE]`, `++BREATH++`) are not words; an
/// alternative pronunciation's mark (`the(2)`) is dropped.
pub fn parse_timings(out: &str) -> Vec<Word> {
    out.lines()
        .filter_map(|line| {
            let f: Vec<&str> = line.split_whitespace().collect();
            let [word, start, end, confidence] = f.as_slice() else { return None };
            let (start, end) = (start.parse::<f64>().ok()?, end.parse::<f64>().ok()?);
            confidence.parse::<f64>().ok()?;
            let filler = word.starts_with('<') || word.starts_with('[') || word.starts_with("++");
            if filler {
                return None;
            }
            let word = word.split_once('(').map_or(*word, |(w, _)| w);
            Some(Word { word: word.to_owned(), start_ms: (start * 1000.0).round() as u64, end_ms: (end * 1000.0).round() as u64 })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(v: Value, ids: &[&str]) -> String {
        let ids: Vec<String> = ids.iter().map(|s| (*s).to_owned()).collect();
        Recognition::parse(&v, &ids).err().map(|e| e.field).unwrap_or_default()
    }

    #[test]
    fn a_request_is_read_and_each_refusal_names_its_field() {
        let ids = ["m1".to_owned()];
        assert_eq!(Recognition::parse(&Value::Null, &ids).ok(), Some(Recognition { language: Language::English }));
        let zh = Recognition::parse(&serde_json::json!({"language": "zh-CN"}), &ids).ok();
        assert_eq!(zh.map(|r| r.to_json()), Some(serde_json::json!({"language": "cmn"})));
        assert_eq!(field(serde_json::json!({"language": "fr"}), &["m1"]), "language");
        assert_eq!(field(serde_json::json!({"language": 3}), &["m1"]), "language");
        assert_eq!(field(serde_json::json!({"speed": 3}), &["m1"]), "speed");
        assert_eq!(field(serde_json::json!({}), &[]), "materialId");
        assert_eq!(field(serde_json::json!({}), &["a", "b"]), "materialId");
        assert_eq!(field(serde_json::json!("en"), &["m1"]), "params");
    }

    #[test]
    fn only_english_is_heard_locally() {
        assert!(Language::English.local_gap().is_none());
        assert!(Language::Mandarin.local_gap().is_some_and(|u| u.code == "not-configured" && u.words.contains("Mandarin")));
    }

    #[test]
    fn timings_skip_silences_fillers_and_pronunciation_marks() {
        let out = "hello the world\n<s> 0.000 0.190 0.999800\nhello 0.200 0.550 0.5\n<sil> 0.560 0.700 0.9\n[NOISE] 0.710 0.800 0.9\nthe(2) 0.810 0.900 0.1\nworld 0.910 1.300 1.000700\n</s> 1.310 1.500 1.0\n";
        let words = parse_timings(out);
        let got: Vec<(&str, u64, u64)> = words.iter().map(|w| (w.word.as_str(), w.start_ms, w.end_ms)).collect();
        assert_eq!(got, [("hello", 200, 550), ("the", 810, 900), ("world", 910, 1300)]);
    }
}
