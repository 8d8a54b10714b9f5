//! The art-word styles the editor's art-word panel offers: a look (colours, borders, shadow) a new
//! art word starts with. Kept here so the offer a tenant configures names keys the server knows;
//! the labels are the frontend's (`artWord.style.{key}`).

use serde::Serialize;
use ts_rs::TS;

/// A border of an art word's letters.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[ts(export_to = "ArtBorder.ts")]
pub struct ArtBorder {
    /// Its colour.
    pub color: &'static str,
    /// Its width, stage pixels.
    pub width: u32,
}

/// An art-word style.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ArtWordStyle.ts", rename_all = "camelCase")]
pub struct ArtWordStyle {
    /// Its key.
    pub key: &'static str,
    /// The gradient's top colour ("" for a flat fill).
    pub color1: &'static str,
    /// The gradient's bottom colour, or the flat fill.
    pub color2: &'static str,
    /// The fill a plain text layer would take.
    pub fill_color: &'static str,
    /// The inner border.
    pub border1: Option<ArtBorder>,
    /// The outer border.
    pub border2: Option<ArtBorder>,
    /// The shadow's colour ("" for none).
    pub shadow_color: &'static str,
}

const fn b(color: &'static str, width: u32) -> Option<ArtBorder> {
    Some(ArtBorder { color, width })
}

const fn style(
    key: &'static str,
    color1: &'static str,
    color2: &'static str,
    border1: Option<ArtBorder>,
    border2: Option<ArtBorder>,
    shadow_color: &'static str,
) -> ArtWordStyle {
    // The fill is the gradient's bottom colour, or the top one for a flat style without it.
    let fill_color = if color2.is_empty() { color1 } else { color2 };
    ArtWordStyle { key, color1, color2, fill_color, border1, border2, shadow_color }
}

/// The art-word styles, in the panel's default order.
pub static ART_WORDS: &[ArtWordStyle] = &[
    style("gold", "#fff3b0", "#e0a100", b("#7a4a00", 2), None, "#3b2400"),
    style("redWhite", "", "#e5242b", b("#ffffff", 3), b("#e5242b", 2), ""),
    style("neon", "#7df9ff", "#1e90ff", b("#ffffff", 1), b("#0b3d91", 3), ""),
    style("fresh", "#d4fc79", "#2fa84f", b("#ffffff", 3), None, ""),
    style("candy", "#ffd1e8", "#ff4fa3", b("#ffffff", 3), b("#ff4fa3", 2), ""),
    style("blackGold", "", "#222222", b("#f5c542", 2), None, ""),
    style("fire", "#ffe259", "#ff4e00", b("#5a0000", 2), None, "#000000"),
    style("ice", "#ffffff", "#a8d8ff", b("#2a6fb0", 2), None, ""),
];
