//! Shapes rasterised once: the shape's SVG `shapeCode` through resvg, or, when the document
//! carries none, the catalogue's basic kinds drawn with tiny-skia; plus a blurred drop shadow.
//! The layer's fill (plain, gradient or picture) and stroke apply to an SVG too, unless it is a
//! multi-colour drawing (`svgStyleType: specialSvg`).

use super::text::Sprite;
use super::{Bitmap, colour, filter, image::rounded_rect};
use crate::error::MediaError;
use reelforge_timeline::shape::{Outline, outline};
use resvg::{tiny_skia as sk, usvg};

/// A shape's drawing settings, in output pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct ShapeStyle {
    /// Catalogue kind (rect, circle, line, …).
    pub kind: String,
    /// The SVG, when the document embeds it.
    pub svg: Option<String>,
    /// Whether the layer's fill and stroke replace the SVG's own paint.
    pub recolour: bool,
    /// The fill.
    pub fill: ShapeFill,
    /// Stroke colour and width.
    pub stroke: Option<([u8; 4], f32)>,
    /// Corner radius.
    pub radius: f32,
    /// Shadow colour, offset and blur.
    pub shadow: Option<([u8; 4], f32, f32, f32)>,
}

/// What fills a shape.
#[derive(Debug, Clone, PartialEq)]
pub enum ShapeFill {
    /// No colour (none), one colour, or two for a gradient from top left to bottom right.
    Colours(Vec<[u8; 4]>),
    /// A picture already scaled to the shape's size, kept where the shape is.
    Picture(Bitmap),
}

fn css_colour(c: [u8; 4]) -> String {
    format!(
        "rgba({},{},{},{:.3})",
        c[0],
        c[1],
        c[2],
        f32::from(c[3]) / 255.0
    )
}

/// Returns the SVG with the layer's paint applied through a style sheet: type selectors beat
/// the SVG's presentation attributes, and `[fill=none]` keeps deliberate holes and outlines.
fn style_sheet(
    style: &ShapeStyle,
    svg: &str,
    size: (f32, f32),
    w: u32,
) -> (String, Option<String>) {
    let mut css = String::new();
    let mut svg = svg.to_owned();
    match &style.fill {
        ShapeFill::Colours(c) if c.len() >= 2 => {
            let (a, b) = (c[0], c[1]);
            let defs = format!(
                "<defs><linearGradient id=\"reelforge-fill\" x1=\"0\" y1=\"0\" x2=\"1\" y2=\"1\">\
                 <stop offset=\"0\" stop-color=\"{}\"/><stop offset=\"1\" stop-color=\"{}\"/></linearGradient></defs>",
                css_colour(a),
                css_colour(b)
            );
            // Right after the opening <svg …> tag.
            if let Some(open) = svg
                .find("<svg")
                .and_then(|i| svg[i..].find('>').map(|j| i + j + 1))
            {
                svg.insert_str(open, &defs);
                css.push_str("* { fill: url(#reelforge-fill) } ");
            }
        }
        ShapeFill::Colours(c) if c.len() == 1 => {
            css.push_str(&format!("* {{ fill: {} }} ", css_colour(c[0])))
        }
        _ => {}
    }
    if let Some((c, width)) = style.stroke {
        // The stroke width is in output pixels; the SVG's units are its own.
        let units = width * size.0 / w.max(1) as f32;
        css.push_str(&format!(
            "* {{ stroke: {}; stroke-width: {units} }} ",
            css_colour(c)
        ));
    }
    if css.is_empty() {
        return (svg, None);
    }
    css.push_str("[fill=none] { fill: none } [stroke=none] { stroke: none }");
    (svg, Some(css))
}

fn basic_path(kind: &str, w: f32, h: f32, radius: f32) -> Option<sk::Path> {
    match outline(kind, f64::from(w), f64::from(h)) {
        Outline::Ellipse => sk::PathBuilder::from_oval(sk::Rect::from_xywh(0.0, 0.0, w, h)?),
        Outline::Line => {
            let mut pb = sk::PathBuilder::new();
            pb.move_to(0.0, h / 2.0);
            pb.line_to(w, h / 2.0);
            pb.finish()
        }
        Outline::Polygon(points) => {
            let mut pb = sk::PathBuilder::new();
            for (i, [x, y]) in points.into_iter().enumerate() {
                let (x, y) = (x as f32, y as f32);
                if i == 0 {
                    pb.move_to(x, y)
                } else {
                    pb.line_to(x, y)
                }
            }
            pb.close();
            pb.finish()
        }
        Outline::Rect => rounded_rect(0.0, 0.0, w, h, radius),
    }
}

/// usvg options that never leave the document: no resources directory, and an image `href` that
/// is not a `data:` URL resolves to nothing (usvg's default reads it as a file path). The document
/// was checked on saving already; this holds for any older or hand-made document too.
fn safe_options() -> usvg::Options<'static> {
    usvg::Options {
        resources_dir: None,
        image_href_resolver: usvg::ImageHrefResolver {
            resolve_data: usvg::ImageHrefResolver::default_data_resolver(),
            resolve_string: Box::new(|_, _| None),
        },
        ..usvg::Options::default()
    }
}

/// Rasterises a shape into a `w`×`h` bitmap; a drop shadow widens the sprite past the box as far
/// as it reaches (offset and blur), so a shape that fills its box keeps its shadow, as the stage
/// draws it.
pub fn rasterise(style: &ShapeStyle, w: u32, h: u32) -> Result<Sprite, MediaError> {
    let mut pm = sk::Pixmap::new(w.max(1), h.max(1))
        .ok_or_else(|| MediaError::Draw("shape bitmap too large".to_owned()))?;
    if let Some(svg) = &style.svg {
        let parse = |svg: &str, sheet: Option<String>| {
            let opts = usvg::Options {
                style_sheet: sheet,
                ..safe_options()
            };
            usvg::Tree::from_str(svg, &opts)
                .map_err(|e| MediaError::Draw(format!("shapeCode: {e}")))
        };
        let mut tree = parse(svg, None)?;
        if style.recolour {
            let size = (tree.size().width(), tree.size().height());
            if let (svg, Some(sheet)) = style_sheet(style, svg, size, w) {
                tree = parse(&svg, Some(sheet))?;
            }
        }
        let size = tree.size();
        let t = sk::Transform::from_scale(w as f32 / size.width(), h as f32 / size.height());
        resvg::render(&tree, t, &mut pm.as_mut());
    } else {
        let (fw, fh) = (w as f32, h as f32);
        let inset = style.stroke.map_or(0.0, |s| s.1 / 2.0);
        let path = basic_path(
            &style.kind,
            fw - 2.0 * inset,
            fh - 2.0 * inset,
            style.radius,
        )
        .ok_or_else(|| MediaError::Draw(format!("shape {}", style.kind)))?;
        let at = sk::Transform::from_translate(inset, inset);
        let mut paint = sk::Paint {
            anti_alias: true,
            ..sk::Paint::default()
        };
        let is_line = style.kind.contains("line");
        let colours: &[[u8; 4]] = match &style.fill {
            ShapeFill::Colours(c) => c,
            // Filled opaque here; the picture replaces the colour below.
            ShapeFill::Picture(_) => &[[255, 255, 255, 255]],
        };
        match colours {
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
        if !is_line && !colours.is_empty() {
            pm.fill_path(&path, &paint, sk::FillRule::Winding, at, None);
        }
        if let Some((c, sw)) = style
            .stroke
            .or(is_line.then_some((colours.first().copied().unwrap_or([0, 0, 0, 255]), 2.0)))
        {
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
    if let ShapeFill::Picture(pic) = &style.fill {
        // The picture shows where the shape covers: the shape's coverage is its mask.
        let mut filled = pic.clone();
        super::image::apply_alpha(&mut filled, &out);
        out = filled;
    }
    let Some((c, dx, dy, blur)) = style.shadow else {
        return Ok(Sprite { bitmap: out, dx: 0, dy: 0 });
    };
    // A Gaussian of standard deviation blur / 2 (`filter::blur`) reaches about three of them.
    let reach = (blur.max(0.0) * 1.5).ceil() as i32 + 1;
    let (dx, dy) = (dx.round() as i32, dy.round() as i32);
    let (left, top) = ((reach - dx).max(0), (reach - dy).max(0));
    let (right, bottom) = ((reach + dx).max(0), (reach + dy).max(0));
    let (sw, sh) = (out.w + (left + right) as u32, out.h + (top + bottom) as u32);
    let mut shadow = Bitmap::new(sw, sh);
    let [r, g, b, a] = c;
    for y in 0..out.h as usize {
        let from = y * out.w as usize * 4;
        let to = ((y + (top + dy) as usize) * sw as usize + (left + dx) as usize) * 4;
        let (src, dst) = (&out.px[from..from + out.w as usize * 4], &mut shadow.px[to..to + out.w as usize * 4]);
        for (s, d) in src.chunks_exact(4).zip(dst.chunks_exact_mut(4)) {
            let sa = super::blend::mul255(s[3], a);
            d.copy_from_slice(&[super::blend::mul255(r, sa), super::blend::mul255(g, sa), super::blend::mul255(b, sa), sa]);
        }
    }
    filter::blur(&mut shadow, blur.round() as usize);
    let full = super::Rect::of(sw, sh);
    super::draw(&mut shadow, out.view(), left, top, 1.0, full);
    Ok(Sprite { bitmap: shadow, dx: -left, dy: -top })
}
