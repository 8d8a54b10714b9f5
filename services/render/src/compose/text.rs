//! Text and art words rasterised once into bitmaps: cosmic-text lays the glyphs out (with font
//! fallback, so CJK falls back to Noto CJK), their outlines become one tiny-skia path, and that
//! path is filled (plain or gradient), stroked for borders and shadowed.

use super::{Bitmap, colour};
use crate::error::MediaError;
use cosmic_text::{
    Align, Attrs, Buffer, Family, FontSystem, Metrics, Shaping, Style, SwashCache, Weight,
};
use resvg::tiny_skia as sk;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

/// Family used when a layer names none (or one not installed): CJK-capable.
pub const DEFAULT_FAMILY: &str = "Noto Sans CJK SC";

struct Fonts {
    system: FontSystem,
    cache: SwashCache,
}

fn fonts() -> &'static Mutex<Fonts> {
    static FONTS: OnceLock<Mutex<Fonts>> = OnceLock::new();
    FONTS.get_or_init(|| {
        Mutex::new(Fonts {
            system: FontSystem::new(),
            cache: SwashCache::new(),
        })
    })
}

/// Adds every font file under `dir` (the font store's user fonts) to the font database.
pub fn load_fonts_dir(dir: &Path) {
    if let Ok(mut f) = fonts().lock() {
        f.system.db_mut().load_fonts_dir(dir);
    }
}

/// How glyphs are filled.
#[derive(Debug, Clone, PartialEq)]
pub enum Fill {
    /// One colour (straight RGBA).
    Solid([u8; 4]),
    /// A vertical gradient from the first colour (top) to the second (bottom).
    Gradient([u8; 4], [u8; 4]),
}

/// Everything needed to draw a text block, in output pixels.
#[derive(Debug, Clone, PartialEq)]
pub struct TextStyle {
    /// The text; newlines break lines.
    pub content: String,
    /// Font size.
    pub font_size: f32,
    /// Line height as a multiple of the font size.
    pub line_height: f32,
    /// Family name, "" for the default.
    pub family: String,
    /// Bold.
    pub bold: bool,
    /// Italic.
    pub italic: bool,
    /// Underline.
    pub underline: bool,
    /// Strike-through.
    pub strike: bool,
    /// "left", "center" or "right".
    pub align: String,
    /// Extra spacing between letters.
    pub letter_spacing: f32,
    /// Glyph fill.
    pub fill: Fill,
    /// Strokes drawn under the fill, widest first: (width, colour).
    pub strokes: Vec<(f32, [u8; 4])>,
    /// Drop shadow: colour and offset.
    pub shadow: Option<([u8; 4], f32, f32)>,
    /// Box behind the text.
    pub background: Option<[u8; 4]>,
}

/// A rasterised block and where its top-left sits relative to the layer box's top-left.
#[derive(Debug, Clone)]
pub struct Sprite {
    /// The pixels.
    pub bitmap: Bitmap,
    /// Horizontal offset from the box.
    pub dx: i32,
    /// Vertical offset from the box.
    pub dy: i32,
}

impl Sprite {
    /// Crops the sprite to its visible pixels (text boxes are mostly empty), keeping where they
    /// land, so every frame blends only what shows.
    pub fn trim(mut self) -> Self {
        let (w, h) = (self.bitmap.w as usize, self.bitmap.h as usize);
        let (mut x0, mut y0, mut x1, mut y1) = (w, h, 0, 0);
        for y in 0..h {
            let row = &self.bitmap.px[y * w * 4..(y + 1) * w * 4];
            let first = row.chunks_exact(4).position(|p| p[3] != 0);
            let last = row.chunks_exact(4).rposition(|p| p[3] != 0);
            if let (Some(first), Some(last)) = (first, last) {
                x0 = x0.min(first);
                x1 = x1.max(last + 1);
                y0 = y0.min(y);
                y1 = y + 1;
            }
        }
        if x0 >= x1 || y0 >= y1 {
            self.bitmap = Bitmap::new(1, 1);
            return self;
        }
        if (x0, y0, x1, y1) == (0, 0, w, h) {
            return self;
        }
        let (cw, ch) = (x1 - x0, y1 - y0);
        let mut px = Vec::with_capacity(cw * ch * 4);
        for y in y0..y1 {
            px.extend_from_slice(&self.bitmap.px[(y * w + x0) * 4..(y * w + x1) * 4]);
        }
        let mut bitmap = Bitmap {
            w: cw as u32,
            h: ch as u32,
            px,
            opaque: false,
        };
        bitmap.update_opaque();
        Sprite {
            bitmap,
            dx: self.dx + x0 as i32,
            dy: self.dy + y0 as i32,
        }
    }
}

fn to_path(cmds: &[cosmic_text::Command], pb: &mut sk::PathBuilder, x: f32, y: f32) {
    use cosmic_text::Command as C;
    // Font outlines are y-up; the canvas is y-down.
    for c in cmds {
        match *c {
            C::MoveTo(p) => pb.move_to(x + p.x, y - p.y),
            C::LineTo(p) => pb.line_to(x + p.x, y - p.y),
            C::QuadTo(a, p) => pb.quad_to(x + a.x, y - a.y, x + p.x, y - p.y),
            C::CurveTo(a, b, p) => {
                pb.cubic_to(x + a.x, y - a.y, x + b.x, y - b.y, x + p.x, y - p.y)
            }
            C::Close => pb.close(),
        }
    }
}

/// Rasterises `style` for a layer box of `w`×`h` output pixels; the text is laid out to the box
/// width and centred vertically, and the bitmap grows past the box when the text overflows it.
pub fn rasterise(style: &TextStyle, w: u32, h: u32) -> Result<Sprite, MediaError> {
    let mut guard = fonts()
        .lock()
        .map_err(|_| MediaError::Draw("font system poisoned".to_owned()))?;
    let Fonts { system, cache } = &mut *guard;
    let size = style.font_size.max(1.0);
    let metrics = Metrics::new(size, size * style.line_height.max(0.5));
    let mut buffer = Buffer::new(system, metrics);
    buffer.set_size(Some(w.max(1) as f32), None);
    let family = if style.family.is_empty()
        || !system
            .db()
            .faces()
            .any(|f| f.families.iter().any(|(n, _)| *n == style.family))
    {
        DEFAULT_FAMILY
    } else {
        style.family.as_str()
    };
    let attrs = Attrs::new()
        .family(Family::Name(family))
        .weight(if style.bold {
            Weight::BOLD
        } else {
            Weight::NORMAL
        })
        .style(if style.italic {
            Style::Italic
        } else {
            Style::Normal
        })
        .letter_spacing(style.letter_spacing / size);
    let align = match style.align.as_str() {
        "left" => Align::Left,
        "right" => Align::Right,
        _ => Align::Center,
    };
    buffer.set_text(&style.content, &attrs, Shaping::Advanced, Some(align));
    buffer.shape_until_scroll(system, false);

    let mut pb = sk::PathBuilder::new();
    let mut deco = sk::PathBuilder::new();
    let mut text_h: f32 = 0.0;
    let runs: Vec<_> = buffer
        .layout_runs()
        .map(|r| (r.line_y, r.line_top, r.line_height, r.glyphs.to_vec()))
        .collect();
    for (line_y, line_top, line_h, glyphs) in &runs {
        text_h = text_h.max(line_top + line_h);
        let (mut x0, mut x1) = (f32::MAX, f32::MIN);
        for g in glyphs {
            let phys = g.physical((0.0, 0.0), 1.0);
            if let Some(cmds) = cache.get_outline_commands(system, phys.cache_key) {
                to_path(cmds, &mut pb, phys.x as f32, line_y + phys.y as f32);
            }
            x0 = x0.min(g.x);
            x1 = x1.max(g.x + g.w);
        }
        let thick = (size / 14.0).max(1.0);
        if x1 > x0 {
            if style.underline
                && let Some(r) = sk::Rect::from_xywh(x0, line_y + size * 0.12, x1 - x0, thick)
            {
                deco.push_rect(r);
            }
            if style.strike
                && let Some(r) = sk::Rect::from_xywh(x0, line_y - size * 0.32, x1 - x0, thick)
            {
                deco.push_rect(r);
            }
        }
    }
    drop(guard);
    let glyphs = pb.finish();
    let deco = deco.finish();

    let pad = style.strokes.iter().map(|s| s.0).fold(0.0, f32::max).ceil() as i32
        + style
            .shadow
            .map_or(0, |(_, dx, dy)| dx.abs().max(dy.abs()).ceil() as i32);
    let bh = (h as f32).max(text_h).ceil() as u32;
    let (pw, ph) = (w + 2 * pad as u32, bh + 2 * pad as u32);
    let mut pm = sk::Pixmap::new(pw.max(1), ph.max(1))
        .ok_or_else(|| MediaError::Draw("text bitmap too large".to_owned()))?;
    let top = pad as f32 + (bh as f32 - text_h) / 2.0;
    if let Some(bg) = style.background
        && let Some(r) = sk::Rect::from_xywh(pad as f32, pad as f32, w as f32, bh as f32)
    {
        let mut p = sk::Paint::default();
        p.set_color(colour::skia(bg));
        pm.fill_rect(r, &p, sk::Transform::identity(), None);
    }
    let at = sk::Transform::from_translate(pad as f32, top);
    let paths: Vec<&sk::Path> = [glyphs.as_ref(), deco.as_ref()]
        .into_iter()
        .flatten()
        .collect();
    let mut paint = sk::Paint {
        anti_alias: true,
        ..sk::Paint::default()
    };
    if let Some((c, dx, dy)) = style.shadow {
        paint.set_color(colour::skia(c));
        for p in &paths {
            pm.fill_path(
                p,
                &paint,
                sk::FillRule::Winding,
                at.pre_translate(dx, dy),
                None,
            );
        }
    }
    for (width, c) in &style.strokes {
        paint.set_color(colour::skia(*c));
        let stroke = sk::Stroke {
            width: width * 2.0,
            line_join: sk::LineJoin::Round,
            ..sk::Stroke::default()
        };
        for p in &paths {
            pm.stroke_path(p, &paint, &stroke, at, None);
        }
    }
    match style.fill {
        Fill::Solid(c) => paint.set_color(colour::skia(c)),
        Fill::Gradient(a, b) => {
            let grad = sk::LinearGradient::new(
                sk::Point::from_xy(0.0, 0.0),
                sk::Point::from_xy(0.0, text_h.max(1.0)),
                vec![
                    sk::GradientStop::new(0.0, colour::skia(a)),
                    sk::GradientStop::new(1.0, colour::skia(b)),
                ],
                sk::SpreadMode::Pad,
                sk::Transform::identity(),
            );
            match grad {
                Some(s) => paint.shader = s,
                None => paint.set_color(colour::skia(a)),
            }
        }
    }
    for p in &paths {
        pm.fill_path(p, &paint, sk::FillRule::Winding, at, None);
    }
    Ok(Sprite {
        bitmap: Bitmap::from_pixmap(pm),
        dx: -pad,
        dy: -pad - ((bh - h) / 2) as i32,
    })
}
