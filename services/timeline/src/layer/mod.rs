//! Layers (attaches): an enum over the JSON `type` with each kind's fields; unknown kinds are kept.

mod art_border;
mod common;
mod kinds;

pub use art_border::{ArtBorder, DEFAULT_BORDER_WIDTH};
pub use common::LayerCommon;
pub use kinds::{
    ArtWordLayer, Extra, GroupLayer, PictureLayer, Replace, ShapeLayer, SpecialEffectLayer,
    TemplateLayer, TextFields, TextLayer, VideoLayer, reversed_file_of, reversed_on_the_fly,
};

use serde::de::{Deserializer, Error as _};
use serde::{Deserialize, Serialize, Serializer};
use serde_json::{Map, Value};
use ts_rs::TS;

/// A layer of a scene, tagged by its JSON `type`.
// Layers are built once per parse and read many times; boxing each kind would only add indirection.
#[allow(clippy::large_enum_variant)]
#[derive(Debug, Clone, PartialEq, TS)]
#[ts(export_to = "Layer.ts", tag = "type")]
pub enum Layer {
    /// `picture`: a still picture.
    #[ts(rename = "picture")]
    Picture(PictureLayer),
    /// `gif`: an animated picture.
    #[ts(rename = "gif")]
    Gif(PictureLayer),
    /// `video`: a video clip.
    #[ts(rename = "video")]
    Video(VideoLayer),
    /// `word`: text.
    #[ts(rename = "word")]
    Word(TextLayer),
    /// `dynamicWord`: text with a dynamic effect.
    #[ts(rename = "dynamicWord")]
    DynamicWord(TextLayer),
    /// `artWord`: an art word.
    #[ts(rename = "artWord")]
    ArtWord(ArtWordLayer),
    /// `shape`: a vector shape.
    #[ts(rename = "shape")]
    Shape(ShapeLayer),
    /// `template`: a template with replaceable items.
    #[ts(rename = "template")]
    Template(TemplateLayer),
    /// `group`: two or more layers moved together.
    #[ts(rename = "group")]
    Group(GroupLayer),
    /// `specialEffects`: an overlay effect.
    #[ts(rename = "specialEffects")]
    SpecialEffect(SpecialEffectLayer),
    /// Any other `type`, kept verbatim; validation reports it ('backend returned wrong attach layer type').
    #[ts(skip)]
    Unknown(Map<String, Value>),
}

/// The known layer `type` strings.
pub const LAYER_TYPES: [&str; 10] = [
    "picture",
    "gif",
    "video",
    "word",
    "dynamicWord",
    "artWord",
    "shape",
    "template",
    "group",
    "specialEffects",
];

impl Layer {
    /// Returns the JSON `type` of the layer.
    pub fn type_name(&self) -> &str {
        match self {
            Layer::Picture(_) => "picture",
            Layer::Gif(_) => "gif",
            Layer::Video(_) => "video",
            Layer::Word(_) => "word",
            Layer::DynamicWord(_) => "dynamicWord",
            Layer::ArtWord(_) => "artWord",
            Layer::Shape(_) => "shape",
            Layer::Template(_) => "template",
            Layer::Group(_) => "group",
            Layer::SpecialEffect(_) => "specialEffects",
            Layer::Unknown(m) => m.get("type").and_then(Value::as_str).unwrap_or(""),
        }
    }

    /// Returns the common fields, or `None` for an unknown kind.
    pub fn common(&self) -> Option<&LayerCommon> {
        Some(match self {
            Layer::Picture(l) | Layer::Gif(l) => &l.common,
            Layer::Video(l) => &l.common,
            Layer::Word(l) | Layer::DynamicWord(l) => &l.common,
            Layer::ArtWord(l) => &l.common,
            Layer::Shape(l) => &l.common,
            Layer::Template(l) => &l.common,
            Layer::Group(l) => &l.common,
            Layer::SpecialEffect(l) => &l.common,
            Layer::Unknown(_) => return None,
        })
    }

    /// Returns the common fields mutably, or `None` for an unknown kind.
    pub fn common_mut(&mut self) -> Option<&mut LayerCommon> {
        Some(match self {
            Layer::Picture(l) | Layer::Gif(l) => &mut l.common,
            Layer::Video(l) => &mut l.common,
            Layer::Word(l) | Layer::DynamicWord(l) => &mut l.common,
            Layer::ArtWord(l) => &mut l.common,
            Layer::Shape(l) => &mut l.common,
            Layer::Template(l) => &mut l.common,
            Layer::Group(l) => &mut l.common,
            Layer::SpecialEffect(l) => &mut l.common,
            Layer::Unknown(_) => return None,
        })
    }

    /// Returns the text fields of a text or art-word layer.
    pub fn text(&self) -> Option<&TextFields> {
        match self {
            Layer::Word(l) | Layer::DynamicWord(l) => Some(&l.text),
            Layer::ArtWord(l) => Some(&l.text),
            _ => None,
        }
    }
}

impl<'de> Deserialize<'de> for Layer {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        let mut map = Map::<String, Value>::deserialize(d)?;
        let kind = match map.get("type") {
            Some(Value::String(s)) if LAYER_TYPES.contains(&s.as_str()) => s.clone(),
            _ => return Ok(Layer::Unknown(map)),
        };
        // shift_remove keeps the order of the remaining keys (remove would swap the last one in).
        map.shift_remove("type");
        let body = Value::Object(map);
        let layer = match kind.as_str() {
            "picture" => serde_json::from_value(body).map(Layer::Picture),
            "gif" => serde_json::from_value(body).map(Layer::Gif),
            "video" => serde_json::from_value(body).map(Layer::Video),
            "word" => serde_json::from_value(body).map(Layer::Word),
            "dynamicWord" => serde_json::from_value(body).map(Layer::DynamicWord),
            "artWord" => serde_json::from_value(body).map(Layer::ArtWord),
            "shape" => serde_json::from_value(body).map(Layer::Shape),
            "template" => serde_json::from_value(body).map(Layer::Template),
            "group" => serde_json::from_value(body).map(Layer::Group),
            _ => serde_json::from_value(body).map(Layer::SpecialEffect),
        };
        layer.map_err(|e| D::Error::custom(format!("layer of type {kind}: {e}")))
    }
}

/// Borrowed, tagged view used to serialise the known kinds with `type` first.
#[derive(Serialize)]
#[serde(tag = "type")]
enum Tagged<'a> {
    #[serde(rename = "picture")]
    Picture(&'a PictureLayer),
    #[serde(rename = "gif")]
    Gif(&'a PictureLayer),
    #[serde(rename = "video")]
    Video(&'a VideoLayer),
    #[serde(rename = "word")]
    Word(&'a TextLayer),
    #[serde(rename = "dynamicWord")]
    DynamicWord(&'a TextLayer),
    #[serde(rename = "artWord")]
    ArtWord(&'a ArtWordLayer),
    #[serde(rename = "shape")]
    Shape(&'a ShapeLayer),
    #[serde(rename = "template")]
    Template(&'a TemplateLayer),
    #[serde(rename = "group")]
    Group(&'a GroupLayer),
    #[serde(rename = "specialEffects")]
    SpecialEffect(&'a SpecialEffectLayer),
}

impl Serialize for Layer {
    fn serialize<S: Serializer>(&self, s: S) -> Result<S::Ok, S::Error> {
        match self {
            Layer::Picture(l) => Tagged::Picture(l).serialize(s),
            Layer::Gif(l) => Tagged::Gif(l).serialize(s),
            Layer::Video(l) => Tagged::Video(l).serialize(s),
            Layer::Word(l) => Tagged::Word(l).serialize(s),
            Layer::DynamicWord(l) => Tagged::DynamicWord(l).serialize(s),
            Layer::ArtWord(l) => Tagged::ArtWord(l).serialize(s),
            Layer::Shape(l) => Tagged::Shape(l).serialize(s),
            Layer::Template(l) => Tagged::Template(l).serialize(s),
            Layer::Group(l) => Tagged::Group(l).serialize(s),
            Layer::SpecialEffect(l) => Tagged::SpecialEffect(l).serialize(s),
            Layer::Unknown(m) => m.serialize(s),
        }
    }
}
