//! Shapes rasterised once: the shape's SVG `shapeCode` through resvg, or, when the document
//! carries none, the catalogue's basic kinds drawn with tiny-skia; plus a blurred drop shadow.

use super::{Bitmap, colour, filter, image::rounded_rect};
use crate::error::MediaError;
use resvg::{tiny_skia as sk, usvg};

/// A shape's drawing settings, in output pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeStyle {
    /// Catalogue kind (rect, circle, line, …).
    pub kind: String,
    /// The SVG, when the document embeds it.
    pub svg: Option<String>,
    /// Fill colour(s): one, or two for a gradient.
    pub fill: Vec<[u8; 4]>,
    /// Stroke colour and width.
    pub stroke: Option<([u8; 4], f32)>,
    /// Corner radius.
    pub radius: f32,
    /// Shadow colour, offset and blur.
    pub shadow: Option<([u8; 4], f32, f32, f32)>,
}

fn polygon(n: usize, w: f32, h: f32, star: bool) -> Option<sk::Path> {
    let mut pb = sk::PathBuilder::new();
    let pts = if star { n * 2 } else { n };
    for i in 0..pts {
        let a = std::f32::consts::TAU * i as f32 / pts as f32 - std::f32::consts::FRAC_PI_2;
        let r = if star && i % 2 == 1 { 0.45 } else { 1.0 };
        let (x, y) = (w / 2.0 + a.cos() * r * w / 2.0, h / 2.0 + a.sin() * r * h / 2.0);
        if i == 0 { pb.move_to(x, y) } else { pb.line_to(x, y) }
    }
    pb.close();
    pb.finish()
}

fn basic_path(kind: &str, w: f32, h: f32, radius: f32) -> Option<sk::Path> {
    match kind {
        "circle" | "face" | "sun" | "simple-sun" | "no-border-smile" => {
            sk::PathBuilder::from_oval(sk::Rect::from_xywh(0.0, 0.0, w, h)?)
        }
        "line" | "wave-line" | "poly-line" | "divide_line1" | "divide_line2" | "divide_line3" => {
            let mut pb = sk::PathBuilder::new();
            pb.move_to(0.0, h / 2.0);
            pb.line_to(w, h / 2.0);
            pb.finish()
        }
        "equilateral-triangle" | "isosceles-triangle" => polygon(3, w, h, false),
        "right-triangle" => {
            let mut pb = sk::PathBuilder::new();
            pb.move_to(0.0, 0.0);
            pb.line_to(0.0, h);
            pb.line_to(w, h);
            pb.close();
            pb.finish()
        }
        "hexagon" => polygon(6, w, h, false),
        "octagon" => polygon(8, w, h, false),
        "simple-star" | "star" | "more-angle-pic" | "min-snow" | "complex-snow" => {
            polygon(5, w, h, true)
        }
        _ => rounded_rect(0.0, 0.0, w, h, radius),
    }
}

/// Rasterises a shape into a `w`×`h` bitmap.
pub fn rasterise(style: &ShapeStyle, w: u32, h: u32) -> Result<Bitmap, MediaError> {
    let mut pm = sk::Pixmap::new(w.max(1), h.max(1))
        .ok_or_else(|| MediaError::Draw("shape bitmap too large".to_owned()))?;
    if let Some(svg) = &style.svg {
        let tree = usvg::Tree::from_str(svg, &usvg::Options::default())
            .map_err(|e| MediaError::Draw(format!("shapeCode: {e}")))?;
        let size = tree.size();
        let t = sk::Transform::from_scale(w as f32 / size.width(), h as f32 / size.height());
        resvg::render(&tree, t, &mut pm.as_mut());
    } else {
        let (fw, fh) = (w as f32, h as f32);
        let inset = style.stroke.map_or(0.0, |s| s.1 / 2.0);
        let path = basic_path(&style.kind, fw - 2.0 * inset, fh - 2.0 * inset, style.radius)
            .ok_or_else(|| MediaError::Draw(format!("shape {}", style.kind)))?;
        let at = sk::Transform::from_translate(inset, inset);
        let mut paint = sk::Paint {
            anti_alias: true,
            ..sk::Paint::default()
        };
        let is_line = style.kind.contains("line");
        match style.fill.as_slice() {
            [a, b, ..] => {
                if let Some(s) = sk::LinearGradient::new(
                    sk::Point::from_xy(0.0, 0.0),
                    sk::Point::from_xy(fw, fh),
                    vec![
                        sk::GradientStop::new(0.0, colour::skia(*a)),
                        sk::GradientStop::new(1.0, colour::skia(*b)),
                    ],
                    sk::SpreadMode::Pad,
                    sk::Transform::identity(),
                ) {
                    paint.shader = s;
                }
            }
            [a] => paint.set_color(colour::skia(*a)),
            [] => paint.set_color(sk::Color::TRANSPARENT),
        }
        if !is_line && !style.fill.is_empty() {
            pm.fill_path(&path, &paint, sk::FillRule::Winding, at, None);
        }
        if let Some((c, sw)) = style.stroke.or(is_line.then_some((
            style.fill.first().copied().unwrap_or([0, 0, 0, 255]),
            2.0,
        ))) {
            paint = sk::Paint {
                anti_alias: true,
                ..sk::Paint::default()
            };
            paint.set_color(colour::skia(c));
            let stroke = sk::Stroke {
                width: sw.max(1.0),
                ..sk::Stroke::default()
            };
            pm.stroke_path(&path, &paint, &stroke, at, None);
        }
    }
    let mut out = Bitmap::from_pixmap(pm);
    if let Some((c, dx, dy, blur)) = style.shadow {
        let mut shadow = Bitmap::new(out.w, out.h);
        let [r, g, b, a] = c;
        for (s, d) in out.px.chunks_exact(4).zip(shadow.px.chunks_exact_mut(4)) {
            let sa = super::blend::mul255(s[3], a);
            d.copy_from_slice(&[
                super::blend::mul255(r, sa),
                super::blend::mul255(g, sa),
                super::blend::mul255(b, sa),
                sa,
            ]);
        }
        filter::box_blur(&mut shadow, blur.round() as usize);
        let mut base = Bitmap::new(out.w, out.h);
        let full = super::Rect::of(out.w, out.h);
        super::draw(&mut base, shadow.view(), dx.round() as i32, dy.round() as i32, 1.0, full);
        super::draw(&mut base, out.view(), 0, 0, 1.0, full);
        out = base;
    }
    Ok(out)
}
