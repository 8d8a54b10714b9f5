//! A scene: a background, its layers and the transition that leads out of it (editor-core §3).

use crate::audio::AudioItem;
use crate::id::Id;
use crate::layer::{Extra, Layer};
use crate::lenient;
use serde::{Deserialize, Deserializer, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// Default scene length in the rule defaults, seconds.
pub const DEFAULT_SCENE_LENGTH: f64 = 5.0;
/// Default length of a scene the editor adds, seconds (the spec gives both readings).
pub const EDITOR_NEW_SCENE_LENGTH: f64 = 3.0;
/// Minimum scene length, seconds.
pub const MIN_SCENE_LENGTH: f64 = 2.0;
/// Default transition length, seconds.
pub const DEFAULT_EFFECT_TIME: f64 = 1.0;

/// A scene. `effect` names the transition from this scene into the next one (the last
/// scene's `effect` is not played); it lasts `effectTime` seconds centred on the boundary.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "Scene.ts", rename_all = "camelCase")]
pub struct Scene {
    /// Background material id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<Id>,
    /// The editor's id for the scene.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub frontend_id: Option<Id>,
    /// Always "canvas".
    #[serde(rename = "type", deserialize_with = "lenient::string")]
    #[ts(rename = "type")]
    pub kind: String,
    /// Scene name.
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// Transition key into the next scene, or "" for a cut.
    #[serde(deserialize_with = "lenient::string")]
    pub effect: String,
    /// Transition length in seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub effect_time: f64,
    /// `[start, end]` of the background material in its source, seconds (kept as written).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "unknown", optional)]
    pub range: Value,
    /// Background colour `#rrggbb`.
    #[serde(deserialize_with = "lenient::string")]
    pub bg_color: String,
    /// Scene length in seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub time_length: f64,
    /// Filter key for the whole scene, or "".
    #[serde(deserialize_with = "lenient::string")]
    pub visual_filter: String,
    /// Blur of the whole canvas.
    #[serde(deserialize_with = "lenient::f64")]
    pub canvas_blur: f64,
    /// "" (fit) or "cover".
    #[serde(deserialize_with = "lenient::string")]
    pub bg_fit: String,
    /// Blur of the background.
    #[serde(deserialize_with = "lenient::f64")]
    pub bg_blur: f64,
    /// Scene music.
    pub audio: Vec<AudioItem>,
    /// Scene voice-over.
    pub voice: Vec<AudioItem>,
    /// Baked audio (kept as written).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "unknown", optional)]
    pub baked_audio: Value,
    /// Baked temporary audio (kept as written).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "unknown", optional)]
    pub baked_temp_audio: Value,
    /// Audio of the scene's video layers.
    pub video_audios: Vec<AudioItem>,
    /// The scene shown in the editor.
    #[serde(deserialize_with = "lenient::flag")]
    pub is_active: bool,
    /// The layers, in document order (draw order is by `z`).
    pub layers: Vec<Layer>,
    /// Unknown fields (including the in/out visual effects, kept as written).
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for Scene {
    fn default() -> Self {
        Self {
            id: None,
            frontend_id: None,
            kind: "canvas".to_owned(),
            name: String::new(),
            effect: String::new(),
            effect_time: DEFAULT_EFFECT_TIME,
            range: Value::Null,
            bg_color: "#000000".to_owned(),
            time_length: DEFAULT_SCENE_LENGTH,
            visual_filter: String::new(),
            canvas_blur: 0.0,
            bg_fit: String::new(),
            bg_blur: 0.0,
            audio: Vec::new(),
            voice: Vec::new(),
            baked_audio: Value::Null,
            baked_temp_audio: Value::Null,
            video_audios: Vec::new(),
            is_active: false,
            layers: Vec::new(),
            extra: Extra::new(),
        }
    }
}

impl Scene {
    /// Returns a blank scene as the editor adds it (3 s).
    pub fn editor_new() -> Self {
        Self {
            time_length: EDITOR_NEW_SCENE_LENGTH,
            ..Self::default()
        }
    }

    /// Ends every layer whose end is open (`endTime: null`, read as infinite) at the end of
    /// the scene, group members included: what a user who left the end empty expects.
    pub fn close_open_ends(&mut self) {
        fn close(layers: &mut [Layer], len: f64) {
            for l in layers {
                if let Some(c) = l.common_mut().filter(|c| c.end_time == f64::INFINITY) {
                    c.end_time = len;
                }
                if let Layer::Group(g) = l {
                    close(&mut g.attach_list, len);
                }
            }
        }
        close(&mut self.layers, self.time_length);
    }

    /// Lengthens the scene so a layer ending at `layer_end` fits (spec §4); returns whether it grew.
    pub fn extend_to_fit(&mut self, layer_end: f64) -> bool {
        let len = crate::layout::extended_scene_length(self.time_length, layer_end);
        let grew = len > self.time_length;
        self.time_length = len;
        grew
    }
}

/// Deserialises a rule's scenes, closing each one's open layer ends.
pub(crate) fn scenes_closed<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<Scene>, D::Error> {
    let mut scenes = Vec::<Scene>::deserialize(d)?;
    scenes.iter_mut().for_each(Scene::close_open_ends);
    Ok(scenes)
}
