//! Catalogue previews: a small PNG per transition and per filter, drawn by the render engine on a
//! sample document, so the editor's pickers show what the output will show (not a hand-made icon
//! that could drift from the renderer). The sample documents use only colours, shapes and text, so
//! no material, tenant or user is involved; every preview is drawn once per process and kept (the
//! catalogue is a few dozen entries of a few KB each).

use std::collections::HashMap;
use std::sync::{Arc, LazyLock, Mutex};

use reelforge_timeline::Rule;
use reelforge_timeline::catalogue::{filters, transitions};
use serde_json::{Value, json};
use tokio::sync::{OnceCell, Semaphore};

use crate::ApiError;

/// Output size of a preview (16:9; the pickers show it at about half, sharp on dense screens).
pub const WIDTH: u32 = 320;
/// Output height of a preview.
pub const HEIGHT: u32 = 180;

/// Which catalogue a preview belongs to.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash)]
pub enum Kind {
    /// A scene transition, drawn half-way through.
    Transition,
    /// A visual filter, applied to the sample picture.
    Filter,
}

impl Kind {
    /// The kind named in the route (`transition`, `filter`).
    pub fn parse(s: &str) -> Result<Self, ApiError> {
        match s {
            "transition" => Ok(Self::Transition),
            "filter" => Ok(Self::Filter),
            other => Err(ApiError::BadRequest(format!("kind: `{other}` is not transition or filter"))),
        }
    }
}

type Slot = Arc<OnceCell<Arc<Vec<u8>>>>;

/// Previews drawn so far, one cell per entry so concurrent first asks draw it once.
static DRAWN: LazyLock<Mutex<HashMap<(Kind, &'static str), Slot>>> = LazyLock::new(Default::default);
/// One preview draws at a time: a burst of a picker's first open must not take every core.
static DRAWING: Semaphore = Semaphore::const_new(1);

fn internal(what: &str, e: impl std::fmt::Display) -> ApiError {
    tracing::error!(error = %e, "catalogue preview: {what}");
    ApiError::Service(tonic::Status::internal("internal error, please retry later"))
}

/// The catalogue key `key` of `kind` as the catalogue spells it, or 3000 naming it.
fn known(kind: Kind, key: &str) -> Result<&'static str, ApiError> {
    let found = match kind {
        Kind::Transition => transitions::TRANSITIONS.iter().find(|t| t.key == key).map(|t| t.key),
        Kind::Filter => filters::find(key).map(|f| f.key),
    };
    found.ok_or_else(|| {
        let what = if kind == Kind::Transition { "transition" } else { "filter" };
        ApiError::BadRequest(format!("{what} `{key}` is not in the catalogue"))
    })
}

/// The PNG of `key`'s preview, drawn on first ask.
pub async fn png(kind: Kind, key: &str) -> Result<Arc<Vec<u8>>, ApiError> {
    let key = known(kind, key)?;
    let slot = {
        let mut drawn = DRAWN.lock().map_err(|e| internal("cache", e))?;
        drawn.entry((kind, key)).or_default().clone()
    };
    slot.get_or_try_init(|| async {
        let _permit = DRAWING.acquire().await.map_err(|e| internal("permit", e))?;
        let png = tokio::task::spawn_blocking(move || draw(kind, key)).await.map_err(|e| internal("draw thread", e))??;
        Ok(Arc::new(png))
    })
    .await
    .cloned()
}

/// Draws `key`'s sample document at its telling moment and encodes it as PNG.
fn draw(kind: Kind, key: &'static str) -> Result<Vec<u8>, ApiError> {
    let (doc, t) = match kind {
        Kind::Transition => (transition_sample(key), SCENE_SECONDS),
        Kind::Filter => (filter_sample(key), 0.5),
    };
    let rule = Rule::parse(&doc.to_string()).map_err(|e| internal("sample document", e))?;
    reelforge_render::gst_init().map_err(|e| internal("gstreamer", e))?;
    let materials = reelforge_render::Materials::default();
    let bitmap = reelforge_render::render_frame(&rule, &materials, t).map_err(|e| internal("render", e))?;
    // The frame is opaque (the scenes have a background colour), so its premultiplied bytes are
    // the straight ones PNG holds.
    let mut png = Vec::new();
    image::ImageEncoder::write_image(
        image::codecs::png::PngEncoder::new(&mut png),
        &bitmap.px,
        bitmap.w,
        bitmap.h,
        image::ExtendedColorType::Rgba8,
    )
    .map_err(|e| internal("png", e))?;
    Ok(png)
}

/// Length of each sample scene; a transition's middle is the boundary between them.
const SCENE_SECONDS: f64 = 2.0;

fn document(scenes: Vec<Value>, visual_filter: &str) -> Value {
    json!({
        "version": 1, "renderVersion": 2, "ruleType": "VIDEO_EDIT", "videoQuality": 30, "frameRate": 30,
        // Edited at twice the preview's size, as the 16:9 documents are (640×360).
        "resolutionRatio": {"name": "16:9", "width": WIDTH * 2, "height": HEIGHT * 2, "ratio": "16:9", "sizeId": 41, "targetWidth": WIDTH},
        "scenes": scenes, "audio": [], "visualFilter": visual_filter,
    })
}

fn layer(id: &str, z: u32, (x, y, w, h): (i32, i32, i32, i32)) -> Value {
    json!({"id": id, "z": z, "x": x, "y": y, "w": w, "h": h, "startTime": 0, "endTime": SCENE_SECONDS, "rotate": 0})
}

fn shape(id: &str, z: u32, bx: (i32, i32, i32, i32), kind: &str, fill: &str) -> Value {
    let mut l = layer(id, z, bx);
    l.as_object_mut().into_iter().for_each(|o| {
        o.extend([
            ("type".into(), json!("shape")),
            ("shape".into(), json!(kind)),
            ("fill".into(), json!(fill)),
            ("stroke".into(), json!("")),
            ("strokeWidth".into(), json!(0)),
            ("borderRadius".into(), json!(0)),
        ]);
    });
    l
}

fn word(id: &str, z: u32, bx: (i32, i32, i32, i32), content: &str, colour: &str) -> Value {
    let mut l = layer(id, z, bx);
    l.as_object_mut().into_iter().for_each(|o| {
        o.extend([
            ("type".into(), json!("word")),
            ("content".into(), json!(content)),
            ("color".into(), json!(colour)),
            ("fontSize".into(), json!(150)),
            ("bold".into(), json!(true)),
            ("textAlign".into(), json!("center")),
            ("lineHeight".into(), json!(1.0)),
        ]);
    });
    l
}

/// Two scenes told apart at a glance (blue with a yellow circle and "A", orange with a white star
/// and "B"), the first leaving by `key` over one second.
fn transition_sample(key: &str) -> Value {
    let a = json!({
        "type": "canvas", "name": "A", "effect": key, "effectTime": 1, "bgColor": "#1e40af", "timeLength": SCENE_SECONDS,
        "layers": [shape("a1", 101, (60, 80, 200, 200), "circle", "#facc15"), word("a2", 102, (320, 80, 260, 200), "A", "#ffffff")],
    });
    let b = json!({
        "type": "canvas", "name": "B", "effect": "", "effectTime": 0, "bgColor": "#ea580c", "timeLength": SCENE_SECONDS,
        "layers": [shape("b1", 101, (380, 70, 220, 220), "simple-star", "#ffffff"), word("b2", 102, (60, 80, 260, 200), "B", "#1e293b")],
    });
    document(vec![a, b], "")
}

/// A small landscape of saturated and neutral colours (sky, sun, hills, a house), under `key`.
fn filter_sample(key: &str) -> Value {
    let scene = json!({
        "type": "canvas", "name": "sample", "effect": "", "effectTime": 0, "bgColor": "#38bdf8", "timeLength": SCENE_SECONDS,
        "layers": [
            shape("sun", 101, (470, 30, 110, 110), "circle", "#fde047"),
            shape("hill1", 102, (-120, 210, 520, 300), "circle", "#16a34a"),
            shape("hill2", 103, (260, 240, 520, 300), "circle", "#65a30d"),
            shape("wall", 104, (150, 200, 130, 100), "rect", "#f5f5f4"),
            shape("roof", 105, (135, 140, 160, 64), "isosceles-triangle", "#dc2626"),
            shape("door", 106, (198, 245, 34, 55), "rect", "#78350f"),
            shape("cloud", 107, (60, 40, 150, 50), "circle", "#ffffff"),
        ],
    });
    document(vec![scene], key)
}

#[cfg(test)]
mod tests {
    use super::*;

    type Fallible = Result<(), Box<dyn std::error::Error>>;

    fn pixel(png: &[u8], x: u32, y: u32) -> Result<[u8; 3], image::ImageError> {
        let img = image::load_from_memory(png)?.to_rgb8();
        assert_eq!((img.width(), img.height()), (WIDTH, HEIGHT));
        Ok(img.get_pixel(x, y).0)
    }

    #[tokio::test]
    async fn a_transition_preview_shows_both_scenes() -> Fallible {
        // MOVE_LEFT half-way: the left half still shows scene A's blue, the right half B's orange.
        let png = png(Kind::Transition, "MOVE_LEFT").await?;
        let left = pixel(&png, 8, 8)?;
        let right = pixel(&png, WIDTH - 8, HEIGHT - 8)?;
        assert!(left[2] > 150 && left[0] < 80, "left shows scene A (blue): {left:?}");
        assert!(right[0] > 200 && right[2] < 60, "right shows scene B (orange): {right:?}");
        Ok(())
    }

    #[tokio::test]
    async fn a_filter_preview_applies_the_filter() -> Fallible {
        let plain = pixel(&draw(Kind::Filter, "")?, 8, 8)?;
        let grey = pixel(&png(Kind::Filter, "blackWhite").await?, 8, 8)?;
        assert!(plain[2] > plain[0] + 80, "the sky is blue without a filter: {plain:?}");
        let spread = grey.iter().max().unwrap_or(&0) - grey.iter().min().unwrap_or(&0);
        assert!(spread <= 2, "black and white has no colour: {grey:?}");
        Ok(())
    }

    #[tokio::test]
    async fn unknown_keys_and_kinds_are_refused_by_name() -> Fallible {
        let e = png(Kind::Filter, "sparkle").await.err().ok_or("sparkle accepted")?;
        assert!(e.to_string().contains("filter `sparkle`"), "{e}");
        let e = png(Kind::Transition, "../x").await.err().ok_or("../x accepted")?;
        assert!(e.to_string().contains("transition `../x`"), "{e}");
        assert!(Kind::parse("shape").is_err());
        Ok(())
    }

    #[test]
    fn every_catalogue_entry_has_a_sample() -> Fallible {
        for t in transitions::TRANSITIONS {
            Rule::parse(&transition_sample(t.key).to_string()).map_err(|e| format!("{}: {e}", t.key))?;
        }
        for f in filters::FILTERS {
            Rule::parse(&filter_sample(f.key).to_string()).map_err(|e| format!("{}: {e}", f.key))?;
        }
        Ok(())
    }
}
