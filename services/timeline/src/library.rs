//! Materials, fonts, categories and favourites as the platform lists them (platform §3).

use crate::id::Id;
use crate::layer::Extra;
use crate::lenient;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// A material in the library.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "Material.ts", rename_all = "camelCase")]
pub struct Material {
    /// Material id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<Id>,
    /// Material uuid.
    #[serde(deserialize_with = "lenient::string")]
    pub uuid: String,
    /// picture, gif, shape, materialGroup, video, audio, specialEffects, artWord, backgrounds or dynamicWord.
    #[serde(rename = "type", deserialize_with = "lenient::string")]
    #[ts(rename = "type")]
    pub kind: String,
    /// Storage path.
    #[serde(deserialize_with = "lenient::string")]
    pub relative_path: String,
    /// Preview picture path.
    #[serde(deserialize_with = "lenient::string")]
    pub picture_path: String,
    /// Length in seconds (video, audio).
    #[serde(deserialize_with = "lenient::f64")]
    pub time_length: f64,
    /// Pixel size as 'WxH'.
    #[serde(deserialize_with = "lenient::string")]
    pub size: String,
    /// Display name.
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// Creation date as written.
    #[serde(deserialize_with = "lenient::string")]
    pub create_date: String,
    /// 1 means usable.
    #[serde(deserialize_with = "lenient::i64")]
    pub material_state: i64,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Material {
    /// Returns the pixel size parsed from 'WxH', if it is one.
    pub fn pixel_size(&self) -> Option<(u32, u32)> {
        let (w, h) = self.size.split_once(['x', 'X', '*'])?;
        Some((w.trim().parse().ok()?, h.trim().parse().ok()?))
    }
}

/// A font.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "Font.ts", rename_all = "camelCase")]
pub struct Font {
    /// Font id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<Id>,
    /// Font family name.
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// Chinese display name.
    #[serde(rename = "nameCN", deserialize_with = "lenient::string")]
    #[ts(rename = "nameCN")]
    pub name_cn: String,
    /// Storage path.
    #[serde(deserialize_with = "lenient::string")]
    pub relative_path: String,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// A category option as the pickers show it.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "CategoryOption.ts")]
pub struct CategoryOption {
    /// Category id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub value: Option<Id>,
    /// Display label.
    #[serde(deserialize_with = "lenient::string")]
    pub label: String,
    /// Second-level entries.
    pub children: Vec<CategoryOption>,
    /// industry, use, size or IVVR.
    #[serde(deserialize_with = "lenient::string")]
    pub dimension: String,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// A favourite.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "Favourite.ts", rename_all = "camelCase")]
pub struct Favourite {
    /// Favourited item id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<Id>,
    /// Item type.
    #[serde(rename = "type", deserialize_with = "lenient::string")]
    #[ts(rename = "type")]
    pub kind: String,
    /// The user's phone number.
    #[serde(deserialize_with = "lenient::string")]
    pub phone_number: String,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}
