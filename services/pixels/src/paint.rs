//! Drawing helpers over tiny-skia for the starter pictures: fills, gradients, shapes and a small
//! deterministic random source, so the same build always makes the same bytes.

use resvg::tiny_skia::{
    self as sk, Color, FillRule, GradientStop, LinearGradient, Paint, Path, PathBuilder, Pixmap,
    Point, RadialGradient, Rect, Shader, SpreadMode, Stroke, Transform,
};

/// An sRGB colour with alpha, 0..=255 each.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Rgba(pub u8, pub u8, pub u8, pub u8);

/// An opaque colour from `0xRRGGBB`.
pub const fn rgb(hex: u32) -> Rgba {
    Rgba((hex >> 16) as u8, (hex >> 8) as u8, hex as u8, 255)
}

impl Rgba {
    /// The same colour with alpha `a`.
    pub const fn alpha(self, a: u8) -> Rgba {
        Rgba(self.0, self.1, self.2, a)
    }

    fn sk(self) -> Color {
        Color::from_rgba8(self.0, self.1, self.2, self.3)
    }
}

/// A small xorshift generator: the pictures scatter dots and flakes the same way on every run.
pub struct Dice(u64);

impl Dice {
    /// A generator for `seed` (any value).
    pub fn new(seed: u64) -> Self {
        Self(seed.wrapping_mul(0x9e37_79b9_7f4a_7c15) | 1)
    }

    /// A number in `lo..hi`.
    pub fn range(&mut self, lo: f32, hi: f32) -> f32 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        lo + (hi - lo) * ((self.0 >> 40) as f32 / (1u64 << 24) as f32)
    }
}

/// A picture being drawn.
pub struct Canvas {
    /// The pixels, premultiplied RGBA.
    pub pixmap: Pixmap,
}

fn paint(shader: Shader<'static>) -> Paint<'static> {
    Paint {
        shader,
        anti_alias: true,
        ..Paint::default()
    }
}

fn solid(c: Rgba) -> Paint<'static> {
    paint(Shader::SolidColor(c.sk()))
}

/// A linear gradient from `(x0, y0)` to `(x1, y1)` through `colours`, padded past its ends.
fn linear_shader((x0, y0): (f32, f32), (x1, y1): (f32, f32), colours: &[Rgba]) -> Option<Shader<'static>> {
    LinearGradient::new(Point::from_xy(x0, y0), Point::from_xy(x1, y1), stops(colours), SpreadMode::Pad, Transform::identity())
}

fn stops(colours: &[Rgba]) -> Vec<GradientStop> {
    let last = colours.len().saturating_sub(1).max(1) as f32;
    colours
        .iter()
        .enumerate()
        .map(|(i, c)| GradientStop::new(i as f32 / last, c.sk()))
        .collect()
}

/// A closed polygon through `points`.
pub fn polygon(points: &[(f32, f32)]) -> Option<Path> {
    let mut pb = PathBuilder::new();
    let (first, rest) = points.split_first()?;
    pb.move_to(first.0, first.1);
    rest.iter().for_each(|(x, y)| pb.line_to(*x, *y));
    pb.close();
    pb.finish()
}

/// A regular star (or polygon when `inner` equals `outer`) of `n` points around `(cx, cy)`.
pub fn star(cx: f32, cy: f32, outer: f32, inner: f32, n: usize) -> Option<Path> {
    let points: Vec<(f32, f32)> = (0..n * 2)
        .map(|i| {
            let r = if i % 2 == 0 { outer } else { inner };
            let a = std::f32::consts::PI * i as f32 / n as f32 - std::f32::consts::FRAC_PI_2;
            (cx + r * a.cos(), cy + r * a.sin())
        })
        .collect();
    polygon(&points)
}

/// A rectangle with corners rounded by `r`.
pub fn rounded(x: f32, y: f32, w: f32, h: f32, r: f32) -> Option<Path> {
    let r = r.min(w / 2.0).min(h / 2.0);
    // The cubic control distance that makes a quarter circle.
    let k = r * 0.552_284_8;
    let mut pb = PathBuilder::new();
    pb.move_to(x + r, y);
    pb.line_to(x + w - r, y);
    pb.cubic_to(x + w - r + k, y, x + w, y + r - k, x + w, y + r);
    pb.line_to(x + w, y + h - r);
    pb.cubic_to(x + w, y + h - r + k, x + w - r + k, y + h, x + w - r, y + h);
    pb.line_to(x + r, y + h);
    pb.cubic_to(x + r - k, y + h, x, y + h - r + k, x, y + h - r);
    pb.line_to(x, y + r);
    pb.cubic_to(x, y + r - k, x + r - k, y, x + r, y);
    pb.close();
    pb.finish()
}

/// A heart filling the box `(x, y, s, s)`.
pub fn heart(x: f32, y: f32, s: f32) -> Option<Path> {
    let mut pb = PathBuilder::new();
    pb.move_to(x + s * 0.5, y + s * 0.95);
    pb.cubic_to(
        x + s * 0.1,
        y + s * 0.65,
        x - s * 0.05,
        y + s * 0.3,
        x + s * 0.25,
        y + s * 0.12,
    );
    pb.cubic_to(
        x + s * 0.4,
        y + s * 0.03,
        x + s * 0.5,
        y + s * 0.2,
        x + s * 0.5,
        y + s * 0.25,
    );
    pb.cubic_to(
        x + s * 0.5,
        y + s * 0.2,
        x + s * 0.6,
        y + s * 0.03,
        x + s * 0.75,
        y + s * 0.12,
    );
    pb.cubic_to(
        x + s * 1.05,
        y + s * 0.3,
        x + s * 0.9,
        y + s * 0.65,
        x + s * 0.5,
        y + s * 0.95,
    );
    pb.close();
    pb.finish()
}

impl Canvas {
    /// A transparent canvas of `w`×`h`.
    pub fn new(w: u32, h: u32) -> Result<Self, String> {
        Pixmap::new(w, h)
            .map(|pixmap| Self { pixmap })
            .ok_or_else(|| format!("a {w}x{h} canvas"))
    }

    /// Width in pixels, as drawing coordinates.
    pub fn w(&self) -> f32 {
        self.pixmap.width() as f32
    }

    /// Height in pixels, as drawing coordinates.
    pub fn h(&self) -> f32 {
        self.pixmap.height() as f32
    }

    /// Fills everything with one colour.
    pub fn fill(&mut self, c: Rgba) {
        self.pixmap.fill(c.sk());
    }

    /// Fills everything with a linear gradient from `(x0, y0)` to `(x1, y1)` through `colours`.
    pub fn linear(&mut self, (x0, y0): (f32, f32), (x1, y1): (f32, f32), colours: &[Rgba]) {
        let shader = linear_shader((x0, y0), (x1, y1), colours);
        if let (Some(shader), Some(rect)) = (shader, Rect::from_xywh(0.0, 0.0, self.w(), self.h()))
        {
            self.pixmap
                .fill_rect(rect, &paint(shader), Transform::identity(), None);
        }
    }

    /// A soft round glow: `colour` at the centre fading to transparent at `r`.
    pub fn glow(&mut self, cx: f32, cy: f32, r: f32, colour: Rgba) {
        let centre = Point::from_xy(cx, cy);
        let shader = RadialGradient::new(
            centre,
            0.0,
            centre,
            r,
            stops(&[colour, colour.alpha(0)]),
            SpreadMode::Pad,
            Transform::identity(),
        );
        if let (Some(shader), Some(circle)) = (shader, PathBuilder::from_circle(cx, cy, r)) {
            self.pixmap.fill_path(
                &circle,
                &paint(shader),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }

    /// Fills `path` with one colour.
    pub fn shape(&mut self, path: Option<Path>, c: Rgba) {
        if let Some(path) = path {
            self.pixmap.fill_path(
                &path,
                &solid(c),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }

    /// Fills `path` with a linear gradient from `(x0, y0)` to `(x1, y1)`.
    pub fn shape_linear(
        &mut self,
        path: Option<Path>,
        (x0, y0): (f32, f32),
        (x1, y1): (f32, f32),
        colours: &[Rgba],
    ) {
        let shader = linear_shader((x0, y0), (x1, y1), colours);
        if let (Some(path), Some(shader)) = (path, shader) {
            self.pixmap.fill_path(
                &path,
                &paint(shader),
                FillRule::Winding,
                Transform::identity(),
                None,
            );
        }
    }

    /// Strokes `path` `width` wide.
    pub fn line(&mut self, path: Option<Path>, c: Rgba, width: f32) {
        if let Some(path) = path {
            let stroke = Stroke {
                width,
                line_cap: sk::LineCap::Round,
                line_join: sk::LineJoin::Round,
                ..Stroke::default()
            };
            self.pixmap
                .stroke_path(&path, &solid(c), &stroke, Transform::identity(), None);
        }
    }

    /// Fills the band between two rounded rectangles: the outer one inset by `inset`, the inner
    /// one `thickness` further in; the middle stays transparent (a frame).
    pub fn frame(&mut self, inset: f32, thickness: f32, radius: f32, c: Rgba) {
        let (w, h) = (self.w(), self.h());
        let mut pb = PathBuilder::new();
        for (d, r) in [
            (inset, radius),
            (inset + thickness, (radius - thickness).max(0.0)),
        ] {
            if let Some(p) = rounded(d, d, w - 2.0 * d, h - 2.0 * d, r) {
                pb.push_path(&p);
            }
        }
        if let Some(path) = pb.finish() {
            self.pixmap.fill_path(
                &path,
                &solid(c),
                FillRule::EvenOdd,
                Transform::identity(),
                None,
            );
        }
    }

    /// A filled circle.
    pub fn circle(&mut self, cx: f32, cy: f32, r: f32, c: Rgba) {
        self.shape(PathBuilder::from_circle(cx, cy, r), c);
    }

    /// A filled axis-aligned rectangle.
    pub fn rect(&mut self, x: f32, y: f32, w: f32, h: f32, c: Rgba) {
        self.shape(Rect::from_xywh(x, y, w, h).map(PathBuilder::from_rect), c);
    }

    /// The pixels as straight (not premultiplied) RGBA.
    pub fn rgba(self) -> image::RgbaImage {
        let (w, h) = (self.pixmap.width(), self.pixmap.height());
        let data = self.pixmap.take_demultiplied();
        image::RgbaImage::from_raw(w, h, data).unwrap_or_else(|| image::RgbaImage::new(w, h))
    }
}

/// A polyline through `points` (open).
pub fn polyline(points: &[(f32, f32)]) -> Option<Path> {
    let mut pb = PathBuilder::new();
    let (first, rest) = points.split_first()?;
    pb.move_to(first.0, first.1);
    rest.iter().for_each(|(x, y)| pb.line_to(*x, *y));
    pb.finish()
}
