//! Where a text's underline and strike-through lie: the renderer draws them with these
//! (`reelforge-render` `compose/text.rs`) and the stage sets its CSS from them, so the editor's
//! lines fall where the video's do.

use serde::Serialize;
use ts_rs::TS;

/// The decoration lines of a text, in units of its font size (em) from the baseline, downwards
/// positive: each line's top edge, and its thickness.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "TextRules.ts", rename_all = "camelCase")]
pub struct TextRules {
    /// The underline's top edge below the baseline.
    pub underline_offset_em: f64,
    /// The strike-through's top edge (negative: above the baseline).
    pub strike_offset_em: f64,
    /// The thickness of either line.
    pub decoration_thickness_em: f64,
    /// The least thickness, in pixels of the video.
    pub decoration_min_px: f64,
}

/// The decoration lines the renderer draws.
pub const TEXT_RULES: TextRules =
    TextRules { underline_offset_em: 0.12, strike_offset_em: -0.32, decoration_thickness_em: 1.0 / 14.0, decoration_min_px: 1.0 };

impl TextRules {
    /// A line's thickness at `font_size` video pixels.
    pub fn thickness(&self, font_size: f64) -> f64 {
        (font_size * self.decoration_thickness_em).max(self.decoration_min_px)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_line_is_a_fourteenth_of_the_size_and_at_least_a_pixel() {
        assert!((TEXT_RULES.thickness(70.0) - 5.0).abs() < 1e-9);
        assert_eq!(TEXT_RULES.thickness(7.0), 1.0);
    }
}
