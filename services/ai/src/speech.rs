//! Text to speech (docs/ai.md, "Text to speech"): the request validated once (text, voice, rate,
//! pitch; a refusal names its field), the local voice (the `espeak-ng` program: the text on its
//! stdin, a WAV on its stdout, never a shell), the HTTP provider's `POST /audio/speech`, and the
//! provider configured for the tenant chosen between them. A dubbing runs as a farm job
//! (`TEXT_TO_VOICE`), so the worker calls [`synthesise`]; the task service calls [`Speech::parse`].

use std::io::{Read, Write};
use std::process::{Command, Stdio};
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

use serde_json::{Map, Value};

use crate::provider::{AiError, Providers};
use crate::wav::Wav;

/// The catalogue key of the ability.
pub const ABILITY: &str = "text-to-speech";

/// The farm job type of a dubbing (a tool run of the task service, not a toolbox type).
pub const TEXT_TO_VOICE: &str = "TEXT_TO_VOICE";

/// The longest text spoken, in characters (after trimming): five or six minutes of Mandarin at the
/// normal rate, longer than a dubbing; longer texts are split by the user.
pub const MAX_CHARS: usize = 1000;

/// Slowest and fastest rate, as a factor of the voice's normal speed.
pub const RATE_RANGE: (f64, f64) = (0.5, 2.0);

/// Lowest and highest pitch (espeak-ng's scale; 50 is the voice's own).
pub const PITCH_RANGE: (u64, u64) = (0, 99);

/// The voice's own pitch.
pub const DEFAULT_PITCH: u32 = 50;

/// espeak-ng's normal speed, words per minute (its `-s` default).
const NORMAL_WPM: f64 = 175.0;

/// A voice a dubbing speaks in.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum Voice {
    /// Mandarin Chinese (普通话).
    Mandarin,
    /// English (American).
    English,
}

impl Voice {
    /// Every voice.
    pub const ALL: [Self; 2] = [Self::Mandarin, Self::English];

    /// The wire name (`cmn`, `en`).
    pub fn name(self) -> &'static str {
        match self {
            Self::Mandarin => "cmn",
            Self::English => "en",
        }
    }

    /// espeak-ng's voice.
    pub fn espeak(self) -> &'static str {
        match self {
            Self::Mandarin => "cmn",
            Self::English => "en-us",
        }
    }

    /// The argument of espeak-ng's `-v`: the voice with its variant. English speaks with the Klatt
    /// formant synthesiser (`klatt2`): the local recogniser reads the default variant's English
    /// back at about 30 % of its characters and this one's at over 80 % (docs/ai.md).
    pub fn espeak_with_variant(self) -> &'static str {
        match self {
            Self::Mandarin => "cmn",
            Self::English => "en-us+klatt2",
        }
    }

    /// Reads a wire name.
    pub fn parse(name: &str) -> Option<Self> {
        Self::ALL.into_iter().find(|v| v.name() == name)
    }

    /// Characters spoken per second at the normal rate, roughly: the estimate behind a job's
    /// progress and time limit, never its result.
    fn chars_per_second(self) -> f64 {
        // Measured with `make bench-ai`'s paragraphs: 114 characters in 38.6 s, 267 in 15.4 s.
        match self {
            Self::Mandarin => 3.0,
            Self::English => 17.0,
        }
    }
}

/// A refused request, naming the field (`text`, `voice`, `rate`, `pitch`).
#[derive(Debug, Clone, PartialEq, Eq, thiserror::Error)]
#[error("{field}: {message}")]
pub struct FieldError {
    /// The field as the caller sent it.
    pub field: String,
    /// What is wrong with it.
    pub message: String,
}

fn refuse(field: &str, message: impl Into<String>) -> FieldError {
    FieldError { field: field.to_owned(), message: message.into() }
}

/// A validated dubbing request.
#[derive(Debug, Clone, PartialEq)]
pub struct Speech {
    /// What is said, trimmed, 1 to [`MAX_CHARS`] characters with at least one letter or digit.
    pub text: String,
    /// The voice.
    pub voice: Voice,
    /// Speed factor within [`RATE_RANGE`] (1: the voice's normal speed).
    pub rate: f64,
    /// Pitch within [`PITCH_RANGE`].
    pub pitch: u32,
}

impl Speech {
    /// Reads `{text, voice, rate?, pitch?}` (rate 1 and pitch 50 when absent); unknown keys are
    /// refused.
    pub fn parse(value: &Value) -> Result<Self, FieldError> {
        const KNOWN: [&str; 4] = ["text", "voice", "rate", "pitch"];
        let empty = Map::new();
        let map = match value {
            Value::Object(m) => m,
            Value::Null => &empty,
            _ => return Err(refuse("params", "must be an object")),
        };
        if let Some(k) = map.keys().find(|k| !KNOWN.contains(&k.as_str())) {
            return Err(refuse(k, format!("unknown parameter; expected one of {}", KNOWN.join(", "))));
        }
        let get = |k: &str| map.get(k).filter(|v| !v.is_null());
        let text = get("text").and_then(Value::as_str).unwrap_or_default().trim();
        if text.is_empty() {
            return Err(refuse("text", "is empty: type what the voice is to say"));
        }
        let n = text.chars().count();
        if n > MAX_CHARS {
            return Err(refuse("text", format!("is {n} characters long; at most {MAX_CHARS} are spoken at once")));
        }
        if !text.chars().any(char::is_alphanumeric) {
            return Err(refuse("text", "has nothing to say: no letter, character or digit"));
        }
        let names = Voice::ALL.map(Voice::name).join(", ");
        let voice = match get("voice") {
            None => return Err(refuse("voice", format!("is required: one of {names}"))),
            Some(v) => v.as_str().and_then(Voice::parse).ok_or_else(|| refuse("voice", format!("{v} is not a voice; use one of {names}")))?,
        };
        let rate = match get("rate") {
            None => 1.0,
            Some(v) => v.as_f64().filter(|r| (RATE_RANGE.0..=RATE_RANGE.1).contains(r)).ok_or_else(|| {
                refuse("rate", format!("{v} is not a speed between {} and {}", RATE_RANGE.0, RATE_RANGE.1))
            })?,
        };
        let pitch = match get("pitch") {
            None => DEFAULT_PITCH,
            Some(v) => v
                .as_u64()
                .filter(|p| (PITCH_RANGE.0..=PITCH_RANGE.1).contains(p))
                .and_then(|p| u32::try_from(p).ok())
                .ok_or_else(|| refuse("pitch", format!("{v} is not a whole number between {} and {}", PITCH_RANGE.0, PITCH_RANGE.1)))?,
        };
        Ok(Self { text: text.to_owned(), voice, rate, pitch })
    }

    /// The request as [`Speech::parse`] reads it back.
    pub fn to_json(&self) -> Value {
        serde_json::json!({"text": self.text, "voice": self.voice.name(), "rate": self.rate, "pitch": self.pitch})
    }

    /// About how long the speech lasts, milliseconds (for progress and the job's time limit).
    pub fn estimated_ms(&self) -> u64 {
        let seconds = self.text.chars().count() as f64 / (self.voice.chars_per_second() * self.rate);
        (seconds * 1000.0).ceil() as u64 + 500
    }

    /// espeak-ng's speed, words per minute.
    fn words_per_minute(&self) -> u32 {
        (NORMAL_WPM * self.rate).round() as u32
    }
}

/// The local voice: the espeak-ng program.
#[derive(Debug, Clone)]
pub struct Espeak {
    program: String,
}

/// Bytes read from espeak-ng's stdout at once; the cancel flag is looked at between reads.
const READ_CHUNK: usize = 64 * 1024;

impl Espeak {
    /// The program at `program` (a name looked up on the PATH, or a path).
    pub fn new(program: &str) -> Self {
        Self { program: program.to_owned() }
    }

    /// Whether the program runs and has both voices; `Err` says what is missing and what installs it.
    pub fn check(&self) -> Result<(), String> {
        let install = "install the Debian packages espeak-ng and espeak-ng-data";
        let out = Command::new(&self.program)
            .arg("--version")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("the local voice `{}` cannot run ({e}): {install}", self.program))?;
        if !out.status.success() {
            return Err(format!("`{} --version` failed ({}): {install}", self.program, out.status));
        }
        for voice in Voice::ALL {
            let listed = Command::new(&self.program)
                .arg(format!("--voices={}", voice.espeak()))
                .stdin(Stdio::null())
                .output()
                .map_err(|e| format!("`{}` cannot list its voices ({e}): {install}", self.program))?;
            let text = String::from_utf8_lossy(&listed.stdout);
            // A table: its first line is the header, then one voice a line with its language second.
            if !text.lines().skip(1).any(|l| l.split_whitespace().nth(1) == Some(voice.espeak())) {
                return Err(format!("`{}` has no `{}` voice: {install}", self.program, voice.espeak()));
            }
        }
        let variants = Command::new(&self.program)
            .arg("--voices=variant")
            .stdin(Stdio::null())
            .output()
            .map_err(|e| format!("`{}` cannot list its variants ({e}): {install}", self.program))?;
        if !String::from_utf8_lossy(&variants.stdout).lines().any(|l| l.split_whitespace().nth(3) == Some("klatt2")) {
            return Err(format!("`{}` has no `klatt2` variant: {install}", self.program));
        }
        Ok(())
    }

    /// Speaks `speech`: espeak-ng is started with its arguments (no shell), the text goes to its
    /// stdin, the WAV comes from its stdout. `progress` is told the milliseconds of sound made so
    /// far; a set `cancel` kills the program.
    pub fn synthesise(&self, speech: &Speech, cancel: &AtomicBool, progress: &mut dyn FnMut(u64)) -> Result<Wav, AiError> {
        let mut child = Command::new(&self.program)
            .args(["--stdout", "--stdin", "-b", "1", "-v", speech.voice.espeak_with_variant()])
            .args(["-s", &speech.words_per_minute().to_string(), "-p", &speech.pitch.to_string()])
            .stdin(Stdio::piped())
            .stdout(Stdio::piped())
            .stderr(Stdio::piped())
            .spawn()
            .map_err(|e| AiError::Upstream(format!("`{}` did not start: {e}", self.program)))?;
        let fed = child.stdin.take().map(|mut stdin| {
            let text = speech.text.clone();
            // A thread of its own: a program that fills its stdout before reading all its stdin
            // never blocks against us.
            std::thread::spawn(move || stdin.write_all(text.as_bytes()))
        });
        let mut sound = Vec::new();
        let read = child.stdout.take().map_or(Ok(()), |mut stdout| {
            let mut chunk = vec![0u8; READ_CHUNK];
            loop {
                if cancel.load(Ordering::Relaxed) {
                    return Err(AiError::Cancelled);
                }
                match stdout.read(&mut chunk) {
                    Ok(0) => return Ok(()),
                    Ok(n) => {
                        sound.extend_from_slice(&chunk[..n]);
                        progress(Wav::playing_ms(&sound));
                    }
                    Err(e) if e.kind() == std::io::ErrorKind::Interrupted => {}
                    Err(e) => return Err(AiError::Upstream(format!("reading espeak-ng: {e}"))),
                }
            }
        });
        if read.is_err() {
            let _ = child.kill();
        }
        let mut stderr = String::new();
        if let Some(mut e) = child.stderr.take() {
            let _ = e.read_to_string(&mut stderr);
        }
        let status = child.wait().map_err(|e| AiError::Upstream(format!("waiting for espeak-ng: {e}")))?;
        read?;
        if !status.success() {
            return Err(AiError::Upstream(format!("espeak-ng failed ({status}): {}", stderr.trim())));
        }
        if let Some(Ok(Err(e))) = fed.map(std::thread::JoinHandle::join) {
            return Err(AiError::Upstream(format!("writing the text to espeak-ng: {e}")));
        }
        Wav::mend(sound).map_err(|e| AiError::Upstream(format!("espeak-ng's output: {e}")))
    }
}

/// Speaks `speech` for `tenant` with the provider configured for text to speech: the local voice
/// (on the blocking pool) or the HTTP provider (`POST /audio/speech`, with its retries). The sound
/// is a mended 16-bit PCM WAV with at least some sound in it; an ability with no working provider
/// is refused as unavailable.
pub async fn synthesise(
    providers: &Providers,
    tenant: &str,
    speech: Speech,
    cancel: Arc<AtomicBool>,
    mut progress: impl FnMut(u64) + Send + 'static,
) -> Result<Wav, AiError> {
    let wav = match providers.status(tenant, ABILITY).await.map_err(AiError::Unavailable)? {
        "local" => {
            let espeak = providers.espeak();
            tokio::task::spawn_blocking(move || espeak.synthesise(&speech, &cancel, &mut progress))
                .await
                .map_err(|e| AiError::Upstream(format!("the local voice stopped: {e}")))??
        }
        _ => {
            let http = providers.http(tenant, ABILITY).await?;
            let cfg = providers.configured(tenant, ABILITY);
            let voice = cfg.voices.get(speech.voice.name()).map_or(speech.voice.name(), String::as_str);
            let bytes = http.speech(providers.client(), &speech.text, voice, speech.rate).await?;
            Wav::mend(bytes).map_err(|e| AiError::Upstream(format!("the provider's answer is not a WAV: {e}")))?
        }
    };
    if wav.frames() == 0 {
        return Err(AiError::Upstream("the voice made no sound".into()));
    }
    Ok(wav)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(v: Value) -> String {
        Speech::parse(&v).err().map(|e| e.field).unwrap_or_default()
    }

    #[test]
    fn a_request_is_read_with_defaults_and_written_back() {
        let s = Speech::parse(&serde_json::json!({"text": "  你好  ", "voice": "cmn"})).ok();
        assert_eq!(s, Some(Speech { text: "你好".into(), voice: Voice::Mandarin, rate: 1.0, pitch: 50 }));
        let s = Speech::parse(&serde_json::json!({"text": "Hi", "voice": "en", "rate": 0.5, "pitch": 99})).ok();
        assert_eq!(s.as_ref().map(Speech::to_json), Some(serde_json::json!({"text": "Hi", "voice": "en", "rate": 0.5, "pitch": 99})));
        assert_eq!(s.map(|s| s.words_per_minute()), Some(88));
    }

    #[test]
    fn each_refusal_names_its_field() {
        assert_eq!(field(serde_json::json!({"text": " ", "voice": "cmn"})), "text");
        assert_eq!(field(serde_json::json!({"text": "字".repeat(MAX_CHARS + 1), "voice": "cmn"})), "text");
        assert!(Speech::parse(&serde_json::json!({"text": "字".repeat(MAX_CHARS), "voice": "cmn"})).is_ok());
        assert_eq!(field(serde_json::json!({"text": "。，！", "voice": "cmn"})), "text");
        assert_eq!(field(serde_json::json!({"text": "hi"})), "voice");
        assert_eq!(field(serde_json::json!({"text": "hi", "voice": "fr"})), "voice");
        assert_eq!(field(serde_json::json!({"text": "hi", "voice": "en", "rate": 2.5})), "rate");
        assert_eq!(field(serde_json::json!({"text": "hi", "voice": "en", "rate": "fast"})), "rate");
        assert_eq!(field(serde_json::json!({"text": "hi", "voice": "en", "pitch": 100})), "pitch");
        assert_eq!(field(serde_json::json!({"text": "hi", "voice": "en", "pitch": 20.5})), "pitch");
        assert_eq!(field(serde_json::json!({"text": "hi", "voice": "en", "volume": 3})), "volume");
        assert_eq!(field(serde_json::json!("hi")), "params");
    }

    #[test]
    fn the_estimate_grows_with_the_text_and_a_slower_rate() {
        let s = |text: &str, rate: f64| Speech { text: text.into(), voice: Voice::Mandarin, rate, pitch: 50 }.estimated_ms();
        assert!(s("你好世界", 1.0) < s("你好世界你好世界", 1.0));
        assert!(s("你好世界", 1.0) < s("你好世界", 0.5));
    }
}
