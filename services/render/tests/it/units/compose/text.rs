//! `compose::text`: emoji runs, CJK words kept whole, line breaks, colour emoji among CJK and Latin text.

use reelforge_render::MediaError;
use reelforge_render::compose::text::{Fill, Sprite, TextStyle, emoji_runs, keep_words, rasterise};

fn style(content: &str) -> TextStyle {
    TextStyle {
        content: content.to_owned(),
        font_size: 64.0,
        line_height: 1.2,
        family: String::new(),
        bold: false,
        italic: false,
        underline: false,
        strike: false,
        align: "center".to_owned(),
        letter_spacing: 0.0,
        fill: Fill::Solid([255, 255, 255, 255]),
        strokes: Vec::new(),
        shadow: None,
        background: None,
    }
}

/// Pixels whose channels differ by more than `spread`: white or grey text has none.
fn coloured(sprite: &Sprite, spread: u8) -> usize {
    sprite
        .bitmap
        .px
        .chunks_exact(4)
        .filter(|p| p[3] > 128 && p[..3].iter().max().unwrap_or(&0) - p[..3].iter().min().unwrap_or(&0) > spread)
        .count()
}

// These fail on a machine without the fonts the product promises (`make run` installs them):
// a missing emoji font draws nothing or a box in the text's own colour.
#[test]
fn emoji_runs_follow_presentation() {
    let runs = |t: &'static str| -> Vec<(&'static str, bool)> {
        emoji_runs(t).into_iter().map(|(r, e)| (&t[r], e)).collect()
    };
    assert_eq!(runs("你好 🎬 铃声"), [("你好 ", false), ("🎬", true), (" 铃声", false)]);
    // Digits and © are text unless VS16 asks for emoji; a keycap sequence is one emoji.
    assert_eq!(runs("1© 1\u{FE0F}\u{20E3}"), [("1© ", false), ("1\u{FE0F}\u{20E3}", true)]);
    // A ZWJ family and a skin tone stay whole; VS15 asks for text.
    assert_eq!(runs("👩\u{200D}👧👍🏽"), [("👩\u{200D}👧👍🏽", true)]);
    assert_eq!(runs("a⌚\u{FE0E}"), [("a⌚\u{FE0E}", false)]);
    assert!(runs("").is_empty());
}

#[test]
fn cjk_words_are_kept_whole() {
    assert_eq!(keep_words("你好 Reelforge 铃声"), "你\u{2060}好 Reelforge 铃\u{2060}声");
    assert_eq!(keep_words("铃声Reelforge，彩铃"), "铃\u{2060}声\u{2060}Reelforge，彩\u{2060}铃");
    assert!(matches!(keep_words("Reelforge 2026 🎬"), std::borrow::Cow::Borrowed(_)));
}

/// The ink width of each line: rows with ink, grouped where blank rows part them.
fn line_widths(sprite: &Sprite) -> Vec<u32> {
    let (w, h) = (sprite.bitmap.w, sprite.bitmap.h);
    let inked = |x: u32, y: u32| sprite.bitmap.px[((y * w + x) * 4 + 3) as usize] > 128;
    let mut lines = Vec::new();
    let mut span: Option<(u32, u32)> = None;
    for y in 0..=h {
        let row = (y < h).then(|| (0..w).filter(|&x| inked(x, y)).fold(None, |r: Option<(u32, u32)>, x| Some(r.map_or((x, x), |(a, b)| (a.min(x), b.max(x))))));
        match row.flatten() {
            Some((a, b)) => span = Some(span.map_or((a, b), |(s, e)| (s.min(a), e.max(b)))),
            None => {
                if let Some((a, b)) = span.take() {
                    lines.push(b - a);
                }
            }
        }
    }
    lines
}

/// A title one character too wide for its line moves its last word down whole: 铃声 on the
/// second line, not 声 alone; a run of CJK letters longer than a line still breaks inside.
#[test]
fn a_title_wraps_between_words() -> Result<(), MediaError> {
    // 64 px glyphs: the whole title is 560 px wide, "你好 Reelforge 铃" about 500.
    let widths = line_widths(&rasterise(&style("你好 Reelforge 铃声"), 530, 400)?);
    assert_eq!(widths.len(), 2, "two lines: {widths:?}");
    assert!(widths[1] > 100, "the second line holds 铃声 (two glyphs): {widths:?}");
    let long = line_widths(&rasterise(&style("欢迎使用视频彩铃服务欢迎使用视频彩铃服务"), 600, 400)?);
    assert!(long.len() >= 2 && long[0] > 450, "a run longer than the line fills the first line: {long:?}");
    Ok(())
}

#[test]
fn emoji_are_drawn_in_their_own_colours() -> Result<(), MediaError> {
    let sprite = rasterise(&style("😀🍎"), 300, 100)?;
    assert!(coloured(&sprite, 60) > 200, "emoji drawn without colour");
    Ok(())
}

#[test]
fn chinese_and_latin_text_with_emoji_draws_every_part() -> Result<(), MediaError> {
    let plain = rasterise(&style("你好 Reelforge 铃声"), 1200, 100)?;
    let with_emoji = rasterise(&style("你好 Reelforge 🎬😀 铃声"), 1200, 100)?;
    let ink = |s: &Sprite| s.bitmap.px.chunks_exact(4).filter(|p| p[3] > 128).count();
    assert!(ink(&plain) > 2000, "CJK and Latin glyphs missing");
    assert!(coloured(&with_emoji, 60) > 200, "the emoji among text lost its colour");
    assert_eq!(coloured(&plain, 60), 0);
    Ok(())
}
