//! The borders of an art word: readings of `border1` and `border2`, which the document keeps
//! exactly as written (a colour string or an object `{color, width}`).

use super::kinds::ArtWordLayer;
use crate::colour;
use serde_json::Value;

/// Width of a border given without one, editing pixels.
pub const DEFAULT_BORDER_WIDTH: f64 = 2.0;

/// A border stroked around an art word's glyphs.
#[derive(Debug, Clone, PartialEq)]
pub struct ArtBorder {
    /// The colour as written; [`colour::parse`] reads it.
    pub color: String,
    /// The stroke width in editing pixels, above 0.
    pub width: f64,
}

impl ArtWordLayer {
    /// Returns the first border, or `None` when there is none to draw.
    pub fn border1(&self) -> Option<ArtBorder> {
        read(&self.border1)
    }

    /// Returns the second border, or `None` when there is none to draw.
    pub fn border2(&self) -> Option<ArtBorder> {
        read(&self.border2)
    }

    /// Returns the strokes to draw, outermost (widest) first: with both borders, the second
    /// sits outside the first, so it is stroked at their summed width beneath the first.
    pub fn borders(&self) -> Vec<ArtBorder> {
        match (self.border1(), self.border2()) {
            (Some(inner), Some(outer)) => vec![
                ArtBorder {
                    color: outer.color,
                    width: inner.width + outer.width,
                },
                inner,
            ],
            (one, other) => one.or(other).into_iter().collect(),
        }
    }
}

/// Returns the border a `border1`/`border2` value describes: a colour string (width
/// [`DEFAULT_BORDER_WIDTH`]) or `{color, width}`, its width a number or a numeric string
/// (anything else reads as the default). `None` when the colour is missing, empty or
/// unreadable, or the width is not above 0, since such a border draws nothing.
fn read(v: &Value) -> Option<ArtBorder> {
    let (color, width) = match v {
        Value::String(c) => (c.as_str(), DEFAULT_BORDER_WIDTH),
        Value::Object(o) => (
            o.get("color").and_then(Value::as_str)?,
            o.get("width")
                .and_then(width_of)
                .unwrap_or(DEFAULT_BORDER_WIDTH),
        ),
        _ => return None,
    };
    colour::parse(color)?;
    (width > 0.0).then(|| ArtBorder {
        color: color.to_owned(),
        width,
    })
}

/// Returns the width a JSON value holds, when it is a number or a numeric string.
fn width_of(v: &Value) -> Option<f64> {
    match v {
        Value::Number(n) => n.as_f64(),
        Value::String(s) => s.trim().parse().ok().filter(|w: &f64| w.is_finite()),
        _ => None,
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn art(border1: Value, border2: Value) -> ArtWordLayer {
        ArtWordLayer {
            border1,
            border2,
            ..ArtWordLayer::default()
        }
    }

    fn border(color: &str, width: f64) -> ArtBorder {
        ArtBorder {
            color: color.into(),
            width,
        }
    }

    #[test]
    fn reads_strings_and_objects() {
        let a = art(
            json!("#ff0000"),
            json!({"color": "rgb(0, 0, 255)", "width": 5}),
        );
        assert_eq!(a.border1(), Some(border("#ff0000", 2.0)));
        assert_eq!(a.border2(), Some(border("rgb(0, 0, 255)", 5.0)));
        let a = art(
            json!({"color": "#000", "width": " 3.5 "}),
            json!({"color": "#fff"}),
        );
        assert_eq!(a.border1(), Some(border("#000", 3.5)));
        assert_eq!(a.border2(), Some(border("#fff", 2.0)));
        let a = art(
            json!({"color": "#000", "width": "wide"}),
            json!({"color": "#fff", "width": null}),
        );
        assert_eq!(a.border1(), Some(border("#000", 2.0)));
        assert_eq!(a.border2(), Some(border("#fff", 2.0)));
    }

    #[test]
    fn nothing_to_draw_is_none() {
        for v in [
            Value::Null,
            json!(""),
            json!("not a colour"),
            json!(3),
            json!(["#fff"]),
            json!({}),
            json!({"color": ""}),
            json!({"color": 7, "width": 2}),
            json!({"color": "#fff", "width": 0}),
            json!({"color": "#fff", "width": "-1"}),
        ] {
            assert_eq!(art(v.clone(), Value::Null).border1(), None, "{v}");
        }
    }

    #[test]
    fn second_border_is_stroked_outside_the_first() {
        let a = art(
            json!({"color": "#111", "width": 3}),
            json!({"color": "#222", "width": 4}),
        );
        assert_eq!(a.borders(), vec![border("#222", 7.0), border("#111", 3.0)]);
        assert_eq!(
            art(json!("#111"), Value::Null).borders(),
            vec![border("#111", 2.0)]
        );
        assert_eq!(
            art(Value::Null, json!("#222")).borders(),
            vec![border("#222", 2.0)]
        );
        assert_eq!(
            art(json!(""), json!({"color": "#222", "width": 0})).borders(),
            vec![]
        );
    }

    #[test]
    fn reading_keeps_the_document_as_written() -> Result<(), serde_json::Error> {
        let text = r##"{"border1":{"color":"#111","width":"3","style":"x"},"border2":"#222"}"##;
        let a: ArtWordLayer = serde_json::from_str(text)?;
        assert_eq!(a.borders().len(), 2);
        let again = serde_json::to_value(&a)?;
        assert_eq!(
            again["border1"],
            json!({"color": "#111", "width": "3", "style": "x"})
        );
        assert_eq!(again["border2"], json!("#222"));
        Ok(())
    }
}
