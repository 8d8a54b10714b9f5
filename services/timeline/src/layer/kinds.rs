//! The fields each layer kind adds to [`LayerCommon`] (editor-core §3).

use super::Layer;
use super::common::LayerCommon;
use crate::id::Id;
use crate::lenient;
use serde::{Deserialize, Serialize};
use serde_json::{Map, Value};
use ts_rs::TS;

/// Fields unknown to this version, kept so a document saved by a newer client loses nothing.
pub type Extra = Map<String, Value>;

/// A still picture or a GIF.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "PictureLayer.ts", rename_all = "camelCase")]
pub struct PictureLayer {
    /// Common fields.
    #[serde(flatten)]
    pub common: LayerCommon,
    /// Picture path.
    #[serde(deserialize_with = "lenient::string")]
    pub src: String,
    /// Opacity 0..=1.
    #[serde(deserialize_with = "lenient::f64")]
    pub opacity: f64,
    /// Blur radius in editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub blur: f64,
    /// Blur of the mask edge in editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub mask_blur: f64,
    /// A filter key from the catalogue, or "".
    #[serde(deserialize_with = "lenient::string")]
    pub filter: String,
    /// Mirrored horizontally.
    #[serde(deserialize_with = "lenient::flag")]
    pub mirror: bool,
    /// Mask material id, -1 for none.
    #[serde(deserialize_with = "lenient::i64")]
    pub mask_clip: i64,
    /// Border width in editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub border_width: f64,
    /// Border colour `#rrggbb`, or "".
    #[serde(deserialize_with = "lenient::string")]
    pub border_color: String,
    /// Corner radius in editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub border_radius: f64,
    /// Being cropped in the editor.
    #[serde(deserialize_with = "lenient::flag")]
    pub is_cutting: bool,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for PictureLayer {
    fn default() -> Self {
        Self {
            common: LayerCommon::default(),
            src: String::new(),
            opacity: 1.0,
            blur: 0.0,
            mask_blur: 0.0,
            filter: String::new(),
            mirror: false,
            mask_clip: -1,
            border_width: 0.0,
            border_color: String::new(),
            border_radius: 0.0,
            is_cutting: false,
            extra: Extra::new(),
        }
    }
}

/// A video clip.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "VideoLayer.ts", rename_all = "camelCase")]
pub struct VideoLayer {
    /// Common fields.
    #[serde(flatten)]
    pub common: LayerCommon,
    /// Video path; must be a string (validation reports anything else).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "string", optional)]
    pub video_src: Value,
    /// How the clip is cut (kept as written).
    #[serde(deserialize_with = "lenient::string")]
    pub cut_by: String,
    /// The cut: an object with `start` and `end` seconds in the source (see [`VideoLayer::cut_range`]).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "unknown", optional)]
    pub cut_info: Value,
    /// Volume slider 0..=200.
    #[serde(deserialize_with = "lenient::f64")]
    pub volume: f64,
    /// The clip's own audio is muted.
    #[serde(deserialize_with = "lenient::flag")]
    pub no_audio: bool,
    /// Sharpen amount.
    #[serde(deserialize_with = "lenient::f64")]
    pub sharpen: f64,
    /// Brightness percent, 100 unchanged.
    #[serde(deserialize_with = "lenient::f64")]
    pub brightness: f64,
    /// Contrast percent, 100 unchanged.
    #[serde(deserialize_with = "lenient::f64")]
    pub contrast: f64,
    /// Saturation percent, 100 unchanged.
    #[serde(deserialize_with = "lenient::f64")]
    pub saturation: f64,
    /// Reverse playback (kept as written; truthy means reversed).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "unknown", optional)]
    pub reverse_by: Value,
    /// A WebM with an alpha channel.
    #[serde(deserialize_with = "lenient::flag")]
    pub is_transparent: bool,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for VideoLayer {
    fn default() -> Self {
        Self {
            common: LayerCommon::default(),
            video_src: Value::Null,
            cut_by: String::new(),
            cut_info: Value::Null,
            volume: crate::volume::DEFAULT_SLIDER,
            no_audio: false,
            sharpen: 0.0,
            brightness: 100.0,
            contrast: 100.0,
            saturation: 100.0,
            reverse_by: Value::Null,
            is_transparent: false,
            extra: Extra::new(),
        }
    }
}

impl VideoLayer {
    /// Returns the video path when `videoSrc` is a string (spec §5: anything else is an error).
    pub fn video_path(&self) -> Option<&str> {
        self.video_src.as_str()
    }

    /// Returns the cut `(start, end)` in source seconds when `cutInfo` holds one.
    pub fn cut_range(&self) -> Option<(f64, f64)> {
        let start = self.cut_info.get("start").map(value_number)?;
        let end = self.cut_info.get("end").map(value_number)?;
        Some((start, end))
    }

    /// Returns whether the renderer plays the clip backwards itself ([`reversed_on_the_fly`]).
    pub fn reversed(&self) -> bool {
        reversed_on_the_fly(&self.reverse_by)
    }
}

/// Whether `reverseBy` asks the renderer to play the clip backwards itself: a truthy scalar (`true`,
/// a non-zero number, a string other than "", "0" and "false"), as documents have always written
/// it. An object is the editor's record of a reversed file ([`reversed_file_of`]): the layer's
/// `videoSrc` is then already the video played backwards, which the renderer plays forwards, never
/// reversing it a second time (docs/toolbox.md, "The editor's media edits").
pub fn reversed_on_the_fly(reverse_by: &Value) -> bool {
    match reverse_by {
        Value::Bool(b) => *b,
        Value::Number(n) => n.as_f64().is_some_and(|v| v != 0.0),
        Value::String(s) => !s.is_empty() && s != "0" && s != "false",
        _ => false,
    }
}

/// The original material of a reversed file: `reverseBy` as `{"materialId": id, "videoSrc": src}`,
/// written by the editor when it swapped the layer's video for the output of
/// `/material/v2/reverVideo`; turning the reverse off puts `materialId` and `videoSrc` back.
/// `None` for anything else (an object without a material id included).
pub fn reversed_file_of(reverse_by: &Value) -> Option<String> {
    match reverse_by.as_object()?.get("materialId")? {
        Value::String(s) if !s.is_empty() => Some(s.clone()),
        Value::Number(n) => Some(n.to_string()),
        _ => None,
    }
}

/// Reads a JSON value leniently as a number.
fn value_number(v: &Value) -> f64 {
    match v {
        Value::Number(n) => n.as_f64().unwrap_or(0.0),
        Value::String(s) => lenient::parse_number(s),
        _ => 0.0,
    }
}

/// The text fields shared by text and art-word layers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "TextFields.ts", rename_all = "camelCase")]
pub struct TextFields {
    /// The text.
    #[serde(deserialize_with = "lenient::string")]
    pub content: String,
    /// The text as displayed (after replacement).
    #[serde(deserialize_with = "lenient::string")]
    pub show_content: String,
    /// Text colour `#rrggbb`.
    #[serde(deserialize_with = "lenient::string")]
    pub color: String,
    /// Colour requested by a template, or "".
    #[serde(deserialize_with = "lenient::string")]
    pub req_color: String,
    /// Colour animation (kept as written).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "unknown", optional)]
    pub color_motion: Value,
    /// Font size in editing pixels (minimum 12).
    #[serde(deserialize_with = "lenient::f64")]
    pub font_size: f64,
    /// Font id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub font_id: Option<Id>,
    /// Font family name.
    #[serde(deserialize_with = "lenient::string")]
    pub font_family: String,
    /// Line height as a multiple of the font size.
    #[serde(deserialize_with = "lenient::f64")]
    pub line_height: f64,
    /// Bold.
    #[serde(deserialize_with = "lenient::flag")]
    pub bold: bool,
    /// Italic.
    #[serde(deserialize_with = "lenient::flag")]
    pub italic: bool,
    /// Strike-through.
    #[serde(deserialize_with = "lenient::flag")]
    pub strike_through: bool,
    /// Underline.
    #[serde(deserialize_with = "lenient::flag")]
    pub underline: bool,
    /// left, center or right.
    #[serde(deserialize_with = "lenient::string")]
    pub text_align: String,
    /// Alignment mode (kept as written).
    #[serde(deserialize_with = "lenient::string")]
    pub align_mod: String,
    /// Outline width in editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub border_width: f64,
    /// Outline colour `#rrggbb`, or "".
    #[serde(deserialize_with = "lenient::string")]
    pub border_color: String,
    /// Background box colour `#rrggbb`, or "".
    #[serde(deserialize_with = "lenient::string")]
    pub bg_fill_color: String,
    /// Extra spacing between letters in editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub letter_spacing: f64,
    /// What the text is for; "subtitle" marks subtitles.
    #[serde(deserialize_with = "lenient::string")]
    pub business_type: String,
    /// Longest text a template user may put in this slot, in characters; absent or 0: no limit.
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_i64")]
    #[ts(optional)]
    pub max_length: Option<i64>,
    /// The company-card field kind (codes 0–15 of `catalogue::codes::CARD_FIELDS`) a
    /// business-card template fills this text from; absent on other texts.
    #[serde(skip_serializing_if = "Option::is_none", deserialize_with = "lenient::opt_i64")]
    #[ts(optional)]
    pub card_field: Option<i64>,
}

impl TextFields {
    /// Returns the text drawn: the replaced text when there is one, else the text.
    pub fn displayed(&self) -> &str {
        if self.show_content.is_empty() {
            &self.content
        } else {
            &self.show_content
        }
    }
}

impl Default for TextFields {
    fn default() -> Self {
        Self {
            content: String::new(),
            show_content: String::new(),
            color: "#ffffff".to_owned(),
            req_color: String::new(),
            color_motion: Value::Null,
            font_size: 24.0,
            font_id: None,
            font_family: String::new(),
            line_height: 1.2,
            bold: false,
            italic: false,
            strike_through: false,
            underline: false,
            text_align: "center".to_owned(),
            align_mod: String::new(),
            border_width: 0.0,
            border_color: String::new(),
            bg_fill_color: String::new(),
            letter_spacing: 0.0,
            business_type: String::new(),
            max_length: None,
            card_field: None,
        }
    }
}

/// A text layer (`word`, `dynamicWord`).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "TextLayer.ts")]
pub struct TextLayer {
    /// Common fields.
    #[serde(flatten)]
    pub common: LayerCommon,
    /// Text fields.
    #[serde(flatten)]
    pub text: TextFields,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// An art word: text drawn as outlines with gradients, borders and shadows.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "ArtWordLayer.ts", rename_all = "camelCase")]
pub struct ArtWordLayer {
    /// Common fields.
    #[serde(flatten)]
    pub common: LayerCommon,
    /// Text fields.
    #[serde(flatten)]
    pub text: TextFields,
    /// Border style.
    #[serde(deserialize_with = "lenient::string")]
    pub border_type: String,
    /// Glyph thickness.
    #[serde(deserialize_with = "lenient::f64")]
    pub thickness: f64,
    /// Shadow colour `#rrggbb`, or "".
    #[serde(deserialize_with = "lenient::string")]
    pub shadow_color: String,
    /// First border (kept as written).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "unknown", optional)]
    pub border1: Value,
    /// Second border (kept as written).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "unknown", optional)]
    pub border2: Value,
    /// Blur radius.
    #[serde(deserialize_with = "lenient::f64")]
    pub blur: f64,
    /// Highlight spot strength.
    #[serde(deserialize_with = "lenient::f64")]
    pub spot: f64,
    /// Highlight spot x.
    #[serde(deserialize_with = "lenient::f64")]
    pub spot_x: f64,
    /// Highlight spot y.
    #[serde(deserialize_with = "lenient::f64")]
    pub spot_y: f64,
    /// Render style (kept as written).
    #[serde(deserialize_with = "lenient::string")]
    pub art_render_type: String,
    /// Background picture id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub background_pic_id: Option<Id>,
    /// Background picture path.
    #[serde(deserialize_with = "lenient::string")]
    pub background_src: String,
    /// Fill colour `#rrggbb`, or "".
    #[serde(deserialize_with = "lenient::string")]
    pub fill_color: String,
    /// Alpha 0..=255.
    #[serde(deserialize_with = "lenient::f64")]
    pub alpha: f64,
    /// Gradient start colour.
    #[serde(deserialize_with = "lenient::string")]
    pub color1: String,
    /// Gradient end colour.
    #[serde(deserialize_with = "lenient::string")]
    pub color2: String,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for ArtWordLayer {
    fn default() -> Self {
        Self {
            common: LayerCommon::default(),
            text: TextFields::default(),
            border_type: String::new(),
            thickness: 0.0,
            shadow_color: String::new(),
            border1: Value::Null,
            border2: Value::Null,
            blur: 0.0,
            spot: 0.0,
            spot_x: 0.0,
            spot_y: 0.0,
            art_render_type: String::new(),
            background_pic_id: None,
            background_src: String::new(),
            fill_color: String::new(),
            alpha: 255.0,
            color1: String::new(),
            color2: String::new(),
            extra: Extra::new(),
        }
    }
}

/// A vector shape drawn from its SVG `shapeCode`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "ShapeLayer.ts", rename_all = "camelCase")]
pub struct ShapeLayer {
    /// Common fields.
    #[serde(flatten)]
    pub common: LayerCommon,
    /// Shape kind from the catalogue (rect, circle, …).
    #[serde(deserialize_with = "lenient::string")]
    pub shape: String,
    /// The shape record's uuid (`GET /shape/{uuid}`).
    #[serde(deserialize_with = "lenient::string")]
    pub uuid: String,
    /// Stroke colour `#rrggbb`, or "".
    #[serde(deserialize_with = "lenient::string")]
    pub stroke: String,
    /// Stroke width in editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub stroke_width: f64,
    /// Fill colour `#rrggbb`, or "".
    #[serde(deserialize_with = "lenient::string")]
    pub fill: String,
    /// Corner radius in editing pixels.
    #[serde(deserialize_with = "lenient::f64")]
    pub border_radius: f64,
    /// color (plain), gradient or image.
    #[serde(deserialize_with = "lenient::string")]
    pub fill_type: String,
    /// The two gradient colours.
    pub gradient_colors: Vec<String>,
    /// Fill picture path for fillType image.
    #[serde(deserialize_with = "lenient::string")]
    pub background_src: String,
    /// line, baseSvg or specialSvg.
    #[serde(deserialize_with = "lenient::string")]
    pub svg_style_type: String,
    /// Shadow blur.
    #[serde(deserialize_with = "lenient::f64")]
    pub shadow_blur: f64,
    /// Shadow x offset.
    #[serde(deserialize_with = "lenient::f64")]
    pub shadow_set_x: f64,
    /// Shadow y offset.
    #[serde(deserialize_with = "lenient::f64")]
    pub shadow_set_y: f64,
    /// Shadow colour `#rrggbb`, or "".
    #[serde(deserialize_with = "lenient::string")]
    pub shadow_color: String,
    /// The SVG, when embedded.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub shape_code: Option<String>,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for ShapeLayer {
    fn default() -> Self {
        Self {
            common: LayerCommon::default(),
            shape: "rect".to_owned(),
            uuid: String::new(),
            stroke: String::new(),
            stroke_width: 0.0,
            fill: String::new(),
            border_radius: 0.0,
            fill_type: "color".to_owned(),
            gradient_colors: Vec::new(),
            background_src: String::new(),
            svg_style_type: "baseSvg".to_owned(),
            shadow_blur: 0.0,
            shadow_set_x: 0.0,
            shadow_set_y: 0.0,
            shadow_color: String::new(),
            shape_code: None,
            extra: Extra::new(),
        }
    }
}

/// One replaceable item of a template layer.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "Replace.ts", rename_all = "camelCase")]
pub struct Replace {
    /// Item id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub id: Option<Id>,
    /// word, picture, video …
    #[serde(deserialize_with = "lenient::string")]
    pub material_type: String,
    /// Original content.
    #[serde(deserialize_with = "lenient::string")]
    pub content: String,
    /// Replacement content.
    #[serde(deserialize_with = "lenient::string")]
    pub replace_content: String,
    /// Maximum length of a replacement text, 0 for no limit.
    #[serde(deserialize_with = "lenient::i64")]
    pub max_length: i64,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// A template layer with its replaceable items.
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "TemplateLayer.ts", rename_all = "camelCase")]
pub struct TemplateLayer {
    /// Common fields.
    #[serde(flatten)]
    pub common: LayerCommon,
    /// Template id.
    #[serde(skip_serializing_if = "Option::is_none")]
    #[ts(optional)]
    pub template_id: Option<Id>,
    /// Template type.
    #[serde(deserialize_with = "lenient::string")]
    pub template_type: String,
    /// The replaceable items.
    pub replaces: Vec<Replace>,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

/// A group of two or more layers.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "GroupLayer.ts", rename_all = "camelCase")]
pub struct GroupLayer {
    /// Common fields.
    #[serde(flatten)]
    pub common: LayerCommon,
    /// always, or once (decomposed by decompose-all).
    #[serde(deserialize_with = "lenient::string")]
    pub group_type: String,
    /// The member layers, positioned relative to the group.
    pub attach_list: Vec<Layer>,
    /// Member positions as percentages of the group box (kept as written).
    #[serde(skip_serializing_if = "Value::is_null")]
    #[ts(type = "unknown", optional)]
    pub group_style: Value,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}

impl Default for GroupLayer {
    fn default() -> Self {
        Self {
            common: LayerCommon::default(),
            group_type: "always".to_owned(),
            attach_list: Vec::new(),
            group_style: Value::Null,
            extra: Extra::new(),
        }
    }
}

/// A special-effect overlay (atmosphere, border).
#[derive(Debug, Clone, PartialEq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase", default)]
#[ts(export_to = "SpecialEffectLayer.ts", rename_all = "camelCase")]
pub struct SpecialEffectLayer {
    /// Common fields.
    #[serde(flatten)]
    pub common: LayerCommon,
    /// Effect name.
    #[serde(deserialize_with = "lenient::string")]
    pub name: String,
    /// Effect media path.
    #[serde(deserialize_with = "lenient::string")]
    pub src: String,
    /// Unknown fields.
    #[serde(flatten)]
    #[ts(skip)]
    pub extra: Extra,
}
