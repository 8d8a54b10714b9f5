//! The parameters of the AI abilities' runs (docs/ai.md): VIDEO_COVER (`cover-generation`) and the
//! audio filters AUDIO_DENOISE, AUDIO_ECHO_CANCEL and AUDIO_GAIN_CONTROL (`audio-noise-reduction`,
//! `echo-cancellation`, `gain-control`); each refusal names its field.

use serde_json::{Map, Value};

use crate::error::ParamError;

/// VIDEO_COVER: how many cover pictures, in which format.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Covers {
    /// How many pictures, the best first (1–[`MAX_COVERS`]).
    pub count: u32,
    /// PNG (lossless) rather than JPEG.
    pub png: bool,
}

/// Most cover pictures one run makes.
pub const MAX_COVERS: u32 = 10;
/// Cover pictures unless asked otherwise.
pub const DEFAULT_COVERS: u32 = 3;

/// Which audio filter, with its own setting.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Filter {
    /// webrtcdsp's noise suppression at a level 0–3 (low, moderate, high, very-high).
    Denoise {
        /// The suppression's level.
        level: u8,
    },
    /// webrtcdsp's echo canceller against the far end (the second input) at a suppression level
    /// 0–2 (low, moderate, high).
    EchoCancel {
        /// The residual echo suppressor's level.
        level: u8,
    },
    /// webrtcdsp's automatic gain control, then the whole brought to a loudness.
    Gain {
        /// The loudness the result is brought to, LUFS (−30 to −10).
        target_lufs: f64,
    },
}

/// The noise suppression's levels, as webrtcdsp names them.
pub const DENOISE_LEVELS: [&str; 4] = ["low", "moderate", "high", "very-high"];
/// The echo suppressor's levels, as webrtcdsp names them.
pub const ECHO_LEVELS: [&str; 3] = ["low", "moderate", "high"];
/// The gain control's loudness: least, most, default (LUFS).
pub const TARGET_LUFS: (f64, f64, f64) = (-30.0, -10.0, -16.0);

/// An audio filter's run: the filter, the sound's format, and whether a video input also comes back
/// as a video with its cleaned sound.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct AudioClean {
    /// The filter.
    pub filter: Filter,
    /// A 16-bit WAV rather than AAC in `.m4a`.
    pub wav: bool,
    /// For a video input: a second output, the video with the cleaned sound.
    pub video: bool,
}

/// The object of the parameters, refusing keys the run does not know.
fn fields<'a>(value: &'a Value, known: &[&str]) -> Result<&'a Map<String, Value>, ParamError> {
    let map = value.as_object().ok_or_else(|| ParamError::new("params", "must be an object"))?;
    if let Some(k) = map.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(ParamError::new(format!("params.{k}"), format!("unknown parameter; expected one of {}", known.join(", "))));
    }
    Ok(map)
}

/// The position of the word `key` among `words`, or of `default` when it is absent.
fn word_at(map: &Map<String, Value>, key: &str, words: &[&str], default: &str) -> Result<usize, ParamError> {
    let w = match map.get(key).filter(|v| !v.is_null()) {
        None => default,
        Some(v) => v.as_str().unwrap_or_default(),
    };
    words.iter().position(|x| *x == w).ok_or_else(|| ParamError::new(format!("params.{key}"), format!("must be one of {}", words.join(", "))))
}

/// The boolean `key`, or `default` when it is absent.
fn flag(map: &Map<String, Value>, key: &str, default: bool) -> Result<bool, ParamError> {
    match map.get(key).filter(|v| !v.is_null()) {
        None => Ok(default),
        Some(v) => v.as_bool().ok_or_else(|| ParamError::new(format!("params.{key}"), "must be true or false")),
    }
}

impl Covers {
    /// Reads `{count?: 1–10 (default 3), format?: "jpeg" | "png"}`.
    pub fn parse(value: &Value) -> Result<Self, ParamError> {
        let map = fields(value, &["count", "format"])?;
        let count = match map.get("count").filter(|v| !v.is_null()) {
            None => DEFAULT_COVERS,
            Some(v) => {
                let n = v.as_u64().ok_or_else(|| ParamError::new("params.count", "must be a whole number"))?;
                if !(1..=u64::from(MAX_COVERS)).contains(&n) {
                    return Err(ParamError::new("params.count", format!("must be between 1 and {MAX_COVERS}")));
                }
                n as u32
            }
        };
        let png = word_at(map, "format", &["jpeg", "png"], "jpeg")? == 1;
        Ok(Self { count, png })
    }

    /// The parameters as the contract writes them.
    pub fn to_json(&self) -> Value {
        serde_json::json!({"count": self.count, "format": if self.png { "png" } else { "jpeg" }})
    }
}

impl AudioClean {
    /// Reads an AUDIO_DENOISE's `{level?: "low" | "moderate" | "high" | "very-high" (default high),
    /// format?: "m4a" | "wav", video?: bool}`.
    pub fn denoise(value: &Value) -> Result<Self, ParamError> {
        let map = fields(value, &["level", "format", "video"])?;
        let level = word_at(map, "level", &DENOISE_LEVELS, "high")? as u8;
        Self::finish(map, Filter::Denoise { level })
    }

    /// Reads an AUDIO_ECHO_CANCEL's `{level?: "low" | "moderate" | "high" (default moderate), format?, video?}`.
    pub fn echo_cancel(value: &Value) -> Result<Self, ParamError> {
        let map = fields(value, &["level", "format", "video"])?;
        let level = word_at(map, "level", &ECHO_LEVELS, "moderate")? as u8;
        Self::finish(map, Filter::EchoCancel { level })
    }

    /// Reads an AUDIO_GAIN_CONTROL's `{targetLufs?: −30 to −10 (default −16), format?, video?}`.
    pub fn gain(value: &Value) -> Result<Self, ParamError> {
        let map = fields(value, &["targetLufs", "format", "video"])?;
        let target_lufs = match map.get("targetLufs").filter(|v| !v.is_null()) {
            None => TARGET_LUFS.2,
            Some(v) => v.as_f64().ok_or_else(|| ParamError::new("params.targetLufs", "must be a number"))?,
        };
        if !(TARGET_LUFS.0..=TARGET_LUFS.1).contains(&target_lufs) {
            return Err(ParamError::new("params.targetLufs", format!("must be between {} and {}", TARGET_LUFS.0, TARGET_LUFS.1)));
        }
        Self::finish(map, Filter::Gain { target_lufs })
    }

    fn finish(map: &Map<String, Value>, filter: Filter) -> Result<Self, ParamError> {
        let wav = word_at(map, "format", &["m4a", "wav"], "m4a")? == 1;
        Ok(Self { filter, wav, video: flag(map, "video", true)? })
    }

    /// The parameters as the contract writes them.
    pub fn to_json(&self) -> Value {
        let mut v = serde_json::json!({"format": if self.wav { "wav" } else { "m4a" }, "video": self.video});
        match self.filter {
            Filter::Denoise { level } => v["level"] = DENOISE_LEVELS[usize::from(level)].into(),
            Filter::EchoCancel { level } => v["level"] = ECHO_LEVELS[usize::from(level)].into(),
            Filter::Gain { target_lufs } => v["targetLufs"] = target_lufs.into(),
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn refused(r: Result<impl std::fmt::Debug, ParamError>) -> String {
        r.err().map(|e| e.field).unwrap_or_default()
    }

    #[test]
    fn each_refusal_names_its_field_and_the_defaults_round_trip() -> Result<(), ParamError> {
        assert_eq!(refused(Covers::parse(&json!({"count": 0}))), "params.count");
        assert_eq!(refused(Covers::parse(&json!({"count": 11}))), "params.count");
        assert_eq!(refused(Covers::parse(&json!({"format": "gif"}))), "params.format");
        assert_eq!(refused(Covers::parse(&json!({"size": 1}))), "params.size");
        assert_eq!(refused(AudioClean::denoise(&json!({"level": "extreme"}))), "params.level");
        assert_eq!(refused(AudioClean::echo_cancel(&json!({"level": "very-high"}))), "params.level");
        assert_eq!(refused(AudioClean::gain(&json!({"targetLufs": -5}))), "params.targetLufs");
        assert_eq!(refused(AudioClean::gain(&json!({"level": "high"}))), "params.level");
        assert_eq!(refused(AudioClean::denoise(&json!({"video": "yes"}))), "params.video");
        assert_eq!(refused(AudioClean::denoise(&json!({"format": "mp3"}))), "params.format");
        let covers = Covers::parse(&json!({}))?;
        assert_eq!(covers, Covers { count: DEFAULT_COVERS, png: false });
        assert_eq!(Covers::parse(&covers.to_json())?, covers);
        let clean = AudioClean::denoise(&json!({}))?;
        assert_eq!(clean, AudioClean { filter: Filter::Denoise { level: 2 }, wav: false, video: true });
        assert_eq!(AudioClean::denoise(&clean.to_json())?, clean);
        let gain = AudioClean::gain(&json!({"targetLufs": -20, "format": "wav", "video": false}))?;
        assert_eq!(gain, AudioClean { filter: Filter::Gain { target_lufs: -20.0 }, wav: true, video: false });
        assert_eq!(AudioClean::gain(&gain.to_json())?, gain);
        Ok(())
    }
}
