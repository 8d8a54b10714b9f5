//! The task that owns a rule, and the IVVR info it may carry (editor-core §3, platform §3).

use crate::id::Id;
use crate::layer::Extra;
use crate::lenient;
use serde::de::Deserializer;
use serde::{Deserialize, Serialize};
use serde_json::Value;
use ts_rs::TS;

/// One IVVR entry: a picture and a video.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "IvvrItem.ts")]
pub struct IvvrItem {
    /// Picture path.
    #[serde(deserialize_with = "lenient::string")]
    pub pic: String,
    /// Video path.
    #[serde(deserialize_with = "lenient::string")]
    pub video: String,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// Returns the IVVR list a JSON text holds; anything unreadable gives an empty list (platform §5).
pub fn parse_ivvr_info(text: &str) -> Vec<IvvrItem> {
    if text.len() > crate::validate::MAX_DOCUMENT_BYTES {
        return Vec::new();
    }
    serde_json::from_str::<Value>(text)
        .map(ivvr_from_value)
        .unwrap_or_default()
}

/// Reads an IVVR list from a value that is an array or a JSON string holding one; else empty.
fn ivvr_from_value(v: Value) -> Vec<IvvrItem> {
    match v {
        Value::String(s) => parse_ivvr_info(&s),
        Value::Array(_) => serde_json::from_value(v).unwrap_or_default(),
        _ => Vec::new(),
    }
}

/// Deserialises `ivvrInfo` leniently: an array, a JSON string, or anything else as empty.
fn lenient_ivvr<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<IvvrItem>, D::Error> {
    Value::deserialize(d).map(ivvr_from_value)
}

/// A back address for platform hand-offs.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "IvvrPlatformInfo.ts", rename_all = "camelCase")]
pub struct IvvrPlatformInfo {
    /// Where to go when finished.
    #[serde(deserialize_with = "lenient::string")]
    pub back_url: String,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// A task as the editor holds it (the rule itself travels as `taskInfo`).
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "Task.ts", rename_all = "camelCase")]
pub struct Task {
    /// Task id, -1 when new.
    pub id: Id,
    /// Template the task was made from, -1 for a diy task.
    pub ref_task_id: Id,
    /// TASK or a dynamic-word template.
    #[serde(rename = "type", deserialize_with = "lenient::string")]
    #[ts(rename = "type")]
    pub kind: String,
    /// Owner.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub use_id: Option<Id>,
    /// Size category (default 41).
    #[serde(deserialize_with = "lenient::i64")]
    pub size_id: i64,
    /// Industry category.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub industry_id: Option<Id>,
    /// Tag category.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub tag_category_id: Option<Id>,
    /// Status code (starts new, -1).
    #[serde(deserialize_with = "lenient::i64")]
    pub status: i64,
    /// Replaceable video count.
    #[serde(deserialize_with = "lenient::i64")]
    pub replace_video: i64,
    /// Replaceable picture count.
    #[serde(deserialize_with = "lenient::i64")]
    pub replace_picture: i64,
    /// Replaceable word count.
    #[serde(deserialize_with = "lenient::i64")]
    pub replace_word: i64,
    /// TASK_TEMPLATE, BUSINESS_CARD_TEMPLATE, IVVR …
    #[serde(deserialize_with = "lenient::string")]
    pub used_for: String,
    /// Length of the video layers, seconds.
    #[serde(deserialize_with = "lenient::f64")]
    pub video_layer_time_length: f64,
    /// IVVR entries; unreadable input gives an empty list.
    #[serde(deserialize_with = "lenient_ivvr")]
    pub ivvr_info: Vec<IvvrItem>,
    /// Hand-off information.
    pub ivvr_platform_info: IvvrPlatformInfo,
    /// Task name (default 未命名).
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// Recently used colours (at most 14).
    pub recent_colors: Vec<String>,
    /// Unknown fields (the waiting modal and save status live in the editor store).
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// Default task name: 未命名 (unnamed).
pub const DEFAULT_TASK_NAME: &str = "未命名";

impl Default for Task {
    fn default() -> Self {
        Self {
            id: Id::Num(-1),
            ref_task_id: Id::Num(-1),
            kind: "TASK".to_owned(),
            use_id: None,
            size_id: 41,
            industry_id: None,
            tag_category_id: None,
            status: i64::from(crate::catalogue::codes::TaskStatus::New.code()),
            replace_video: 0,
            replace_picture: 0,
            replace_word: 0,
            used_for: String::new(),
            video_layer_time_length: 0.0,
            ivvr_info: Vec::new(),
            ivvr_platform_info: IvvrPlatformInfo::default(),
            name: DEFAULT_TASK_NAME.to_owned(),
            recent_colors: Vec::new(),
            extra: Extra::new(),
        }
    }
}

impl Task {
    /// Returns whether the task is new (id and refTaskId both -1).
    pub fn is_new(&self) -> bool {
        self.id == Id::Num(-1) && self.ref_task_id == Id::Num(-1)
    }

    /// Returns whether the task is a diy task (refTaskId -1).
    pub fn is_diy(&self) -> bool {
        self.ref_task_id == Id::Num(-1)
    }
}
