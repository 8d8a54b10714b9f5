//! The parameters of PPT_CONVERTER, VIDEO_BEAUTY and INCREASE_RESOLUTION (docs/toolbox.md), each
//! refusal naming its field, and the output size of an upscale against its input.

use serde_json::{Map, Value};

use crate::error::ParamError;
use crate::params::even;

/// PPT_CONVERTER: a presentation's pages as a video.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Slides {
    /// How long each page shows, milliseconds.
    pub page_ms: u64,
    /// The crossfade into the next page, milliseconds (0: a cut), taken from the end of each page
    /// but the last, so the video lasts pages × `page_ms`.
    pub crossfade_ms: u64,
    /// The frame's box: 720 (1280×720) or 1080 (1920×1080); the page is fitted inside it.
    pub height: u32,
}

/// VIDEO_BEAUTY: skin smoothing and tone.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Beautify {
    /// 0–100: how far the skin's luma moves towards its edge-preserving smoothing.
    pub strength: u32,
    /// −100 to 100: the skin's brightness.
    pub brightness: i32,
    /// −100 to 100: the skin's warmth (redder up, bluer down).
    pub warmth: i32,
}

/// How large an upscale makes the video.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum UpscaleTarget {
    /// Twice the width and height.
    Double,
    /// The shorter side 1080.
    Hd,
    /// The shorter side 2160 (4K).
    Uhd,
}

impl UpscaleTarget {
    /// The wire name.
    pub fn name(self) -> &'static str {
        match self {
            Self::Double => "2x",
            Self::Hd => "1080p",
            Self::Uhd => "2160p",
        }
    }
}

/// INCREASE_RESOLUTION: a classical upscale (Lanczos) and an unsharp mask, no model.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub struct Upscale {
    /// The output's size.
    pub target: UpscaleTarget,
    /// 0–100: the unsharp mask's amount (100: the detail doubled).
    pub sharpen: u32,
}

/// Seconds a page shows: least, most, default.
pub const PAGE_SECONDS: (f64, f64, f64) = (0.5, 60.0, 3.0);
/// Longest crossfade, milliseconds.
pub const MAX_CROSSFADE_MS: u64 = 2000;
/// The largest picture an upscale makes: 4K UHD, either way round.
pub const MAX_UPSCALE: (u32, u32) = (3840, 2160);
/// The beauty's strength unless asked otherwise.
pub const DEFAULT_STRENGTH: u32 = 60;
/// The upscale's sharpening unless asked otherwise.
pub const DEFAULT_SHARPEN: u32 = 50;

/// The object of the parameters, refusing keys the tool does not know.
fn fields<'a>(value: &'a Value, known: &[&str]) -> Result<&'a Map<String, Value>, ParamError> {
    let map = value.as_object().ok_or_else(|| ParamError::new("params", "must be an object"))?;
    if let Some(k) = map.keys().find(|k| !known.contains(&k.as_str())) {
        return Err(ParamError::new(format!("params.{k}"), format!("unknown parameter; expected one of {}", known.join(", "))));
    }
    Ok(map)
}

/// The whole number `key` within `lo..=hi`, or `default` when it is absent.
fn int(map: &Map<String, Value>, key: &str, (lo, hi): (i64, i64), default: i64) -> Result<i64, ParamError> {
    let Some(v) = map.get(key).filter(|v| !v.is_null()) else { return Ok(default) };
    let n = v.as_i64().ok_or_else(|| ParamError::new(format!("params.{key}"), "must be a whole number"))?;
    if !(lo..=hi).contains(&n) {
        return Err(ParamError::new(format!("params.{key}"), format!("must be between {lo} and {hi}")));
    }
    Ok(n)
}

/// The word `key` among `words`, or `default` when it is absent.
fn word<'a>(map: &'a Map<String, Value>, key: &str, words: &[&'a str], default: &'a str) -> Result<&'a str, ParamError> {
    let Some(v) = map.get(key).filter(|v| !v.is_null()) else { return Ok(default) };
    let w = v.as_str().unwrap_or_default();
    words.iter().copied().find(|x| *x == w).ok_or_else(|| ParamError::new(format!("params.{key}"), format!("must be one of {}", words.join(", "))))
}

impl Slides {
    /// Reads `{secondsPerPage?, crossfadeMs?, resolution?: "720p" | "1080p"}`.
    pub fn parse(value: &Value) -> Result<Self, ParamError> {
        let map = fields(value, &["secondsPerPage", "crossfadeMs", "resolution"])?;
        let seconds = match map.get("secondsPerPage").filter(|v| !v.is_null()) {
            None => PAGE_SECONDS.2,
            Some(v) => v.as_f64().ok_or_else(|| ParamError::new("params.secondsPerPage", "must be a number"))?,
        };
        if !(PAGE_SECONDS.0..=PAGE_SECONDS.1).contains(&seconds) {
            return Err(ParamError::new("params.secondsPerPage", format!("must be between {} and {}", PAGE_SECONDS.0, PAGE_SECONDS.1)));
        }
        let page_ms = (seconds * 1000.0).round() as u64;
        let crossfade_ms = int(map, "crossfadeMs", (0, MAX_CROSSFADE_MS as i64), 0)? as u64;
        if crossfade_ms >= page_ms {
            return Err(ParamError::new("params.crossfadeMs", "must be shorter than a page (secondsPerPage)"));
        }
        let height = if word(map, "resolution", &["720p", "1080p"], "720p")? == "720p" { 720 } else { 1080 };
        Ok(Self { page_ms, crossfade_ms, height })
    }

    /// The parameters as the contract writes them.
    pub fn to_json(&self) -> Value {
        serde_json::json!({
            "secondsPerPage": self.page_ms as f64 / 1000.0,
            "crossfadeMs": self.crossfade_ms,
            "resolution": if self.height == 720 { "720p" } else { "1080p" },
        })
    }

    /// The frame for pages of `width`×`height` (any unit): the page fitted inside the 16:9 box of
    /// the resolution, both sides even; a page within 1 % of 16:9 (a rendering's rounding) fills it.
    pub fn frame(&self, width: u32, height: u32) -> (u32, u32) {
        let (bw, bh) = (f64::from(self.height) * 16.0 / 9.0, f64::from(self.height));
        let aspect = f64::from(width.max(1)) / f64::from(height.max(1));
        if (aspect / (bw / bh) - 1.0).abs() < 0.01 {
            return (bw as u32, bh as u32);
        }
        let scale = (bw / f64::from(width.max(1))).min(bh / f64::from(height.max(1)));
        (even((f64::from(width) * scale).floor() as u32).min(bw as u32), even((f64::from(height) * scale).floor() as u32).min(bh as u32))
    }
}

impl Beautify {
    /// Reads `{strength?: 0–100, brightness?: −100–100, warmth?: −100–100}`.
    pub fn parse(value: &Value) -> Result<Self, ParamError> {
        let map = fields(value, &["strength", "brightness", "warmth"])?;
        Ok(Self {
            strength: int(map, "strength", (0, 100), i64::from(DEFAULT_STRENGTH))? as u32,
            brightness: int(map, "brightness", (-100, 100), 0)? as i32,
            warmth: int(map, "warmth", (-100, 100), 0)? as i32,
        })
    }

    /// The parameters as the contract writes them.
    pub fn to_json(&self) -> Value {
        serde_json::json!({"strength": self.strength, "brightness": self.brightness, "warmth": self.warmth})
    }
}

impl Upscale {
    /// Reads `{target?: "2x" | "1080p" | "2160p", sharpen?: 0–100}`.
    pub fn parse(value: &Value) -> Result<Self, ParamError> {
        let map = fields(value, &["target", "sharpen"])?;
        let target = match word(map, "target", &["2x", "1080p", "2160p"], "2x")? {
            "2x" => UpscaleTarget::Double,
            "1080p" => UpscaleTarget::Hd,
            _ => UpscaleTarget::Uhd,
        };
        Ok(Self { target, sharpen: int(map, "sharpen", (0, 100), i64::from(DEFAULT_SHARPEN))? as u32 })
    }

    /// The parameters as the contract writes them.
    pub fn to_json(&self) -> Value {
        serde_json::json!({"target": self.target.name(), "sharpen": self.sharpen})
    }

    /// The output's size for a `width`×`height` input, both sides even; refused as `params.target`
    /// where it would not be larger than the input or would pass 4K.
    pub fn size(&self, width: u32, height: u32) -> Result<(u32, u32), ParamError> {
        let (w, h) = (f64::from(width.max(1)), f64::from(height.max(1)));
        let scale = match self.target {
            UpscaleTarget::Double => 2.0,
            UpscaleTarget::Hd => 1080.0 / w.min(h),
            UpscaleTarget::Uhd => 2160.0 / w.min(h),
        };
        let (ow, oh) = (even((w * scale).round() as u32), even((h * scale).round() as u32));
        if ow <= width || oh <= height {
            return Err(ParamError::new("params.target", format!("the video ({width}×{height}) is already at least {}: nothing to upscale", self.target.name())));
        }
        let (long, short) = (ow.max(oh), ow.min(oh));
        if long > MAX_UPSCALE.0 || short > MAX_UPSCALE.1 {
            return Err(ParamError::new(
                "params.target",
                format!("{} of {width}×{height} would be {ow}×{oh}, past 4K ({}×{})", self.target.name(), MAX_UPSCALE.0, MAX_UPSCALE.1),
            ));
        }
        Ok((ow, oh))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn field<T>(r: Result<T, ParamError>) -> String {
        r.err().map(|e| e.field).unwrap_or_default()
    }

    #[test]
    fn each_refusal_names_its_field() {
        assert_eq!(field(Slides::parse(&json!({"secondsPerPage": 0.2}))), "params.secondsPerPage");
        assert_eq!(field(Slides::parse(&json!({"secondsPerPage": "3"}))), "params.secondsPerPage");
        assert_eq!(field(Slides::parse(&json!({"secondsPerPage": 1, "crossfadeMs": 1000}))), "params.crossfadeMs");
        assert_eq!(field(Slides::parse(&json!({"crossfadeMs": 2500}))), "params.crossfadeMs");
        assert_eq!(field(Slides::parse(&json!({"resolution": "4k"}))), "params.resolution");
        assert_eq!(field(Slides::parse(&json!({"transition": "wipe"}))), "params.transition");
        assert_eq!(field(Beautify::parse(&json!({"strength": 101}))), "params.strength");
        assert_eq!(field(Beautify::parse(&json!({"warmth": -101}))), "params.warmth");
        assert_eq!(field(Beautify::parse(&json!({"brightness": 1.5}))), "params.brightness");
        assert_eq!(field(Upscale::parse(&json!({"target": "3x"}))), "params.target");
        assert_eq!(field(Upscale::parse(&json!({"sharpen": -1}))), "params.sharpen");
    }

    #[test]
    fn defaults_round_trip_and_sizes_fit() -> Result<(), ParamError> {
        let slides = Slides::parse(&json!({}))?;
        assert_eq!(slides, Slides { page_ms: 3000, crossfade_ms: 0, height: 720 });
        assert_eq!(Slides::parse(&slides.to_json())?, slides);
        assert_eq!(slides.frame(1920, 1081), (1280, 720));
        assert_eq!(slides.frame(1024, 768), (960, 720));
        assert_eq!(Slides { height: 1080, ..slides }.frame(768, 1024), (810, 1080));
        let look = Beautify::parse(&json!({"warmth": 20}))?;
        assert_eq!((look.strength, look.warmth, Beautify::parse(&look.to_json())?), (60, 20, look));
        let up = Upscale::parse(&json!({}))?;
        assert_eq!((up.size(320, 180)?, Upscale::parse(&up.to_json())?), ((640, 360), up));
        assert_eq!(Upscale { target: UpscaleTarget::Hd, sharpen: 0 }.size(640, 360)?, (1920, 1080));
        assert_eq!(Upscale { target: UpscaleTarget::Hd, sharpen: 0 }.size(360, 640)?, (1080, 1920));
        assert_eq!(field(Upscale { target: UpscaleTarget::Double, sharpen: 0 }.size(1920, 1080).map(|_| ())), "");
        assert_eq!(field(Upscale { target: UpscaleTarget::Double, sharpen: 0 }.size(2560, 1440)), "params.target");
        assert_eq!(field(Upscale { target: UpscaleTarget::Hd, sharpen: 0 }.size(1920, 1080)), "params.target");
        Ok(())
    }
}
