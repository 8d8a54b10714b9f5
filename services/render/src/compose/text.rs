//! Text and art words rasterised once into bitmaps: cosmic-text lays the glyphs out (with font
//! fallback, so CJK falls back to Noto CJK and emoji to Noto Color Emoji), their outlines become one
//! tiny-skia path, and that path is filled (plain or gradient), stroked for borders and shadowed.
//! Colour glyphs (emoji) have no outline: they are drawn as the colour images the font carries,
//! over the fill, so an emoji keeps its own colours whatever the text's colour.

use super::{Bitmap, colour};
use crate::error::MediaError;
use cosmic_text::{
    Align, Attrs, Buffer, Family, FontSystem, Metrics, Shaping, Style, SwashCache, SwashContent,
    Weight,
};
use resvg::tiny_skia as sk;
use std::path::Path;
use std::sync::{Mutex, OnceLock};

/// Family used when a layer names none (or one not installed): CJK-capable.
pub const DEFAULT_FAMILY: &str = "Noto Sans CJK SC";
/// Family emoji are drawn in, as browsers draw them: in colour, whatever the layer's family.
pub const EMOJI_FAMILY: &str = "Noto Color Emoji";

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
    /// Returns whether the sprite reaches past a `w`×`h` box: text overflowing it, or a shadow or
    /// outline beyond its edge, which the stage draws whole.
    pub fn reaches_past(&self, w: u32, h: u32) -> bool {
        self.dx < 0
            || self.dy < 0
            || self.dx + self.bitmap.w as i32 > w as i32
            || self.dy + self.bitmap.h as i32 > h as i32
    }

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

/// The text cut into runs, each marked whether it is drawn as emoji. Like browsers: a character
/// whose default presentation is emoji (unless VS15 follows), one that may be emoji followed by VS16,
/// and what joins or modifies them (ZWJ sequences, skin tones, keycaps, flags). Without this the
/// fallback finds monochrome outlines of some emoji in other fonts first (DejaVu Sans has 😀).
// Public for the crate's tests in tests/it.
#[doc(hidden)]
pub fn emoji_runs(text: &str) -> Vec<(std::ops::Range<usize>, bool)> {
    use unicode_properties::{EmojiStatus as S, UnicodeEmoji};
    let chars: Vec<(usize, char)> = text.char_indices().collect();
    let mut marks = vec![false; chars.len()];
    for (i, &(_, c)) in chars.iter().enumerate() {
        let next = chars.get(i + 1).map(|&(_, n)| n);
        let prev_emoji = i > 0 && marks[i - 1];
        marks[i] = match c.emoji_status() {
            S::EmojiPresentation
            | S::EmojiPresentationAndModifierBase
            | S::EmojiPresentationAndEmojiComponent
            | S::EmojiPresentationAndModifierAndEmojiComponent => next != Some('\u{FE0E}'),
            S::EmojiModifierBase | S::EmojiOther | S::EmojiOtherAndEmojiComponent => {
                next == Some('\u{FE0F}') || (prev_emoji && chars[i - 1].1 == '\u{200D}')
            }
            // VS16, ZWJ, the keycap and tag characters belong to the emoji they follow.
            S::NonEmojiButEmojiComponent => prev_emoji,
            // The enum is non-exhaustive: a status a later Unicode adds draws as text.
            _ => prev_emoji && c == '\u{20E3}',
        };
    }
    let mut runs: Vec<(std::ops::Range<usize>, bool)> = Vec::new();
    for (i, &(at, c)) in chars.iter().enumerate() {
        let end = at + c.len_utf8();
        match runs.last_mut() {
            Some((run, is)) if *is == marks[i] => run.end = end,
            _ => runs.push((at..end, marks[i])),
        }
    }
    runs
}

/// Whether `c` is written in a script without spaces between words: Han, kana, Hangul.
fn is_cjk(c: char) -> bool {
    matches!(u32::from(c),
        0x1100..=0x11FF | 0x2E80..=0x2FDF | 0x3005..=0x3007 | 0x3021..=0x3029 | 0x3031..=0x3035
        | 0x3038..=0x303C | 0x3040..=0x30FF | 0x3130..=0x318F | 0x31A0..=0x31BF | 0x31F0..=0x31FF
        | 0x3400..=0x4DBF | 0x4E00..=0x9FFF | 0xA960..=0xA97F | 0xAC00..=0xD7FF | 0xF900..=0xFAFF
        | 0xFF66..=0xFF9F | 0x20000..=0x3FFFF)
}

/// The text with a word joiner (U+2060) between two letters or digits next to each other when
/// either is CJK, so lines break at spaces and punctuation, and inside a run of CJK letters only
/// when it is longer than the line (the glyph fallback of the wrap). Titles are short and mix
/// scripts ("你好 Reelforge 铃声"): breaking between any two ideographs split 铃声 over two lines.
/// The stage does the same with CSS `word-break: keep-all` and `overflow-wrap: anywhere`
/// (frontend/src/editor/page/textBoxStyle.ts).
// Public for the crate's tests in tests/it.
#[doc(hidden)]
pub fn keep_words(text: &str) -> std::borrow::Cow<'_, str> {
    let joins = |a: char, b: char| a.is_alphanumeric() && b.is_alphanumeric() && (is_cjk(a) || is_cjk(b));
    let chars: Vec<char> = text.chars().collect();
    if !chars.windows(2).any(|w| joins(w[0], w[1])) {
        return std::borrow::Cow::Borrowed(text);
    }
    let mut out = String::with_capacity(text.len() + chars.len() * 3);
    for (i, &c) in chars.iter().enumerate() {
        if i > 0 && joins(chars[i - 1], c) {
            out.push('\u{2060}');
        }
        out.push(c);
    }
    std::borrow::Cow::Owned(out)
}

/// The colour image of a glyph that has no outline (a bitmap emoji), premultiplied, with its
/// placement: left bearing and height above the baseline. `None` for a glyph with no colour image.
fn colour_glyph(
    system: &mut FontSystem,
    cache: &mut SwashCache,
    key: cosmic_text::CacheKey,
) -> Option<(i32, i32, sk::Pixmap)> {
    let image = cache.get_image(system, key).as_ref()?;
    if image.content != SwashContent::Color {
        return None;
    }
    let p = image.placement;
    let size = sk::IntSize::from_wh(p.width, p.height)?;
    // swash hands out straight RGBA; tiny-skia draws premultiplied.
    let px: Vec<u8> = image
        .data
        .chunks_exact(4)
        .flat_map(|c| {
            let p = sk::ColorU8::from_rgba(c[0], c[1], c[2], c[3]).premultiply();
            [p.red(), p.green(), p.blue(), p.alpha()]
        })
        .collect();
    Some((p.left, p.top, sk::Pixmap::from_vec(px, size)?))
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
    let emoji = attrs.clone().family(Family::Name(EMOJI_FAMILY));
    let content = keep_words(&style.content);
    buffer.set_rich_text(
        emoji_runs(&content)
            .into_iter()
            .map(|(run, is_emoji)| (&content[run], if is_emoji { emoji.clone() } else { attrs.clone() })),
        &attrs,
        Shaping::Advanced,
        Some(align),
    );
    buffer.shape_until_scroll(system, false);

    let mut pb = sk::PathBuilder::new();
    let mut deco = sk::PathBuilder::new();
    let mut text_h: f32 = 0.0;
    let mut colour_glyphs: Vec<(sk::Pixmap, i32, i32)> = Vec::new();
    let runs: Vec<_> = buffer
        .layout_runs()
        .map(|r| (r.line_y, r.line_top, r.line_height, r.glyphs.to_vec()))
        .collect();
    for (line_y, line_top, line_h, glyphs) in &runs {
        text_h = text_h.max(line_top + line_h);
        let (mut x0, mut x1) = (f32::MAX, f32::MIN);
        for g in glyphs {
            let phys = g.physical((0.0, 0.0), 1.0);
            match cache.get_outline_commands(system, phys.cache_key) {
                Some(cmds) if !cmds.is_empty() => {
                    to_path(cmds, &mut pb, phys.x as f32, line_y + phys.y as f32)
                }
                _ => {
                    if let Some(g) = colour_glyph(system, cache, phys.cache_key) {
                        let (left, top, pm) = g;
                        colour_glyphs.push((pm, phys.x + left, *line_y as i32 + phys.y - top));
                    }
                }
            }
            x0 = x0.min(g.x);
            x1 = x1.max(g.x + g.w);
        }
        let lines = reelforge_timeline::catalogue::text::TEXT_RULES;
        let thick = lines.thickness(f64::from(size)) as f32;
        if x1 > x0 {
            if style.underline
                && let Some(r) = sk::Rect::from_xywh(x0, line_y + size * lines.underline_offset_em as f32, x1 - x0, thick)
            {
                deco.push_rect(r);
            }
            if style.strike
                && let Some(r) = sk::Rect::from_xywh(x0, line_y + size * lines.strike_offset_em as f32, x1 - x0, thick)
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
    for (glyph, x, y) in &colour_glyphs {
        pm.draw_pixmap(
            *x,
            *y,
            glyph.as_ref(),
            &sk::PixmapPaint {
                quality: sk::FilterQuality::Bilinear,
                ..sk::PixmapPaint::default()
            },
            at,
            None,
        );
    }
    Ok(Sprite {
        bitmap: Bitmap::from_pixmap(pm),
        dx: -pad,
        dy: -pad - ((bh - h) / 2) as i32,
    })
}
