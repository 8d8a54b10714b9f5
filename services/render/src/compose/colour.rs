//! Colour strings of the document: `#rgb`, `#rrggbb`, `#rrggbbaa`, `rgb(…)` and `rgba(…)`.

/// Returns straight RGBA of a colour string, or `None` for "" or an unreadable value.
pub fn parse(s: &str) -> Option<[u8; 4]> {
    let s = s.trim();
    if let Some(hex) = s.strip_prefix('#') {
        let digit = |i: usize| u8::from_str_radix(hex.get(i..i + 1)?, 16).ok();
        let byte = |i: usize| u8::from_str_radix(hex.get(i..i + 2)?, 16).ok();
        return match hex.len() {
            3 => Some([digit(0)? * 17, digit(1)? * 17, digit(2)? * 17, 255]),
            6 => Some([byte(0)?, byte(2)?, byte(4)?, 255]),
            8 => Some([byte(0)?, byte(2)?, byte(4)?, byte(6)?]),
            _ => None,
        };
    }
    let inner = s
        .strip_prefix("rgba(")
        .or_else(|| s.strip_prefix("rgb("))?
        .strip_suffix(')')?;
    let parts: Vec<f64> = inner
        .split(',')
        .map(|p| p.trim().parse::<f64>().ok())
        .collect::<Option<_>>()?;
    let c = |v: f64| v.clamp(0.0, 255.0).round() as u8;
    match parts.as_slice() {
        [r, g, b] => Some([c(*r), c(*g), c(*b), 255]),
        [r, g, b, a] => Some([c(*r), c(*g), c(*b), c(a * 255.0)]),
        _ => None,
    }
}

/// Returns the opaque RGB of a colour string, or `default`.
pub fn rgb_or(s: &str, default: [u8; 3]) -> [u8; 3] {
    parse(s).map_or(default, |[r, g, b, _]| [r, g, b])
}

/// Returns a tiny-skia colour of straight RGBA bytes.
pub fn skia(c: [u8; 4]) -> resvg::tiny_skia::Color {
    resvg::tiny_skia::Color::from_rgba8(c[0], c[1], c[2], c[3])
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parses_forms() {
        assert_eq!(parse("#fff"), Some([255, 255, 255, 255]));
        assert_eq!(parse("#1e3a8a"), Some([0x1e, 0x3a, 0x8a, 255]));
        assert_eq!(parse("#00000080"), Some([0, 0, 0, 128]));
        assert_eq!(parse("rgba(0, 0, 0, 0.5)"), Some([0, 0, 0, 128]));
        assert_eq!(parse(""), None);
        assert_eq!(parse("#12"), None);
    }
}
