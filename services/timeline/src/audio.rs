//! Audio items: music, voice-over and video sound (editor-core §3).

use crate::id::Id;
use crate::layer::Extra;
use crate::lenient;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// An audio item. `start`/`end` cut the source (seconds in the source); `startTime`/`endTime`
/// place it on the document timeline (seconds from the document start).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "AudioItem.ts", rename_all = "camelCase")]
pub struct AudioItem {
    /// Material id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<Id>,
    /// audio, voice or video.
    #[serde(rename = "type", deserialize_with = "lenient::string")]
    #[ts(rename = "type")]
    pub kind: String,
    /// Display name.
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// Audio path.
    #[serde(deserialize_with = "lenient::string")]
    pub src: String,
    /// Cut start in the source, seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub start: f64,
    /// Cut end in the source, seconds (0: to the end of the source).
    #[serde(deserialize_with = "lenient::f64")]
    pub end: f64,
    /// Scope (kept as written).
    #[serde(deserialize_with = "lenient::string")]
    pub scope: String,
    /// Source length, seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub len: f64,
    /// Placement start on the timeline, seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub start_time: f64,
    /// Placement end on the timeline, seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub end_time: f64,
    /// Volume slider 0..=200 (see `volume`).
    #[serde(deserialize_with = "lenient::f64")]
    pub volume: f64,
    /// The source's measured loudness in dB (default −30).
    #[serde(deserialize_with = "lenient::f64")]
    pub original_volume: f64,
    /// Loops to fill its placement.
    #[serde(deserialize_with = "lenient::flag")]
    pub is_loop: bool,
    /// Fade-in length, seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub fade_in_time: f64,
    /// Fade-out length, seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub fade_out_time: f64,
    /// Status (kept as written).
    #[serde(deserialize_with = "lenient::i64")]
    pub status: i64,
    /// Music only: lowered while a voice-over or dubbing plays (see [`DUCK_ATTACK_S`]).
    #[serde(deserialize_with = "lenient::flag")]
    pub duck: bool,
    /// How far the music is lowered under a voice, dB (0..=[`DUCK_DEPTH_MAX_DB`]).
    #[serde(deserialize_with = "lenient::f64")]
    pub duck_depth: f64,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for AudioItem {
    fn default() -> Self {
        Self {
            id: None,
            kind: "audio".to_owned(),
            name: String::new(),
            src: String::new(),
            start: 0.0,
            end: 0.0,
            scope: String::new(),
            len: 0.0,
            start_time: 0.0,
            end_time: 0.0,
            volume: crate::volume::DEFAULT_SLIDER,
            original_volume: crate::volume::ORIGINAL_DB,
            is_loop: false,
            fade_in_time: 0.0,
            fade_out_time: 0.0,
            status: 0,
            duck: true,
            duck_depth: DUCK_DEPTH_DB,
            extra: Extra::new(),
        }
    }
}

/// The default ducking depth, dB: a voice over music stays clearly in front (broadcast practice
/// lowers music 10–15 dB under speech).
pub const DUCK_DEPTH_DB: f64 = 12.0;
/// The deepest ducking a document may ask for, dB.
pub const DUCK_DEPTH_MAX_DB: f64 = 40.0;
/// The music starts going down this long before a voice starts, seconds.
pub const DUCK_ATTACK_S: f64 = 0.2;
/// … and is back this long after the voice ends, seconds; a gap shorter than attack and release
/// together keeps it down.
pub const DUCK_RELEASE_S: f64 = 0.5;

impl AudioItem {
    /// Whether the item is a voice (voice-over or dubbing) that music ducks under.
    pub fn is_voice(&self) -> bool {
        self.kind == "voice"
    }
}

/// The whole mix brought to a loudness (EBU R128 integrated loudness), measured in the render.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "Loudness.ts", rename_all = "camelCase")]
pub struct Loudness {
    /// On (the default) or off (the mix is left at the level its items' volumes give).
    #[serde(deserialize_with = "lenient::flag")]
    pub status: bool,
    /// The target, LUFS (−16 by default, the common target of phone and web playback).
    #[serde(deserialize_with = "lenient::f64")]
    pub target: f64,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// The default loudness target, LUFS.
pub const LOUDNESS_TARGET_LUFS: f64 = -16.0;
/// The loudness targets a document may ask for, LUFS.
pub const LOUDNESS_TARGETS: std::ops::RangeInclusive<f64> = -40.0..=-5.0;

/// The audio constants the editor shows and writes (exported in the catalogue).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "AudioRules.ts", rename_all = "camelCase")]
pub struct AudioRules {
    /// [`DUCK_DEPTH_DB`].
    pub duck_depth_db: f64,
    /// [`DUCK_DEPTH_MAX_DB`].
    pub duck_depth_max_db: f64,
    /// [`DUCK_ATTACK_S`].
    pub duck_attack_s: f64,
    /// [`DUCK_RELEASE_S`].
    pub duck_release_s: f64,
    /// [`LOUDNESS_TARGET_LUFS`].
    pub loudness_target_lufs: f64,
    /// The lowest target of [`LOUDNESS_TARGETS`].
    pub loudness_target_min: f64,
    /// The highest target of [`LOUDNESS_TARGETS`].
    pub loudness_target_max: f64,
}

/// The audio constants as one value.
pub const AUDIO_RULES: AudioRules = AudioRules {
    duck_depth_db: DUCK_DEPTH_DB,
    duck_depth_max_db: DUCK_DEPTH_MAX_DB,
    duck_attack_s: DUCK_ATTACK_S,
    duck_release_s: DUCK_RELEASE_S,
    loudness_target_lufs: LOUDNESS_TARGET_LUFS,
    loudness_target_min: *LOUDNESS_TARGETS.start(),
    loudness_target_max: *LOUDNESS_TARGETS.end(),
};

impl Default for Loudness {
    fn default() -> Self {
        Self { status: true, target: LOUDNESS_TARGET_LUFS, extra: Extra::new() }
    }
}

/// The rule-wide audio fade (spec §9: default off, 0/0).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "AudioFade.ts", rename_all = "camelCase")]
pub struct AudioFade {
    /// On or off (the browser may send "on"/"off", 1/0 or a boolean).
    #[serde(deserialize_with = "lenient::flag")]
    pub status: bool,
    /// Fade-in at the document start, seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub in_time: f64,
    /// Fade-out at the document end, seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub out_time: f64,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}
