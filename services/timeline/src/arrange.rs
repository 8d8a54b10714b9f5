//! The platform's video-rule form of a scene: `actionArrange` with attached materials (platform §3).

use crate::id::Id;
use crate::layer::Extra;
use crate::lenient;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// A time span in seconds.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "TimeBetween.ts")]
pub struct TimeBetween {
    /// Start, seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub from: f64,
    /// End, seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub to: f64,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// Where an attached material sits and how it moves in and out.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "AttachPosition.ts", rename_all = "camelCase")]
pub struct AttachPosition {
    /// Left, editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub left: f64,
    /// Top, editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub top: f64,
    /// In-animation name.
    #[serde(deserialize_with = "lenient::string")]
    pub motion_in: String,
    /// Out-animation name.
    #[serde(deserialize_with = "lenient::string")]
    pub motion_out: String,
    /// Opacity at the start of the in-animation (kept as written).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "unknown", optional)]
    pub opacity_in: Value,
    /// Opacity at the end of the out-animation (kept as written).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "unknown", optional)]
    pub opacity_out: Value,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// An attached material of the video-rule form.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "AttachMaterial.ts", rename_all = "camelCase")]
pub struct AttachMaterial {
    /// 1 when a template user may replace it.
    #[serde(deserialize_with = "lenient::i64")]
    pub can_modify: i64,
    /// Stacking order.
    #[serde(deserialize_with = "lenient::i64")]
    pub z: i64,
    /// Span relative to the scene start.
    pub relative_time_between: TimeBetween,
    /// Position and motions.
    pub position: AttachPosition,
    /// Rotation, degrees.
    #[serde(deserialize_with = "lenient::f64")]
    pub rotate: f64,
    /// Material id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub material_id: Option<Id>,
    /// word, artWord, picture, gif, video, shape …
    #[serde(deserialize_with = "lenient::string")]
    pub material_type: String,
    /// Size as 'WxH' or an object (kept as written).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "unknown", optional)]
    pub size: Value,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// The action of an arranged scene.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "SceneAction.ts", rename_all = "camelCase")]
pub struct SceneAction {
    /// The attached materials.
    pub attach_material: Vec<AttachMaterial>,
    /// Unknown fields (the in/out visual effects, kept as written).
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// One scene of the video-rule form.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "ActionArrange.ts", rename_all = "camelCase")]
pub struct ActionArrange {
    /// Background material id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub material_id: Option<Id>,
    /// Always "canvas".
    #[serde(deserialize_with = "lenient::string")]
    pub material_type: String,
    /// Background colour `#rrggbb`.
    #[serde(deserialize_with = "lenient::string")]
    pub back_ground_color: String,
    /// Span of the scene on the document timeline.
    pub time_between: TimeBetween,
    /// What happens in the scene.
    pub action: SceneAction,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for ActionArrange {
    fn default() -> Self {
        Self {
            material_id: None,
            material_type: "canvas".to_owned(),
            back_ground_color: "#000000".to_owned(),
            time_between: TimeBetween::default(),
            action: SceneAction::default(),
            extra: Extra::new(),
        }
    }
}
