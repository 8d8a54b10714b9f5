//! The outline of a shape drawn without its SVG (`shapeCode`): a legacy document's basic kind, or a
//! shape whose drawing could not be had. The renderer (`compose/shape.rs`) and the editor's stage
//! draw this same outline (shared vectors `tests/vectors/shape_outline.json`).

use serde::Serialize;

/// What a basic shape kind draws in a `w`×`h` box.
#[derive(Debug, Clone, PartialEq, Serialize)]
#[serde(tag = "kind", content = "points", rename_all = "camelCase")]
pub enum Outline {
    /// The ellipse inscribed in the box.
    Ellipse,
    /// A horizontal line through the box's middle.
    Line,
    /// A closed polygon, in box pixels.
    Polygon(Vec<[f64; 2]>),
    /// The box, with the layer's corner radius.
    Rect,
}

/// Returns the outline of a basic shape kind in a `w`×`h` box.
pub fn outline(kind: &str, w: f64, h: f64) -> Outline {
    match kind {
        "circle" | "face" | "sun" | "simple-sun" | "no-border-smile" => Outline::Ellipse,
        "line" | "wave-line" | "poly-line" | "divide_line1" | "divide_line2" | "divide_line3" => {
            Outline::Line
        }
        "equilateral-triangle" | "isosceles-triangle" => regular(3, w, h, false),
        "right-triangle" => Outline::Polygon(vec![[0.0, 0.0], [0.0, h], [w, h]]),
        "hexagon" => regular(6, w, h, false),
        "octagon" => regular(8, w, h, false),
        "simple-star" | "star" | "more-angle-pic" | "min-snow" | "complex-snow" => {
            regular(5, w, h, true)
        }
        _ => Outline::Rect,
    }
}

/// Returns what a shape layer is painted from: `None` draws the basic [`outline`] (no `shapeCode`),
/// a rectangle that takes the layer's paint is its [`rect_drawing`], anything else its own
/// `shapeCode`. The renderer and the stage both ask this (shared vectors `shape_drawing`).
pub fn shape_drawing(
    kind: &str,
    code: &str,
    svg_style_type: &str,
    (w, h): (f64, f64),
    radius: f64,
) -> Option<String> {
    if code.trim().is_empty() {
        None
    } else if kind == "rect" && svg_style_type != "specialSvg" {
        Some(rect_drawing(w, h, radius))
    } else {
        Some(code.to_owned())
    }
}

/// Returns the drawing a catalogue rectangle is painted from, in place of its `shapeCode`: the box
/// at the layer's own size with its corner radius (`borderRadius`, editing pixels, at most half the
/// shorter side). The catalogue's drawing is a bare 100×100 square stretched to the box, which no
/// radius can reach; drawn at the box's size the corners stay round however the box is stretched,
/// and the stroke keeps the layer's width. The stage draws the same text (shared vectors
/// `shape_drawing`), so both paint it the same way.
pub fn rect_drawing(w: f64, h: f64, radius: f64) -> String {
    let (w, h) = (w.max(1.0), h.max(1.0));
    let r = radius.clamp(0.0, w.min(h) / 2.0);
    let (w, h, r) = (short(w), short(h), short(r));
    format!(
        "<svg xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 {w} {h}\" width=\"{w}\" height=\"{h}\" \
         fill=\"currentColor\"><rect width=\"{w}\" height=\"{h}\" rx=\"{r}\"/></svg>"
    )
}

/// A number rounded to two decimals (halves away from zero) and written shortest (`12`, `8.13`), as
/// JavaScript's `String(Math.round(x * 100) / 100)` writes it for the box's non-negative sizes.
fn short(x: f64) -> String {
    format!("{}", (x * 100.0).round() / 100.0)
}

/// A regular polygon (or a star of `n` points, inner radius 0.45) inscribed in the box's ellipse,
/// its first vertex at the top.
fn regular(n: usize, w: f64, h: f64, star: bool) -> Outline {
    let count = if star { n * 2 } else { n };
    Outline::Polygon(
        (0..count)
            .map(|i| {
                let a =
                    std::f64::consts::TAU * i as f64 / count as f64 - std::f64::consts::FRAC_PI_2;
                let r = if star && i % 2 == 1 { 0.45 } else { 1.0 };
                [
                    w / 2.0 + a.cos() * r * w / 2.0,
                    h / 2.0 + a.sin() * r * h / 2.0,
                ]
            })
            .collect(),
    )
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_triangle_is_inscribed_in_the_box_ellipse_with_its_apex_at_the_top() {
        let Outline::Polygon(p) = outline("isosceles-triangle", 100.0, 80.0) else {
            panic!("a triangle is a polygon");
        };
        assert_eq!(p.len(), 3);
        assert!((p[0][0] - 50.0).abs() < 1e-9 && p[0][1].abs() < 1e-9);
        assert!(
            (p[1][1] - 60.0).abs() < 1e-9,
            "the base at three quarters: {p:?}"
        );
    }

    #[test]
    fn a_rectangle_is_drawn_at_its_box_size_with_its_radius_clamped() {
        assert!(rect_drawing(300.0, 120.5, 24.0).contains("viewBox=\"0 0 300 120.5\""));
        assert!(rect_drawing(300.0, 120.0, 24.0).contains("rx=\"24\""));
        assert!(rect_drawing(300.0, 120.0, 500.0).contains("rx=\"60\""), "half the shorter side");
        assert!(rect_drawing(300.0, 120.0, -3.0).contains("rx=\"0\""));
    }

    #[test]
    fn unknown_kinds_are_the_box() {
        assert_eq!(outline("rect", 10.0, 10.0), Outline::Rect);
        assert_eq!(outline("nonsense", 10.0, 10.0), Outline::Rect);
        assert_eq!(outline("sun", 10.0, 10.0), Outline::Ellipse);
    }
}
