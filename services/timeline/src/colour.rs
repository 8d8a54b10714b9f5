//! Colour strings of the document, read one way by the renderer and the browser
//! (`frontend/src/editor/model/colour.ts` passes the same vectors).
//!
//! Accepted, after trimming ASCII whitespace and ignoring ASCII case: `#rgb`, `#rgba`, `#rrggbb`,
//! `#rrggbbaa`, `rgb(r, g, b)`, `rgba(r, g, b, a)` and `transparent`. Channels are clamped to
//! 0..=255 and rounded; alpha is clamped to 0..=1 and becomes `round(a · 255)`. Numbers are plain
//! decimals (`12`, `-3`, `.5`, `5.`, `1e2`); `nan`, `inf` and percentages are not colours.

/// Returns the straight (not premultiplied) RGBA of a colour string, or `None` for "" or an
/// unreadable value.
pub fn parse(s: &str) -> Option<[u8; 4]> {
    let s = trim(s).to_ascii_lowercase();
    if s == "transparent" {
        return Some([0, 0, 0, 0]);
    }
    if let Some(hex) = s.strip_prefix('#') {
        return parse_hex(hex);
    }
    // Like CSS, either name takes three or four arguments.
    let inner = s
        .strip_prefix("rgba(")
        .or_else(|| s.strip_prefix("rgb("))?
        .strip_suffix(')')?;
    let parts: Vec<f64> = inner.split(',').map(number).collect::<Option<_>>()?;
    match parts.as_slice() {
        [r, g, b] => Some([channel(*r), channel(*g), channel(*b), 255]),
        [r, g, b, a] => Some([channel(*r), channel(*g), channel(*b), alpha(*a)]),
        _ => None,
    }
}

/// Returns the RGB of a colour string (its alpha dropped), or `default` when it is unreadable.
pub fn rgb_or(s: &str, default: [u8; 3]) -> [u8; 3] {
    parse(s).map_or(default, |[r, g, b, _]| [r, g, b])
}

/// Returns `s` without leading and trailing ASCII whitespace (the CSS definition, which
/// JavaScript can match exactly; Unicode whitespace differs between the two languages).
fn trim(s: &str) -> &str {
    s.trim_matches(|c: char| c.is_ascii_whitespace())
}

/// Returns the RGBA of the hex digits after `#`.
fn parse_hex(hex: &str) -> Option<[u8; 4]> {
    // `to_digit(16)` accepts ASCII hex digits only, so signs and non-ASCII never slip through.
    let d: Vec<u8> = hex
        .chars()
        .map(|c| c.to_digit(16).and_then(|v| u8::try_from(v).ok()))
        .collect::<Option<_>>()?;
    let pair = |hi: u8, lo: u8| hi * 16 + lo;
    match d.as_slice() {
        [r, g, b] => Some([r * 17, g * 17, b * 17, 255]),
        [r, g, b, a] => Some([r * 17, g * 17, b * 17, a * 17]),
        [r1, r0, g1, g0, b1, b0] => Some([pair(*r1, *r0), pair(*g1, *g0), pair(*b1, *b0), 255]),
        [r1, r0, g1, g0, b1, b0, a1, a0] => Some([
            pair(*r1, *r0),
            pair(*g1, *g0),
            pair(*b1, *b0),
            pair(*a1, *a0),
        ]),
        _ => None,
    }
}

/// Returns the number an argument holds: `[+-]?(digits[.digits?] | .digits)([eE][+-]?digits)?`.
fn number(text: &str) -> Option<f64> {
    let t = trim(text);
    let unsigned = t.strip_prefix(['+', '-']).unwrap_or(t);
    // Rust also reads `inf` and `nan`; requiring a digit or point first leaves plain decimals,
    // the grammar colour.ts accepts.
    if !unsigned.starts_with(|c: char| c.is_ascii_digit() || c == '.') {
        return None;
    }
    t.parse().ok()
}

/// Returns a channel value clamped to 0..=255 and rounded.
fn channel(v: f64) -> u8 {
    // Clamped to 0..=255 first, so the cast cannot truncate.
    v.clamp(0.0, 255.0).round() as u8
}

/// Returns the alpha byte of an alpha 0..=1 (clamped): `round(a · 255)`.
fn alpha(a: f64) -> u8 {
    channel(a.clamp(0.0, 1.0) * 255.0)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_every_form() {
        assert_eq!(parse("#fff"), Some([255, 255, 255, 255]));
        assert_eq!(parse("#F0a8"), Some([255, 0, 170, 136]));
        assert_eq!(parse("#1e3a8a"), Some([0x1e, 0x3a, 0x8a, 255]));
        assert_eq!(parse(" #00000080\n"), Some([0, 0, 0, 128]));
        assert_eq!(parse("rgb(1, 2, 3)"), Some([1, 2, 3, 255]));
        assert_eq!(parse("RGBA(0, 0, 0, 0.5)"), Some([0, 0, 0, 128]));
        assert_eq!(parse("Transparent"), Some([0, 0, 0, 0]));
    }

    #[test]
    fn clamps_and_rounds() {
        assert_eq!(parse("rgba(300, -4, 127.5, 2)"), Some([255, 0, 128, 255]));
        assert_eq!(parse("rgba(.5, 5., 1e1, -1)"), Some([1, 5, 10, 0]));
    }

    #[test]
    fn refuses_everything_else() {
        for bad in [
            "",
            "   ",
            "#",
            "#12",
            "#12345",
            "#+f+f+f",
            "#ggg",
            "red",
            "rgb(1, 2)",
            "rgb(1, 2, 3, 4, 5)",
            "rgb(1, 2, 3",
            "rgb(nan, 0, 0)",
            "rgb(inf, 0, 0)",
            "rgb(50%, 0, 0)",
            "rgb(1,,3)",
        ] {
            assert_eq!(parse(bad), None, "{bad:?}");
        }
    }

    #[test]
    fn rgb_or_drops_alpha_or_defaults() {
        assert_eq!(rgb_or("#10203040", [9, 9, 9]), [16, 32, 48]);
        assert_eq!(rgb_or("nope", [9, 9, 9]), [9, 9, 9]);
    }
}
