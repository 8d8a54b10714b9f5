//! Small document rules: size category, a new attachment's range, scene extension, template slots.

use crate::layer::Layer;
use crate::rule::Rule;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Length of a new attachment, seconds.
pub const DEFAULT_ATTACH_SPAN: f64 = 2.0;

/// Returns the size category of a width/height: below 1 → 50 (9:16), exactly 1 → 51 (1:1),
/// above 1.7 → 41 (16:9), above 1.3 → 42 (4:3). Between 1 and 1.3 the spec is silent: the
/// nearer of 1:1 and 4:3 on a log scale (ratio < √(4/3) → 51, else 42). Unusable sizes → -1.
pub fn size_category(width: f64, height: f64) -> i64 {
    if !(width > 0.0 && height > 0.0 && width.is_finite() && height.is_finite()) {
        return -1;
    }
    let r = width / height;
    if r < 1.0 {
        50
    } else if r == 1.0 {
        51
    } else if r > 1.7 {
        41
    } else if r > 1.3 || r >= (4.0f64 / 3.0).sqrt() {
        42
    } else {
        51
    }
}

/// Returns a new attachment's `(start, end)`: 2 s from the current time, kept inside
/// `0..=duration` (shifted back to keep 2 s where the duration allows, shorter otherwise).
pub fn default_attach_range(current: f64, duration: f64) -> (f64, f64) {
    let duration = if duration.is_finite() {
        duration.max(0.0)
    } else {
        0.0
    };
    let current = if current.is_finite() { current } else { 0.0 };
    let start = current.clamp(0.0, duration);
    let end = (start + DEFAULT_ATTACH_SPAN).min(duration);
    let start = (end - DEFAULT_ATTACH_SPAN).max(0.0).min(start);
    (start, end)
}

/// Returns the scene length after adding a layer that ends at `layer_end` (spec §4: the scene grows to fit).
pub fn extended_scene_length(scene_length: f64, layer_end: f64) -> f64 {
    if layer_end.is_finite() && layer_end > scene_length {
        layer_end
    } else {
        scene_length
    }
}

/// What a template user may replace.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "SlotKind.ts", rename_all = "camelCase")]
pub enum SlotKind {
    /// A word or art word.
    Text,
    /// A picture or GIF.
    Picture,
    /// A video.
    Video,
}

/// Returns the slot an item is when `canModify` is 1 (platform §5): word/artWord → text,
/// picture/gif → picture, video → video; anything else is no slot.
pub fn slot_kind(material_type: &str, can_modify: i64) -> Option<SlotKind> {
    if can_modify != 1 {
        return None;
    }
    match material_type {
        "word" | "artWord" => Some(SlotKind::Text),
        "picture" | "gif" => Some(SlotKind::Picture),
        "video" => Some(SlotKind::Video),
        _ => None,
    }
}

/// Counts of each slot kind in a document (the task's replaceWord/replacePicture/replaceVideo).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "SlotCounts.ts", rename_all = "camelCase")]
pub struct SlotCounts {
    /// Text slots.
    pub text: u32,
    /// Picture slots.
    pub picture: u32,
    /// Video slots.
    pub video: u32,
}

impl SlotCounts {
    fn add(&mut self, kind: SlotKind) {
        match kind {
            SlotKind::Text => self.text += 1,
            SlotKind::Picture => self.picture += 1,
            SlotKind::Video => self.video += 1,
        }
    }
}

/// Returns the slot counts of a rule: its scenes' layers (group members included) and its
/// actionArrange attachments.
pub fn template_slots(rule: &Rule) -> SlotCounts {
    let mut counts = SlotCounts::default();
    let mut stack: Vec<&Layer> = rule.scenes.iter().flat_map(|s| s.layers.iter()).collect();
    while let Some(layer) = stack.pop() {
        if let Layer::Group(g) = layer {
            stack.extend(g.attach_list.iter());
        }
        if let Some(kind) = layer
            .common()
            .and_then(|c| slot_kind(layer.type_name(), c.can_modify))
        {
            counts.add(kind);
        }
    }
    for item in rule
        .action_arrange
        .iter()
        .flat_map(|a| a.action.attach_material.iter())
    {
        if let Some(kind) = slot_kind(&item.material_type, item.can_modify) {
            counts.add(kind);
        }
    }
    counts
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ratios_map_to_size_ids() {
        assert_eq!(size_category(1280.0, 720.0), 41);
        assert_eq!(size_category(640.0, 480.0), 42);
        assert_eq!(size_category(640.0, 640.0), 51);
        assert_eq!(size_category(360.0, 640.0), 50);
        assert_eq!(size_category(0.0, 640.0), -1);
    }

    #[test]
    fn attach_range_is_clamped() {
        assert_eq!(default_attach_range(1.0, 10.0), (1.0, 3.0));
        assert_eq!(default_attach_range(9.0, 10.0), (8.0, 10.0));
        assert_eq!(default_attach_range(-3.0, 10.0), (0.0, 2.0));
        assert_eq!(default_attach_range(0.5, 1.0), (0.0, 1.0));
    }
}
