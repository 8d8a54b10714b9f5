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

/// The points of a regular polygon (`inner` = None) or a star (`inner` = the inner radius as a
/// share of the outer), centred in the 100×100 box, first point straight up.
fn ring(points: usize, inner: Option<f64>) -> String {
    let n = if inner.is_some() { points * 2 } else { points };
    (0..n)
        .map(|i| {
            let a = std::f64::consts::TAU * i as f64 / n as f64 - std::f64::consts::FRAC_PI_2;
            let r = match inner {
                Some(k) if i % 2 == 1 => 50.0 * k,
                _ => 50.0,
            };
            format!("{:.2},{:.2}", 50.0 + r * a.cos(), 50.0 + r * a.sin())
        })
        .collect::<Vec<_>>()
        .join(" ")
}

/// A circle as a path (so holes can be cut with the even-odd rule).
fn disc(cx: f64, cy: f64, r: f64) -> String {
    format!(
        "M{:.2},{cy:.2}a{r:.2},{r:.2} 0 1,0 {:.2},0a{r:.2},{r:.2} 0 1,0 {:.2},0Z",
        cx - r,
        2.0 * r,
        -2.0 * r
    )
}

/// `n` copies of `body` turned evenly around the centre.
fn turned(n: usize, body: &str) -> String {
    (0..n)
        .map(|i| format!("<g transform=\"rotate({} 50 50)\">{body}</g>", 360 * i / n))
        .collect()
}

/// The eyes and smile of the two faces, as even-odd sub-paths.
const FACE: &str = "M30,38a6,6 0 1,0 12,0a6,6 0 1,0 -12,0ZM58,38a6,6 0 1,0 12,0a6,6 0 1,0 -12,0Z\
                    M26,58Q50,88 74,58Q50,74 26,58Z";

/// Returns the generated SVG of a catalogue shape (100×100 viewBox, painted `currentColor`, so the
/// layer's fill replaces it), or `None` for a key the catalogue does not have. Line kinds are
/// stroked and keep `fill="none"`.
pub fn svg(key: &str) -> Option<String> {
    let body = match key {
        "rect" => "<rect width=\"100\" height=\"100\"/>".to_owned(),
        "circle" => "<circle cx=\"50\" cy=\"50\" r=\"50\"/>".to_owned(),
        "line" => "<rect y=\"47\" width=\"100\" height=\"6\"/>".to_owned(),
        "wave-line" => "<path fill=\"none\" stroke=\"currentColor\" stroke-width=\"6\" \
                        d=\"M0,50C12.5,20 12.5,20 25,50S37.5,80 50,50S62.5,20 75,50S87.5,80 100,50\"/>"
            .to_owned(),
        "simple-star" => format!("<polygon points=\"{}\"/>", ring(5, Some(0.5))),
        "equilateral-triangle" => "<polygon points=\"50,6.7 100,93.3 0,93.3\"/>".to_owned(),
        "octagon" => format!("<polygon points=\"{}\"/>", ring(8, None)),
        "hexagon" => format!("<polygon points=\"{}\"/>", ring(6, None)),
        "poly-line" => "<polyline fill=\"none\" stroke=\"currentColor\" stroke-width=\"6\" \
                        stroke-linejoin=\"round\" points=\"3,80 28,25 50,70 72,25 97,80\"/>"
            .to_owned(),
        "face" => format!("<path fill-rule=\"evenodd\" d=\"{}{FACE}\"/>", disc(50.0, 50.0, 50.0)),
        "sun" => format!(
            "<circle cx=\"50\" cy=\"50\" r=\"24\"/>{}",
            turned(12, "<polygon points=\"50,0 55,20 45,20\"/>")
        ),
        "simple-sun" => format!(
            "<circle cx=\"50\" cy=\"50\" r=\"26\"/>{}",
            turned(8, "<rect x=\"47\" y=\"2\" width=\"6\" height=\"14\" rx=\"3\"/>")
        ),
        "no-border-smile" => format!("<path d=\"{FACE}\"/>"),
        "divide_line1" => "<rect y=\"48\" width=\"100\" height=\"4\"/>".to_owned(),
        "divide_line2" => (0..10)
            .map(|i| format!("<rect x=\"{}\" y=\"48\" width=\"6\" height=\"4\"/>", i * 10 + 2))
            .collect(),
        "divide_line3" => "<rect y=\"48.5\" width=\"40\" height=\"3\"/><rect x=\"60\" y=\"48.5\" \
                           width=\"40\" height=\"3\"/><polygon points=\"50,40 60,50 50,60 40,50\"/>"
            .to_owned(),
        "watermelon_shape" => format!(
            "<path fill-rule=\"evenodd\" d=\"M0,25A50,50 0 0,0 100,25Z{}{}{}\"/>",
            disc(30.0, 42.0, 4.0),
            disc(50.0, 52.0, 4.0),
            disc(70.0, 42.0, 4.0)
        ),
        "isosceles-triangle" => "<polygon points=\"50,0 85,100 15,100\"/>".to_owned(),
        "right-triangle" => "<polygon points=\"0,0 0,100 100,100\"/>".to_owned(),
        "star" => format!("<polygon points=\"{}\"/>", ring(5, Some(0.382))),
        "more-angle-pic" => format!("<polygon points=\"{}\"/>", ring(12, Some(0.75))),
        "lightning" => "<polygon points=\"62,0 18,56 46,56 34,100 82,40 54,40 72,0\"/>".to_owned(),
        "min-snow" => turned(6, "<rect x=\"47\" y=\"2\" width=\"6\" height=\"48\" rx=\"3\"/>"),
        "complex-snow" => turned(
            6,
            "<rect x=\"47.5\" y=\"2\" width=\"5\" height=\"48\" rx=\"2.5\"/>\
             <rect x=\"47.5\" y=\"10\" width=\"5\" height=\"18\" rx=\"2.5\" transform=\"rotate(45 50 22)\"/>\
             <rect x=\"47.5\" y=\"10\" width=\"5\" height=\"18\" rx=\"2.5\" transform=\"rotate(-45 50 22)\"/>",
        ),
        _ => return None,
    };
    Some(format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 100 100\" width=\"100\" \
         height=\"100\" fill=\"currentColor\">{body}</svg>"
    ))
}

/// Returns a catalogue shape by key.
pub fn get(key: &str) -> Option<&'static ShapeKind> {
    SHAPES.iter().find(|s| s.key == key)
}

#[cfg(test)]
mod tests {
    use super::*;
    use resvg::{tiny_skia, usvg};

    #[test]
    fn every_kind_has_a_safe_svg_that_draws() {
        for kind in SHAPES {
            let svg = svg(kind.key).unwrap_or_else(|| panic!("no svg for {}", kind.key));
            crate::svg::check(&svg).unwrap_or_else(|e| panic!("{}: {e}", kind.key));
            let tree = usvg::Tree::from_str(&svg, &usvg::Options::default())
                .unwrap_or_else(|e| panic!("{}: {e}", kind.key));
            assert_eq!((tree.size().width(), tree.size().height()), (100.0, 100.0));
            let mut pm = tiny_skia::Pixmap::new(100, 100).unwrap_or_else(|| panic!("pixmap"));
            resvg::render(&tree, tiny_skia::Transform::identity(), &mut pm.as_mut());
            let covered = pm.pixels().iter().filter(|p| p.alpha() > 0).count();
            assert!(covered > 100, "{} covers {covered} pixels", kind.key);
        }
        assert!(svg("nope").is_none());
    }
}
