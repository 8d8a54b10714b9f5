//! The fields every layer (attach) carries, whatever its kind (editor-core §3).

use crate::id::Id;
use crate::lenient;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// Fields common to every layer kind. Times are seconds relative to the start of the layer's
/// scene; positions and sizes are in the editing-size coordinate space of the rule's
/// `resolutionRatio` (for example 640×360 for 16:9).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "LayerCommon.ts", rename_all = "camelCase")]
pub struct LayerCommon {
    /// The layer's id.
    pub id: Id,
    /// The material the layer shows.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub material_id: Option<Id>,
    /// The scene the layer belongs to.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub scene_id: Option<Id>,
    /// The group the layer belongs to, if any.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub group_id: Option<Id>,
    /// Start, seconds from the scene start.
    #[serde(deserialize_with = "lenient::f64")]
    pub start_time: f64,
    /// End, seconds from the scene start. `null` means the end of the layer's scene: a rule
    /// read whole holds that length here (an open end read alone is infinite, written as null).
    #[serde(deserialize_with = "lenient::end_time")]
    pub end_time: f64,
    /// Left edge in editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub x: f64,
    /// Top edge in editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub y: f64,
    /// Stacking order; higher is drawn later (minimum 100 for new layers).
    #[serde(deserialize_with = "lenient::i64")]
    pub z: i64,
    /// Width in editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub w: f64,
    /// Height in editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub h: f64,
    /// Rotation in degrees, clockwise, about the layer's centre.
    #[serde(deserialize_with = "lenient::f64")]
    pub rotate: f64,
    /// A continuous motion over the layer's whole span (`ZOOM_IN`, `ZOOM_OUT`, …; see
    /// `animation::motion_zoom`), or "" for none; unknown names are kept and do not move.
    #[serde(deserialize_with = "lenient::string")]
    pub motion: String,
    /// The in-animation name from the catalogue, or "" for none.
    #[serde(deserialize_with = "lenient::string")]
    pub motion_in: String,
    /// The out-animation name from the catalogue, or "" for none.
    #[serde(deserialize_with = "lenient::string")]
    pub motion_out: String,
    /// Length of the in-animation in seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub in_time: f64,
    /// Length of the out-animation in seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub out_time: f64,
    /// Retention mode (kept as written).
    #[serde(deserialize_with = "lenient::string")]
    pub retention: String,
    /// Retention time in seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub retention_time: f64,
    /// 1 when a template user may replace this layer (a slot).
    #[serde(deserialize_with = "lenient::i64")]
    pub can_modify: i64,
    /// Locked against editing.
    #[serde(deserialize_with = "lenient::flag")]
    pub is_lock: bool,
    /// Currently selected in the editor.
    #[serde(deserialize_with = "lenient::flag")]
    pub is_active: bool,
    /// Public material.
    #[serde(deserialize_with = "lenient::flag")]
    pub is_public: bool,
    /// The material's category.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub category_id: Option<Id>,
    /// Where the layer came from (kept as written; a video layer's must be a string path).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "unknown", optional)]
    pub source: Value,
}

impl Default for LayerCommon {
    fn default() -> Self {
        // Spec §9: default layer 200×130, 0 to 3 s, z 100; animation times default to 1 s.
        Self {
            id: Id::default(),
            material_id: None,
            scene_id: None,
            group_id: None,
            start_time: 0.0,
            end_time: 3.0,
            x: 0.0,
            y: 0.0,
            z: 100,
            w: 200.0,
            h: 130.0,
            rotate: 0.0,
            motion: String::new(),
            motion_in: String::new(),
            motion_out: String::new(),
            in_time: 1.0,
            out_time: 1.0,
            retention: String::new(),
            retention_time: 0.0,
            can_modify: 0,
            is_lock: false,
            is_active: false,
            is_public: false,
            category_id: None,
            source: Value::Null,
        }
    }
}
