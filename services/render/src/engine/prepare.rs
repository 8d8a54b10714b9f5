//! Turns a scene's layers into drawable layers: material paths resolved (fetch), pictures
//! loaded and scaled once, text, art words and shapes rasterised once (decode), video layers
//! set up for lazy decoding. Box geometry is converted from editing to output pixels here.

use crate::compose::text::{Fill, Sprite, TextStyle};
use crate::compose::{Bitmap, colour, filter, image, shape, text};
use crate::decode::{VideoDecoder, WATCHDOG_S};
use crate::error::{MediaError, Place, RenderError, Stage};
use reelforge_timeline::layer::{ArtWordLayer, PictureLayer, ShapeLayer, TextFields, VideoLayer};
use reelforge_timeline::{Layer, LayerCommon, LayerTiming};
use serde_json::Value;
use std::path::{Path, PathBuf};

/// What a layer draws.
pub enum Content {
    /// A bitmap drawn unchanged every frame, offset from the box.
    Still(Sprite),
    /// GIF frames at the output rate, looped.
    Frames(Vec<Bitmap>),
    /// A clip decoded on demand.
    Video(Box<VideoState>),
}

/// A video layer's decoder and what it last produced.
pub struct VideoState {
    /// The clip.
    pub path: PathBuf,
    /// Cut start in the source, seconds.
    pub cut_start: f64,
    /// Decoded size (the clip fitted inside the box).
    pub size: (u32, u32),
    /// Offset of the decoded picture inside the box.
    pub inset: (i32, i32),
    /// Brightness/contrast/saturation matrix.
    pub matrix: Option<filter::Matrix>,
    /// Whether the clip has an alpha channel to premultiply.
    pub transparent: bool,
    /// The running decoder and the layer-local frame it gives next.
    pub decoder: Option<(VideoDecoder, i64)>,
    /// The last frame, held when the clip ends before the layer.
    pub last: Option<Bitmap>,
}

/// A layer ready to draw.
pub struct Drawable {
    /// Where errors point.
    pub place: Place,
    /// Stacking order.
    pub z: i64,
    /// Timing for the animation maths.
    pub timing: LayerTiming,
    /// Box in output pixels: x, y, w, h.
    pub rect: (f64, f64, f64, f64),
    /// The layer's own opacity.
    pub opacity: f64,
    /// Slow zoom over the layer's span: scale at start and at end.
    pub zoom: Option<(f64, f64)>,
    /// What it draws.
    pub content: Content,
}

impl Drawable {
    /// Returns whether the content changes from frame to frame.
    pub fn is_dynamic(&self) -> bool {
        !matches!(self.content, Content::Still(_)) || self.zoom.is_some()
    }
}

/// Returns the file for a material path of the document, looked up under `dir`.
pub fn resolve(dir: &Path, src: &str) -> Result<PathBuf, MediaError> {
    let src = src.trim();
    if src.is_empty() {
        return Err(MediaError::Missing("(no path)".to_owned()));
    }
    // A URL keeps only its path: materials are fetched into `dir` under the same key.
    let path = match src.split_once("://") {
        Some((_, rest)) => rest.split_once('/').map_or("", |(_, p)| p),
        None => src,
    };
    let path = path.split(['?', '#']).next().unwrap_or(path);
    let direct = Path::new(path);
    if direct.is_absolute() && direct.is_file() {
        return Ok(direct.to_path_buf());
    }
    let rel = dir.join(path.trim_start_matches('/'));
    if rel.is_file() {
        return Ok(rel);
    }
    if let Some(name) = direct.file_name() {
        let flat = dir.join(name);
        if flat.is_file() {
            return Ok(flat);
        }
    }
    Err(MediaError::Missing(src.to_owned()))
}

/// Returns a continuous motion as a zoom (start, end) scale: the local reading of the
/// `motion` field, which the timeline crate keeps but does not animate.
fn zoom_of(motion: &str) -> Option<(f64, f64)> {
    match motion {
        "ZOOM_IN" | "zoomIn" | "KEN_BURNS" => Some((1.0, 1.25)),
        "ZOOM_OUT" | "zoomOut" => Some((1.25, 1.0)),
        _ => None,
    }
}

struct Ctx<'a> {
    dir: &'a Path,
    scale: f64,
    fps: (i32, i32),
    scene: usize,
}

impl Ctx<'_> {
    fn place(&self, c: &LayerCommon, material: Option<&str>) -> Place {
        let id = c.id.to_string();
        Place {
            scene: Some(self.scene),
            layer: Some(if id.is_empty() { "(no id)".to_owned() } else { id }),
            material: material.map(str::to_owned),
        }
    }

    fn base(&self, c: &LayerCommon, place: Place, opacity: f64, content: Content) -> Drawable {
        let s = self.scale;
        Drawable {
            place,
            z: c.z,
            timing: LayerTiming::from(c),
            rect: (c.x * s, c.y * s, c.w * s, c.h * s),
            opacity,
            zoom: zoom_of(&c.motion),
            content,
        }
    }

    fn px(&self, c: &LayerCommon) -> (u32, u32) {
        let z = zoom_of(&c.motion).map_or(1.0, |(a, b)| a.max(b));
        // Zooming layers keep source detail for their largest size.
        let dim = |v: f64| ((v * self.scale * z).round() as u32).clamp(1, 8192);
        (dim(c.w), dim(c.h))
    }
}

/// Prepares every drawable layer of scene `scene`, sorted by z (stable, so document order
/// breaks ties).
pub fn scene_layers(
    layers: &[Layer],
    dir: &Path,
    scale: f64,
    fps: (i32, i32),
    scene: usize,
) -> Result<Vec<Drawable>, RenderError> {
    let ctx = Ctx { dir, scale, fps, scene };
    let mut out = Vec::new();
    for layer in layers {
        prepare(&ctx, layer, &mut out)?;
    }
    out.sort_by_key(|d| d.z);
    Ok(out)
}

fn prepare(ctx: &Ctx<'_>, layer: &Layer, out: &mut Vec<Drawable>) -> Result<(), RenderError> {
    match layer {
        Layer::Picture(p) => out.push(picture(ctx, p)?),
        Layer::Gif(p) => out.push(gif(ctx, p)?),
        Layer::Video(v) => out.push(video(ctx, v)?),
        Layer::Word(t) | Layer::DynamicWord(t) => {
            let place = ctx.place(&t.common, None);
            let style = text_style(&t.text, ctx.scale, Fill::Solid(colour_of(&t.text)));
            out.push(rasterised(ctx, &t.common, place, style)?);
        }
        Layer::ArtWord(a) => out.push(art_word(ctx, a)?),
        Layer::Shape(s) => out.push(shape_layer(ctx, s)?),
        Layer::SpecialEffect(e) => {
            let p = PictureLayer {
                common: e.common.clone(),
                src: e.src.clone(),
                ..PictureLayer::default()
            };
            let is_gif = e.src.to_lowercase().ends_with(".gif");
            out.push(if is_gif { gif(ctx, &p)? } else { picture(ctx, &p)? });
        }
        Layer::Group(g) => {
            // Members are positioned relative to the group box and play in its time span.
            for m in &g.attach_list {
                let mut m = m.clone();
                if let Some(c) = m.common_mut() {
                    c.x += g.common.x;
                    c.y += g.common.y;
                    c.z = g.common.z;
                }
                prepare(ctx, &m, out)?;
            }
        }
        Layer::Template(_) => {}
        Layer::Unknown(_) => {
            return Err(Place {
                scene: Some(ctx.scene),
                layer: Some(layer.type_name().to_owned()),
                material: None,
            }
            .err(
                Stage::Fetch,
                MediaError::Invalid("backend returned wrong attach layer type".to_owned()),
            ));
        }
    }
    Ok(())
}

fn colour_of(t: &TextFields) -> [u8; 4] {
    let c = if t.req_color.is_empty() { &t.color } else { &t.req_color };
    colour::parse(c).unwrap_or([255, 255, 255, 255])
}

fn text_style(t: &TextFields, s: f64, fill: Fill) -> TextStyle {
    let content = if t.show_content.is_empty() { &t.content } else { &t.show_content };
    let border = (t.border_width * s) as f32;
    TextStyle {
        content: content.clone(),
        font_size: (t.font_size.max(1.0) * s) as f32,
        line_height: t.line_height as f32,
        family: t.font_family.clone(),
        bold: t.bold,
        italic: t.italic,
        underline: t.underline,
        strike: t.strike_through,
        align: t.text_align.clone(),
        letter_spacing: (t.letter_spacing * s) as f32,
        fill,
        strokes: match colour::parse(&t.border_color) {
            Some(c) if border > 0.0 => vec![(border, c)],
            _ => Vec::new(),
        },
        shadow: None,
        background: colour::parse(&t.bg_fill_color),
    }
}

fn rasterised(ctx: &Ctx<'_>, c: &LayerCommon, place: Place, style: TextStyle) -> Result<Drawable, RenderError> {
    let (w, h) = ctx.px(c);
    let sprite = text::rasterise(&style, w, h).map_err(|e| place.err(Stage::Compose, e))?;
    Ok(ctx.base(c, place, 1.0, Content::Still(sprite)))
}

fn border_of(v: &Value, s: f64) -> Option<(f32, [u8; 4])> {
    let (c, w) = match v {
        Value::String(c) => (c.as_str(), 2.0),
        Value::Object(o) => (
            o.get("color").and_then(Value::as_str).unwrap_or(""),
            o.get("width").and_then(Value::as_f64).unwrap_or(2.0),
        ),
        _ => return None,
    };
    Some(((w * s) as f32, colour::parse(c)?))
}

fn art_word(ctx: &Ctx<'_>, a: &ArtWordLayer) -> Result<Drawable, RenderError> {
    let place = ctx.place(&a.common, None);
    let fill = match (colour::parse(&a.color1), colour::parse(&a.color2)) {
        (Some(c1), Some(c2)) => Fill::Gradient(c1, c2),
        _ => Fill::Solid(colour::parse(&a.fill_color).unwrap_or_else(|| colour_of(&a.text))),
    };
    let mut style = text_style(&a.text, ctx.scale, fill);
    let b1 = border_of(&a.border1, ctx.scale);
    let b2 = border_of(&a.border2, ctx.scale);
    // The second border sits outside the first, so it is drawn wider and first.
    if let (Some((w1, _)), Some((w2, c2))) = (b1, b2) {
        style.strokes.push((w1 + w2, c2));
    }
    if let Some(b) = b1.or(b2) {
        style.strokes.push(b);
    }
    style.strokes.sort_by(|x, y| y.0.total_cmp(&x.0));
    if let Some(c) = colour::parse(&a.shadow_color) {
        let off = (3.0 * ctx.scale) as f32;
        style.shadow = Some((c, off, off));
    }
    let (w, h) = ctx.px(&a.common);
    let mut sprite = text::rasterise(&style, w, h).map_err(|e| place.err(Stage::Compose, e))?;
    if a.blur > 0.0 {
        filter::box_blur(&mut sprite.bitmap, (a.blur * ctx.scale).round() as usize);
    }
    let opacity = (a.alpha / 255.0).clamp(0.0, 1.0);
    Ok(ctx.base(&a.common, place, opacity, Content::Still(sprite)))
}

fn shape_layer(ctx: &Ctx<'_>, s: &ShapeLayer) -> Result<Drawable, RenderError> {
    let place = ctx.place(&s.common, None);
    let sc = ctx.scale as f32;
    let fill: Vec<[u8; 4]> = if s.fill_type == "gradient" {
        s.gradient_colors.iter().filter_map(|c| colour::parse(c)).collect()
    } else {
        colour::parse(&s.fill).into_iter().collect()
    };
    let style = shape::ShapeStyle {
        kind: s.shape.clone(),
        svg: s.shape_code.clone().filter(|c| !c.trim().is_empty()),
        fill,
        stroke: colour::parse(&s.stroke)
            .filter(|_| s.stroke_width > 0.0)
            .map(|c| (c, s.stroke_width as f32 * sc)),
        radius: s.border_radius as f32 * sc,
        shadow: colour::parse(&s.shadow_color).map(|c| {
            (c, s.shadow_set_x as f32 * sc, s.shadow_set_y as f32 * sc, s.shadow_blur as f32 * sc)
        }),
    };
    let (w, h) = ctx.px(&s.common);
    let bmp = shape::rasterise(&style, w, h).map_err(|e| place.err(Stage::Compose, e))?;
    Ok(ctx.base(&s.common, place, 1.0, Content::Still(Sprite { bitmap: bmp, dx: 0, dy: 0 })))
}

fn finish_picture(ctx: &Ctx<'_>, p: &PictureLayer, b: &mut Bitmap) {
    if p.mirror {
        image::mirror(b);
    }
    if let Some(f) = filter::by_name(&p.filter) {
        f.apply(b, ctx.scale);
    }
    if p.blur > 0.0 {
        filter::box_blur(b, (p.blur * ctx.scale).round() as usize);
    }
    let s = ctx.scale as f32;
    image::round_and_border(b, p.border_radius as f32 * s, p.border_width as f32 * s, &p.border_color);
}

fn picture(ctx: &Ctx<'_>, p: &PictureLayer) -> Result<Drawable, RenderError> {
    let mut place = ctx.place(&p.common, Some(&p.src));
    let path = resolve(ctx.dir, &p.src).map_err(|e| place.err(Stage::Fetch, e))?;
    place.material = Some(p.src.clone());
    let src = image::load(&path).map_err(|e| place.err(Stage::Decode, e))?;
    let (w, h) = ctx.px(&p.common);
    let mut b = image::cover(&src, w, h);
    finish_picture(ctx, p, &mut b);
    let sprite = Sprite { bitmap: b, dx: 0, dy: 0 };
    Ok(ctx.base(&p.common, place, p.opacity.clamp(0.0, 1.0), Content::Still(sprite)))
}

fn gif(ctx: &Ctx<'_>, p: &PictureLayer) -> Result<Drawable, RenderError> {
    let place = ctx.place(&p.common, Some(&p.src));
    let path = resolve(ctx.dir, &p.src).map_err(|e| place.err(Stage::Fetch, e))?;
    let frames = image::load_gif(&path).map_err(|e| place.err(Stage::Decode, e))?;
    let (w, h) = ctx.px(&p.common);
    let fps = f64::from(ctx.fps.0) / f64::from(ctx.fps.1.max(1));
    let total: f64 = frames.iter().map(|f| f.1).sum();
    let count = ((total * fps).round() as usize).clamp(1, 3000);
    // Resampled to the output rate once, so each output frame is one lookup.
    let mut scaled: Vec<Bitmap> = frames
        .iter()
        .map(|(b, _)| {
            let mut s = image::cover(b, w, h);
            finish_picture(ctx, p, &mut s);
            s
        })
        .collect();
    let mut starts = Vec::with_capacity(frames.len());
    let mut acc = 0.0;
    for (_, d) in &frames {
        starts.push(acc);
        acc += d;
    }
    let mut out = Vec::with_capacity(count);
    for i in 0..count {
        let t = i as f64 / fps;
        let k = starts.partition_point(|s| *s <= t).saturating_sub(1);
        out.push(scaled.get(k).cloned().unwrap_or_default());
    }
    scaled.clear();
    Ok(ctx.base(&p.common, place, p.opacity.clamp(0.0, 1.0), Content::Frames(out)))
}

fn video(ctx: &Ctx<'_>, v: &VideoLayer) -> Result<Drawable, RenderError> {
    let src = v.video_path().unwrap_or("");
    let place = ctx.place(&v.common, Some(src));
    let path = resolve(ctx.dir, src).map_err(|e| place.err(Stage::Fetch, e))?;
    let info = crate::probe::probe(&path, WATCHDOG_S).map_err(|e| place.err(Stage::Decode, e))?;
    if !info.has_video || info.width == 0 || info.height == 0 {
        return Err(place.err(Stage::Decode, MediaError::NoStream("video")));
    }
    let (bw, bh) = ctx.px(&v.common);
    // Fitted inside the box, keeping the clip's aspect (as the editor's <video> shows it).
    let k = (f64::from(bw) / f64::from(info.width)).min(f64::from(bh) / f64::from(info.height));
    let (w, h) = (
        ((f64::from(info.width) * k).round() as u32).max(2),
        ((f64::from(info.height) * k).round() as u32).max(2),
    );
    let state = VideoState {
        path,
        cut_start: v.cut_range().map_or(0.0, |(s, _)| s.max(0.0)),
        size: (w, h),
        inset: (((bw - w.min(bw)) / 2) as i32, ((bh - h.min(bh)) / 2) as i32),
        matrix: filter::adjustments(v.brightness, v.contrast, v.saturation),
        transparent: v.is_transparent,
        decoder: None,
        last: None,
    };
    Ok(ctx.base(&v.common, place, 1.0, Content::Video(Box::new(state))))
}
