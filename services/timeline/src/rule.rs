//! The rule: the whole document, saved as the task's `taskInfo` JSON (editor-core §3).

use crate::arrange::ActionArrange;
use crate::audio::{AudioFade, AudioItem, Loudness};
use crate::layer::Extra;
use crate::lenient;
use crate::scene::Scene;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// What kind of document a rule is.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "SCREAMING_SNAKE_CASE")]
#[ts(export_to = "RuleType.ts", rename_all = "SCREAMING_SNAKE_CASE")]
pub enum RuleType {
    /// An ordinary edit.
    #[default]
    VideoEdit,
    /// A dynamic-word template.
    DynamicWord,
    /// An interactive voice response video.
    Ivvr,
}

/// The output frame: a named ratio, its editing size and the size it is rendered at.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "ResolutionRatio.ts", rename_all = "camelCase")]
pub struct ResolutionRatio {
    /// "16:9", "4:3", "1:1", "9:16" or a custom name.
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// Editing width in pixels; layer coordinates are in this space.
    #[serde(deserialize_with = "lenient::f64")]
    pub width: f64,
    /// Editing height in pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub height: f64,
    /// Width divided by height.
    #[serde(deserialize_with = "lenient::f64")]
    pub ratio: f64,
    /// Size category (41, 42, 50, 51, or -1 for custom).
    #[serde(deserialize_with = "lenient::i64")]
    pub size_id: i64,
    /// Output width in pixels; the output height keeps the editing ratio.
    #[serde(deserialize_with = "lenient::f64")]
    pub target_width: f64,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for ResolutionRatio {
    fn default() -> Self {
        // Spec §3: default 16:9 at 848×480, size 41, rendered at 1280 wide.
        Self {
            name: "16:9".to_owned(),
            width: 848.0,
            height: 480.0,
            ratio: 16.0 / 9.0,
            size_id: 41,
            target_width: 1280.0,
            extra: Extra::new(),
        }
    }
}

impl ResolutionRatio {
    /// Returns the output size in pixels, both even (H.264 needs even dimensions).
    pub fn target_size(&self) -> (u32, u32) {
        let (w, h) = (self.width, self.height);
        if !(w > 0.0 && h > 0.0 && w.is_finite() && h.is_finite()) {
            return (1280, 720);
        }
        let tw = if self.target_width > 0.0 && self.target_width.is_finite() {
            self.target_width
        } else {
            w
        };
        let th = tw * h / w;
        // Clamped to 8K so a hostile document cannot ask for a gigantic frame.
        let even = |v: f64| ((v / 2.0).round().clamp(1.0, 4096.0) as u32) * 2;
        (even(tw), even(th))
    }

    /// Returns the scale from editing pixels to output pixels.
    pub fn target_scale(&self) -> f64 {
        let (tw, _) = self.target_size();
        if self.width > 0.0 && self.width.is_finite() {
            f64::from(tw) / self.width
        } else {
            1.0
        }
    }
}

/// The document (`taskInfo`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "Rule.ts", rename_all = "camelCase")]
pub struct Rule {
    /// Document version, 1.
    #[serde(deserialize_with = "lenient::i64")]
    pub version: i64,
    /// Render version, 2.
    #[serde(deserialize_with = "lenient::i64")]
    pub render_version: i64,
    /// The kind of document.
    pub rule_type: RuleType,
    /// Encoder quality setting as stored (default 30); see `catalogue::quality` for levels.
    #[serde(deserialize_with = "lenient::i64")]
    pub video_quality: i64,
    /// Stored frame-rate setting (default 80); see `time::FrameRate::for_rule`.
    #[serde(deserialize_with = "lenient::i64")]
    pub frame_rate: i64,
    /// Fade of the whole mix.
    pub audio_fade: AudioFade,
    /// Loudness of the whole mix.
    pub loudness: Loudness,
    /// The scenes, in order (a layer's open end closed at its scene's end).
    #[serde(deserialize_with = "crate::scene::scenes_closed")]
    pub scenes: Vec<Scene>,
    /// The frame.
    pub resolution_ratio: ResolutionRatio,
    /// The platform's per-scene arrangement (video rule form).
    pub action_arrange: Vec<ActionArrange>,
    /// Music over the whole document.
    pub audio: Vec<AudioItem>,
    /// Filter key over the whole document, or "".
    #[serde(deserialize_with = "lenient::string")]
    pub visual_filter: String,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for Rule {
    fn default() -> Self {
        Self {
            version: 1,
            render_version: 2,
            rule_type: RuleType::VideoEdit,
            video_quality: 30,
            frame_rate: 80,
            audio_fade: AudioFade::default(),
            loudness: Loudness::default(),
            scenes: Vec::new(),
            resolution_ratio: ResolutionRatio::default(),
            action_arrange: Vec::new(),
            audio: Vec::new(),
            visual_filter: String::new(),
            extra: Extra::new(),
        }
    }
}

impl Rule {
    /// Returns the placeholder a bad video rule becomes (platform §5): defaults, size 41, one blank scene.
    pub fn placeholder() -> Self {
        Self {
            scenes: vec![Scene::default()],
            ..Self::default()
        }
    }

    /// Returns the document length in seconds: the sum of the scene lengths.
    pub fn duration(&self) -> f64 {
        self.scenes.iter().map(|s| s.time_length.max(0.0)).sum()
    }
}
