//! The 14 filters. Each is a short chain of CSS-filter-like operations, so the browser applies it
//! as a CSS `filter` string and the renderer as a colour matrix (plus a blur), with the same result.

use serde::Serialize;
use ts_rs::TS;

/// One operation of a filter chain, applied in order; amounts as in CSS filter functions.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(tag = "op", content = "amount", rename_all = "camelCase")]
#[ts(export_to = "FilterOp.ts")]
pub enum FilterOp {
    /// `brightness(a)`: multiply RGB by a.
    Brightness(f64),
    /// `contrast(a)`: (c − 0.5)·a + 0.5.
    Contrast(f64),
    /// `saturate(a)`.
    Saturate(f64),
    /// `grayscale(a)`, 0..=1.
    Grayscale(f64),
    /// `sepia(a)`, 0..=1.
    Sepia(f64),
    /// `invert(a)`, 0..=1.
    Invert(f64),
    /// `hue-rotate(a deg)`.
    HueRotate(f64),
    /// `blur(a)` with a in editing pixels.
    Blur(f64),
}

/// A filter: id, key (used in documents), names, type and its operations.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Filter.ts", rename_all = "camelCase")]
pub struct Filter {
    /// Numeric id.
    pub id: u32,
    /// Key written in `visualFilter` and a picture's `filter`.
    pub key: &'static str,
    /// Chinese name.
    pub name_zh: &'static str,
    /// English name.
    pub name_en: &'static str,
    /// 1 colour, 2 blur or texture.
    #[serde(rename = "type")]
    #[ts(rename = "type")]
    pub kind: u8,
    /// The operations, in order.
    pub ops: &'static [FilterOp],
}

use FilterOp::*;

/// The filters.
pub static FILTERS: &[Filter] = &[
    Filter {
        id: 1,
        key: "blackWhite",
        name_zh: "黑白",
        name_en: "Black and white",
        kind: 1,
        ops: &[Grayscale(1.0)],
    },
    Filter {
        id: 2,
        key: "nostalgia",
        name_zh: "怀旧",
        name_en: "Nostalgia",
        kind: 1,
        ops: &[Sepia(0.8)],
    },
    Filter {
        id: 3,
        key: "vivid",
        name_zh: "鲜艳",
        name_en: "Vivid",
        kind: 1,
        ops: &[Saturate(1.6)],
    },
    Filter {
        id: 4,
        key: "warm",
        name_zh: "暖色",
        name_en: "Warm",
        kind: 1,
        ops: &[Sepia(0.3), Saturate(1.3), HueRotate(-10.0)],
    },
    Filter {
        id: 5,
        key: "cool",
        name_zh: "冷色",
        name_en: "Cool",
        kind: 1,
        ops: &[HueRotate(20.0), Saturate(0.9), Brightness(1.05)],
    },
    Filter {
        id: 6,
        key: "bright",
        name_zh: "明亮",
        name_en: "Bright",
        kind: 1,
        ops: &[Brightness(1.2)],
    },
    Filter {
        id: 7,
        key: "dim",
        name_zh: "暗调",
        name_en: "Dim",
        kind: 1,
        ops: &[Brightness(0.8)],
    },
    Filter {
        id: 8,
        key: "highContrast",
        name_zh: "高对比",
        name_en: "High contrast",
        kind: 1,
        ops: &[Contrast(1.5)],
    },
    Filter {
        id: 9,
        key: "soft",
        name_zh: "柔和",
        name_en: "Soft",
        kind: 1,
        ops: &[Contrast(0.85), Brightness(1.05)],
    },
    Filter {
        id: 10,
        key: "faded",
        name_zh: "褪色",
        name_en: "Faded",
        kind: 1,
        ops: &[Saturate(0.6), Contrast(0.9), Brightness(1.1)],
    },
    Filter {
        id: 11,
        key: "invert",
        name_zh: "反色",
        name_en: "Invert",
        kind: 1,
        ops: &[Invert(1.0)],
    },
    Filter {
        id: 12,
        key: "fantasy",
        name_zh: "幻彩",
        name_en: "Fantasy",
        kind: 1,
        ops: &[HueRotate(90.0)],
    },
    Filter {
        id: 13,
        key: "blur",
        name_zh: "模糊",
        name_en: "Blur",
        kind: 2,
        ops: &[Blur(4.0)],
    },
    Filter {
        id: 14,
        key: "film",
        name_zh: "胶片",
        name_en: "Film",
        kind: 1,
        ops: &[Sepia(0.2), Contrast(1.2), Saturate(0.85)],
    },
];

/// Returns the filter a document names by key or by numeric id; "" and "none" name no filter.
pub fn find(name: &str) -> Option<&'static Filter> {
    FILTERS
        .iter()
        .find(|f| f.key == name || name.parse::<u32>().is_ok_and(|id| id == f.id))
}

/// Returns whether a document's filter name is acceptable: empty, "none", or in the catalogue.
pub fn is_known(name: &str) -> bool {
    name.is_empty() || name == "none" || find(name).is_some()
}
