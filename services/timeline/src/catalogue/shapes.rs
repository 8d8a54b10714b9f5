//! The 24 shape kinds (their SVG comes from the shape record's `shapeCode`).

use serde::Serialize;
use ts_rs::TS;

/// A shape kind.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ShapeKind.ts", rename_all = "camelCase")]
pub struct ShapeKind {
    /// Key written in a shape layer's `shape`.
    pub key: &'static str,
    /// Chinese name.
    pub name_zh: &'static str,
    /// English name.
    pub name_en: &'static str,
}

const fn s(key: &'static str, name_zh: &'static str, name_en: &'static str) -> ShapeKind {
    ShapeKind {
        key,
        name_zh,
        name_en,
    }
}

/// The shape kinds.
pub static SHAPES: &[ShapeKind] = &[
    s("rect", "矩形", "Rectangle"),
    s("circle", "圆形", "Circle"),
    s("line", "直线", "Line"),
    s("wave-line", "波浪线", "Wave line"),
    s("simple-star", "简单星形", "Simple star"),
    s("equilateral-triangle", "等边三角形", "Equilateral triangle"),
    s("octagon", "八边形", "Octagon"),
    s("hexagon", "六边形", "Hexagon"),
    s("poly-line", "折线", "Polyline"),
    s("face", "笑脸", "Face"),
    s("sun", "太阳", "Sun"),
    s("simple-sun", "简单太阳", "Simple sun"),
    s("no-border-smile", "无边框笑脸", "Borderless smile"),
    s("divide_line1", "分割线1", "Divider 1"),
    s("divide_line2", "分割线2", "Divider 2"),
    s("divide_line3", "分割线3", "Divider 3"),
    s("watermelon_shape", "西瓜", "Watermelon"),
    s("isosceles-triangle", "等腰三角形", "Isosceles triangle"),
    s("right-triangle", "直角三角形", "Right triangle"),
    s("star", "星形", "Star"),
    s("more-angle-pic", "多角形", "Many-pointed shape"),
    s("lightning", "闪电", "Lightning"),
    s("min-snow", "小雪花", "Small snowflake"),
    s("complex-snow", "复杂雪花", "Complex snowflake"),
];

/// Returns whether a shape key is in the catalogue.
pub fn is_known(key: &str) -> bool {
    SHAPES.iter().any(|s| s.key == key)
}
