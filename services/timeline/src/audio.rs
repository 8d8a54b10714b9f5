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
            extra: Extra::new(),
        }
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
