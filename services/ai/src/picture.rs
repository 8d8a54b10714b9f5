//! Pictures made by the HTTP provider (docs/ai.md, "Pictures"): text to image (OpenAI's
//! `POST /images/generations`) and similar images (`POST /images/variations`, the source picture
//! uploaded as a square PNG), each a farm job (`TEXT_TO_IMAGE`, `SIMILAR_IMAGE`). The pictures come
//! back as `b64_json`, or as URLs fetched only from the provider's own host, bounded in size; each
//! must sniff and decode as a PNG, JPEG or WebP within the upload's pixel limit before it is kept.

use std::io::Cursor;

use base64::Engine;
use serde::Deserialize;
use serde_json::Value;

use crate::provider::{AiError, Providers};
use crate::speech::FieldError;

/// The catalogue's key of text to image.
pub const TEXT_TO_IMAGE_ABILITY: &str = "text-to-image";
/// The catalogue's key of similar image generation.
pub const SIMILAR_IMAGE_ABILITY: &str = "similar-image-generation";
/// The tool type of a text-to-image run.
pub const TEXT_TO_IMAGE: &str = "TEXT_TO_IMAGE";
/// The tool type of a similar-image run.
pub const SIMILAR_IMAGE: &str = "SIMILAR_IMAGE";
/// The square sizes asked for: the three OpenAI's variations call takes (and generations too).
pub const SIZES: [u32; 3] = [256, 512, 1024];
/// The most pictures one run asks for.
pub const MAX_COUNT: u32 = 4;
/// The longest prompt, in characters (OpenAI's limit for its smaller image model).
pub const MAX_PROMPT_CHARS: usize = 1000;
/// The largest picture kept from an answer, in bytes (an upload's picture limit is larger; an
/// answered 1024×1024 picture is a few MB).
pub const MAX_PICTURE_BYTES: u64 = 20 * 1024 * 1024;
/// Most pixels a picture may have when decoded: the upload's limit (`reelforge_material`'s
/// `MAX_PICTURE_PIXELS`), so what is kept here is what the library takes.
pub const MAX_PICTURE_PIXELS: u64 = 100_000_000;

/// The tool type of an ability's run, and the ability of a tool type.
pub fn tool_of(ability: &str) -> Option<&'static str> {
    match ability {
        TEXT_TO_IMAGE_ABILITY => Some(TEXT_TO_IMAGE),
        SIMILAR_IMAGE_ABILITY => Some(SIMILAR_IMAGE),
        _ => None,
    }
}

/// A validated picture request: a prompt (text to image) or a source material (similar image).
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct ImageAsk {
    /// The run's tool type, [`TEXT_TO_IMAGE`] or [`SIMILAR_IMAGE`].
    pub tool_type: &'static str,
    /// What to draw, trimmed (text to image); empty for a similar image.
    pub prompt: String,
    /// The pictures' side, pixels: one of [`SIZES`].
    pub size: u32,
    /// How many pictures, 1 to [`MAX_COUNT`].
    pub count: u32,
}

fn refuse(field: &str, message: impl Into<String>) -> FieldError {
    FieldError { field: field.to_owned(), message: message.into() }
}

impl ImageAsk {
    /// Reads a run of `tool_type` from `{prompt, size?, count?}` (text to image) or `{size?,
    /// count?}` with one material (similar image); `size` is `"WxH"` with W = H one of [`SIZES`]
    /// (absent: 512×512), `count` absent is 1; unknown keys are refused.
    pub fn parse(tool_type: &str, params: &Value, material_ids: &[String]) -> Result<Self, FieldError> {
        let (tool_type, known): (&'static str, &[&str]) = match tool_type.trim() {
            TEXT_TO_IMAGE => (TEXT_TO_IMAGE, &["prompt", "size", "count"]),
            SIMILAR_IMAGE => (SIMILAR_IMAGE, &["size", "count"]),
            other => return Err(refuse("type", format!("{other} is not a picture run"))),
        };
        let empty = serde_json::Map::new();
        let map = match params {
            Value::Object(m) => m,
            Value::Null => &empty,
            other => return Err(refuse("params", format!("{other} is not an object"))),
        };
        if let Some(k) = map.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(refuse(k, format!("is not a field of this call; use {}", known.join(", "))));
        }
        let prompt = if tool_type == TEXT_TO_IMAGE {
            let p = match map.get("prompt") {
                Some(Value::String(s)) => s.trim().to_owned(),
                None | Some(Value::Null) => String::new(),
                Some(other) => return Err(refuse("prompt", format!("{other} is not a text"))),
            };
            if p.is_empty() {
                return Err(refuse("prompt", "describe the picture to draw"));
            }
            let n = p.chars().count();
            if n > MAX_PROMPT_CHARS {
                return Err(refuse("prompt", format!("is {n} characters long, at most {MAX_PROMPT_CHARS} are taken")));
            }
            if !material_ids.is_empty() {
                return Err(refuse("materialIds", "text to image takes no material"));
            }
            p
        } else {
            if material_ids.len() != 1 {
                return Err(refuse("materialId", "choose one picture to make similar pictures of"));
            }
            String::new()
        };
        let size = match map.get("size") {
            None | Some(Value::Null) => 512,
            Some(Value::String(s)) => {
                let side = s.trim().split_once(['x', 'X', '×']).filter(|(w, h)| w == h).and_then(|(w, _)| w.trim().parse::<u32>().ok());
                side.filter(|n| SIZES.contains(n)).ok_or_else(|| refuse("size", format!("\"{s}\" is not one of 256x256, 512x512, 1024x1024")))?
            }
            Some(other) => return Err(refuse("size", format!("{other} is not one of 256x256, 512x512, 1024x1024"))),
        };
        let count = match map.get("count") {
            None | Some(Value::Null) => 1,
            Some(v) => v.as_u64().filter(|n| (1..=u64::from(MAX_COUNT)).contains(n)).map(|n| n as u32)
                .ok_or_else(|| refuse("count", format!("{v} is not a whole number from 1 to {MAX_COUNT}")))?,
        };
        Ok(Self { tool_type, prompt, size, count })
    }

    /// The request as stored with its run (what [`ImageAsk::parse`] reads back).
    pub fn to_json(&self) -> Value {
        let mut v = serde_json::json!({"size": self.size_name(), "count": self.count});
        if self.tool_type == TEXT_TO_IMAGE {
            v["prompt"] = Value::String(self.prompt.clone());
        }
        v
    }

    /// The size as the provider's call names it, `WxH`.
    pub fn size_name(&self) -> String {
        format!("{0}x{0}", self.size)
    }

    /// The catalogue's key of the ability this run uses.
    pub fn ability(&self) -> &'static str {
        if self.tool_type == TEXT_TO_IMAGE { TEXT_TO_IMAGE_ABILITY } else { SIMILAR_IMAGE_ABILITY }
    }
}

/// A picture that sniffed and decoded.
#[derive(Debug, Clone, PartialEq, Eq)]
pub struct Picture {
    /// Its file, as answered.
    pub bytes: Vec<u8>,
    /// Its extension: `png`, `jpg` or `webp`.
    pub extension: &'static str,
    /// Its width, pixels.
    pub width: u32,
    /// Its height, pixels.
    pub height: u32,
}

/// Sniffs `bytes` as a PNG, JPEG or WebP (by their content, never a name) and decodes it whole: the
/// header first, the pixel count checked against [`MAX_PICTURE_PIXELS`] before any pixel, then
/// every pixel under the decoder's memory limit, as an uploaded picture is.
pub fn check_picture(bytes: Vec<u8>) -> Result<Picture, String> {
    if bytes.len() as u64 > MAX_PICTURE_BYTES {
        return Err(format!("the picture is {} bytes, more than {MAX_PICTURE_BYTES}", bytes.len()));
    }
    let format = image::guess_format(&bytes).map_err(|_| "not a picture (neither PNG, JPEG nor WebP)".to_owned())?;
    let extension = match format {
        image::ImageFormat::Png => "png",
        image::ImageFormat::Jpeg => "jpg",
        image::ImageFormat::WebP => "webp",
        other => return Err(format!("a {other:?} picture, not a PNG, JPEG or WebP")),
    };
    let reader = || image::ImageReader::with_format(Cursor::new(bytes.as_slice()), format);
    let mut header = reader();
    header.no_limits();
    let (width, height) = header.into_dimensions().map_err(|e| format!("the picture cannot be decoded: {e}"))?;
    if width == 0 || height == 0 {
        return Err("the picture has no pixels".to_owned());
    }
    if u64::from(width) * u64::from(height) > MAX_PICTURE_PIXELS {
        return Err(format!("the picture is {width}x{height}, more than {MAX_PICTURE_PIXELS} pixels"));
    }
    reader().decode().map_err(|e| format!("the picture cannot be decoded: {e}"))?;
    Ok(Picture { bytes, extension, width, height })
}

/// The source of a similar image as the variations call takes it: checked as [`check_picture`]
/// does, its middle square scaled to `size`, an RGB PNG (at most 3 MB at 1024, under the call's 4 MB).
pub fn square_png(bytes: Vec<u8>, size: u32) -> Result<Vec<u8>, String> {
    let checked = check_picture(bytes)?;
    let picture = image::load_from_memory(&checked.bytes).map_err(|e| format!("the picture cannot be decoded: {e}"))?;
    let side = checked.width.min(checked.height);
    let square = picture.crop_imm((checked.width - side) / 2, (checked.height - side) / 2, side, side);
    let scaled = square.resize_exact(size, size, image::imageops::FilterType::Triangle).to_rgb8();
    let mut png = Vec::new();
    scaled.write_to(&mut Cursor::new(&mut png), image::ImageFormat::Png).map_err(|e| format!("writing the PNG: {e}"))?;
    Ok(png)
}

#[derive(Deserialize)]
struct Answer {
    #[serde(default)]
    data: Vec<Answered>,
}

#[derive(Deserialize)]
struct Answered {
    b64_json: Option<String>,
    url: Option<String>,
}

/// Makes the pictures `ask` asks for `tenant` through its ability's HTTP provider (`source`: the
/// similar image's square PNG, [`square_png`]). Every answered picture must pass
/// [`check_picture`]; an answer with none, or with one that does not, fails the call.
pub async fn generate(providers: &Providers, tenant: &str, ask: &ImageAsk, source: Option<&[u8]>) -> Result<Vec<Picture>, AiError> {
    let http = providers.http(tenant, ask.ability()).await?;
    let client = providers.client();
    let body = match (ask.tool_type, source) {
        (TEXT_TO_IMAGE, _) => http.image_generations(client, &ask.prompt, &ask.size_name(), ask.count).await?,
        (_, Some(png)) => http.image_variations(client, png, &ask.size_name(), ask.count).await?,
        (_, None) => return Err(AiError::BadInput("materialId: a similar image needs its source picture".to_owned())),
    };
    let answer: Answer = serde_json::from_slice(&body).map_err(|e| AiError::Upstream(format!("not an images answer: {e}")))?;
    if answer.data.is_empty() {
        return Err(AiError::Upstream("the provider answered no picture".to_owned()));
    }
    let mut pictures = Vec::with_capacity(answer.data.len());
    for (i, a) in answer.data.into_iter().take(ask.count as usize).enumerate() {
        let bytes = match (a.b64_json, a.url) {
            (Some(b64), _) => base64::engine::general_purpose::STANDARD
                .decode(b64.trim())
                .map_err(|e| AiError::Upstream(format!("picture {}: its b64_json is not base64: {e}", i + 1)))?,
            (None, Some(url)) => http.fetch_answered(client, &url, MAX_PICTURE_BYTES).await?,
            (None, None) => return Err(AiError::Upstream(format!("picture {} has neither b64_json nor url", i + 1))),
        };
        pictures.push(check_picture(bytes).map_err(|why| AiError::Upstream(format!("picture {}: {why}", i + 1)))?);
    }
    Ok(pictures)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn field(tool: &str, v: Value, ids: &[&str]) -> String {
        let ids: Vec<String> = ids.iter().map(|s| (*s).to_owned()).collect();
        ImageAsk::parse(tool, &v, &ids).err().map(|e| e.field).unwrap_or_default()
    }

    fn png(w: u32, h: u32) -> Vec<u8> {
        let mut out = Vec::new();
        let img = image::RgbImage::from_fn(w, h, |x, y| image::Rgb([(x * 255 / w.max(1)) as u8, (y * 255 / h.max(1)) as u8, 90]));
        img.write_to(&mut Cursor::new(&mut out), image::ImageFormat::Png).expect("a PNG is written");
        out
    }

    #[test]
    fn a_request_is_read_with_defaults_and_written_back() {
        let ask = ImageAsk::parse(TEXT_TO_IMAGE, &serde_json::json!({"prompt": "  a red kite  "}), &[]).expect("taken");
        assert_eq!((ask.prompt.as_str(), ask.size, ask.count, ask.ability()), ("a red kite", 512, 1, TEXT_TO_IMAGE_ABILITY));
        assert_eq!(ImageAsk::parse(TEXT_TO_IMAGE, &ask.to_json(), &[]).as_ref(), Ok(&ask));
        let similar = ImageAsk::parse(SIMILAR_IMAGE, &serde_json::json!({"size": "256x256", "count": 3}), &["7".to_owned()]).expect("taken");
        assert_eq!((similar.size_name().as_str(), similar.count, similar.ability()), ("256x256", 3, SIMILAR_IMAGE_ABILITY));
        assert_eq!(ImageAsk::parse(SIMILAR_IMAGE, &similar.to_json(), &["7".to_owned()]).as_ref(), Ok(&similar));
    }

    #[test]
    fn each_refusal_names_its_field() {
        let long = "画".repeat(MAX_PROMPT_CHARS + 1);
        for (tool, v, ids, f) in [
            (TEXT_TO_IMAGE, serde_json::json!({}), &[][..], "prompt"),
            (TEXT_TO_IMAGE, serde_json::json!({"prompt": "   "}), &[][..], "prompt"),
            (TEXT_TO_IMAGE, serde_json::json!({"prompt": long}), &[][..], "prompt"),
            (TEXT_TO_IMAGE, serde_json::json!({"prompt": 5}), &[][..], "prompt"),
            (TEXT_TO_IMAGE, serde_json::json!({"prompt": "a", "size": "300x300"}), &[][..], "size"),
            (TEXT_TO_IMAGE, serde_json::json!({"prompt": "a", "size": "512x256"}), &[][..], "size"),
            (TEXT_TO_IMAGE, serde_json::json!({"prompt": "a", "count": 5}), &[][..], "count"),
            (TEXT_TO_IMAGE, serde_json::json!({"prompt": "a", "count": 0}), &[][..], "count"),
            (TEXT_TO_IMAGE, serde_json::json!({"prompt": "a", "count": 1.5}), &[][..], "count"),
            (TEXT_TO_IMAGE, serde_json::json!({"prompt": "a", "style": "vivid"}), &[][..], "style"),
            (TEXT_TO_IMAGE, serde_json::json!({"prompt": "a"}), &["1"][..], "materialIds"),
            (SIMILAR_IMAGE, serde_json::json!({}), &[][..], "materialId"),
            (SIMILAR_IMAGE, serde_json::json!({}), &["1", "2"][..], "materialId"),
            (SIMILAR_IMAGE, serde_json::json!({"prompt": "a"}), &["1"][..], "prompt"),
            (SIMILAR_IMAGE, serde_json::json!([1]), &["1"][..], "params"),
            ("VIDEO_SPEEDUP", serde_json::json!({}), &[][..], "type"),
        ] {
            assert_eq!(field(tool, v.clone(), ids), f, "{tool} {v}");
        }
    }

    #[test]
    fn only_a_decodable_picture_within_the_limits_is_kept() {
        let p = check_picture(png(64, 48)).expect("a PNG");
        assert_eq!((p.extension, p.width, p.height), ("png", 64, 48));
        assert!(check_picture(b"<html>not a picture</html>".to_vec()).is_err());
        assert!(check_picture(b"GIF89a\x01\x00\x01\x00".to_vec()).is_err(), "a GIF is not a picture answer");
        let mut cut = png(64, 48);
        cut.truncate(cut.len() / 2);
        assert!(check_picture(cut).is_err(), "a truncated PNG does not decode");
        // A PNG header claiming 20000×20000 pixels is refused before its pixels are read.
        let mut huge = png(1, 1);
        huge[16..20].copy_from_slice(&20_000u32.to_be_bytes());
        huge[20..24].copy_from_slice(&20_000u32.to_be_bytes());
        assert!(check_picture(huge).is_err_and(|e| e.contains("pixels") || e.contains("decoded")));
    }

    #[test]
    fn a_source_becomes_its_middle_square_at_the_asked_size() {
        let out = square_png(png(300, 100), 256).expect("squared");
        let p = check_picture(out).expect("a PNG");
        assert_eq!((p.extension, p.width, p.height), ("png", 256, 256));
        assert!(square_png(b"not a picture".to_vec(), 256).is_err());
    }
}
