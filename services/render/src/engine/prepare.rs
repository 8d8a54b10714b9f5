//! Turns a scene's layers into drawable layers: material paths resolved (fetch), pictures
//! loaded and scaled once, text, art words and shapes rasterised once (decode), video layers
//! set up for lazy decoding. Box geometry is converted from editing to output pixels here.

use super::spool::Spool;
use crate::compose::text::{Fill, Sprite, TextStyle};
use crate::compose::{self, Bitmap, colour, filter, image, shape, text};
use crate::decode::WATCHDOG_S;
use crate::error::{MediaError, Place, RenderError, Stage};
use crate::materials::Materials;
use reelforge_timeline::animation::motion_max_scale;
use reelforge_timeline::layer::{ArtWordLayer, PictureLayer, ShapeLayer, TextFields, VideoLayer};
use reelforge_timeline::{Layer, LayerCommon, LayerTiming, Scene};
use std::path::{Path, PathBuf};

/// What a layer draws.
pub enum Content {
    /// A bitmap drawn unchanged every frame, offset from the box.
    Still(Sprite),
    /// GIF frames at the output rate, looped, offset from the box.
    Frames(Vec<Bitmap>, (i32, i32)),
    /// A clip decoded on demand.
    Video(Box<VideoState>),
}

/// A video layer's (or a scene background's) decoder and what it last produced.
pub struct VideoState {
    /// The clip.
    pub path: PathBuf,
    /// Cut start in the source, seconds.
    pub cut_start: f64,
    /// Frames from the cut start that play (the cut's length, or the clip's once its end is
    /// met); `None` until known.
    pub frames: Option<i64>,
    /// Whether the clip starts again at its cut start when it ends (dynamic backgrounds)
    /// rather than holding its last frame.
    pub looped: bool,
    /// Decoded size.
    pub size: (u32, u32),
    /// Offset of the finished picture inside the box (negative when it covers the box).
    pub inset: (i32, i32),
    /// Brightness/contrast/saturation matrix.
    pub matrix: Option<filter::Matrix>,
    /// Unsharp-mask amount (0 for none).
    pub sharpen: f32,
    /// How a background clip that is cropped or blurred is finished: only the part that shows
    /// is converted, blurred and scaled. `None`: the decoded frame is drawn as it is.
    pub cut: Option<Cut>,
    /// The converted part of the decoded frame when `cut` is set, reused from frame to frame.
    pub work: Vec<u8>,
    /// Whether the clip has an alpha channel to premultiply.
    pub transparent: bool,
    /// Reverse playback: the played range decoded once into a spool read backwards.
    pub reverse: Option<Spool>,
    /// The decoder and its last frame, shared with the scene's other layers that show the
    /// same clip frames ([`super::feed::share`]).
    pub feed: super::feed::SharedFeed,
    /// The size the clip shows at when it is decoded larger (its feed is shared with a larger
    /// use of the same clip): the decoded frame is scaled to it before it is converted.
    pub scale_to: Option<(u32, u32)>,
    /// Y, U and V planes reused from frame to frame: the decoded frame scaled for `scale_to`
    /// or a cut's shrunk crop, and a cut's blurred part drawn as planes.
    pub planes: Vec<u8>,
    /// The clip frame in `last`.
    pub shown: Option<i64>,
    /// The last frame, held when the clip ends before the layer.
    pub last: Option<Bitmap>,
}

impl VideoState {
    /// Returns whether the decoded frame is drawn as it is, or only scaled (`scale_to`): not
    /// cut, reversed, premultiplied or adjusted.
    pub fn plain(&self) -> bool {
        self.cut.is_none()
            && self.reverse.is_none()
            && !self.transparent
            && self.matrix.is_none()
            && self.sharpen <= 0.0
    }

    /// Returns the part of the decoded frame to convert: `cut`'s crop, or the whole frame.
    pub fn region(&self) -> (u32, u32, u32, u32) {
        self.cut
            .as_ref()
            .map_or((0, 0, self.size.0, self.size.1), |c| c.crop)
    }

    /// Turns decoded RGBA bytes (the whole frame, or `region()` of it) into the frame drawn:
    /// premultiplied, adjusted, sharpened, then cut, blurred and scaled as `cut` says; the
    /// held frame's allocation is reused for the result and `px`'s is kept for the next frame.
    pub fn finish(&mut self, w: u32, h: u32, px: Vec<u8>) -> Bitmap {
        let b = self.adjust(w, h, px);
        let Some(cut) = &self.cut else {
            return b;
        };
        let held = self.last.take().map(|l| l.px).unwrap_or_default();
        let (out, part) = cut.apply(b, self.size, held);
        self.work = part;
        out
    }

    /// Finishes decoded RGBA bytes of `region()` as [`VideoState::finish`] does, for a cut
    /// clip whose finished picture is exactly the whole of `planes` (I420 of `size`, a covering
    /// background): the blurred part is converted to I420 at its own size and scaled plane by
    /// plane over the frame, which scales 1.5 bytes a pixel instead of 4 and leaves no RGBA
    /// frame to convert. `last` is left as it was. Returns false, having drawn nothing, when
    /// the clip is not such a picture.
    pub fn finish_planes(
        &mut self,
        (w, h): (u32, u32),
        px: Vec<u8>,
        size: (u32, u32),
        planes: &mut [u8],
    ) -> bool {
        let Some(cut) = &self.cut else {
            self.work = px;
            return false;
        };
        if cut.size != size || self.transparent {
            self.work = px;
            return false;
        }
        let (part, visible) = cut.blurred(self.adjust(w, h, px), self.size);
        let (pw, ph) = (part.w, part.h);
        self.planes.resize(crate::yuv::i420_len(pw, ph), 0);
        crate::yuv::rgba_to_i420(&part.px, pw, ph, &mut self.planes);
        self.work = part.px;
        super::draw::scale_i420(&self.planes, (pw, ph), visible, planes, size)
    }

    /// Premultiplies, adjusts and sharpens decoded RGBA bytes.
    fn adjust(&self, w: u32, h: u32, px: Vec<u8>) -> Bitmap {
        let mut b = if self.transparent {
            Bitmap::from_straight(w, h, px)
        } else {
            Bitmap {
                w,
                h,
                px,
                opaque: true,
            }
        };
        if let Some(m) = &self.matrix {
            filter::apply_matrix(&mut b, m);
        }
        if self.sharpen > 0.0 {
            filter::sharpen(&mut b, self.sharpen);
        }
        b
    }
}

/// A background clip's finishing when it is enlarged and cropped (`cover`) or blurred: only
/// the part of the decoded frame that shows (with a margin the blur reads from) is converted
/// and blurred, at the decoded size, which for an enlarged clip is its source size; then that
/// part is scaled to the size it shows at. So a clip covering a portrait frame is neither
/// decoded, converted nor blurred at the size of its uncropped enlargement, nor enlarged
/// before it is blurred.
#[derive(Debug, Clone, PartialEq)]
pub struct Cut {
    /// Standard deviation in decoded pixels (0: no blur).
    pub sigma: f32,
    /// The part of the decoded frame converted and blurred: x, y, width, height (x and y even,
    /// for I420's shared chroma).
    pub crop: (u32, u32, u32, u32),
    /// The part that shows, inside `crop`, in decoded pixels: x, y, width, height.
    pub visible: (f64, f64, f64, f64),
    /// Size of the finished picture in output pixels.
    pub size: (u32, u32),
    /// A strongly blurred crop is converted and blurred at this fraction of its size (its
    /// planes scaled down first): `(width, height)` of the shrunk crop, or `None`.
    pub shrunk: Option<(u32, u32)>,
}

/// The smallest blur, in pixels of the shrunk crop, that a crop is shrunk for: at σ 2 a
/// Gaussian leaves nothing near the shrunk picture's Nyquist frequency (its response there is
/// e^(−2π²σ²/4) < 10⁻⁸), so shrinking, blurring and enlarging gives the same picture as
/// blurring at full size, on a fraction of the pixels.
const SHRUNK_SIGMA: f32 = 2.0;

impl Cut {
    /// Plans the finishing of a clip of source size `src` placed at `placed` (`placement`'s size
    /// and offset) in a `frame`, blurred by `radius` output pixels ([`filter::blur`]'s
    /// strength; 0 for none). Returns the size to decode at, the finished picture's offset, and
    /// the plan.
    fn plan(
        src: (u32, u32),
        placed: (u32, u32, i32, i32),
        frame: (u32, u32),
        radius: usize,
    ) -> ((u32, u32), (i32, i32), Cut) {
        let (dw, dh, ix, iy) = placed;
        let even = |v: u32| (v / 2).max(1) * 2;
        // Enlarged: decode at the source's own size and blur there; shrunk: at the placed size.
        let decoded = if dw > src.0 {
            (even(src.0), even(src.1))
        } else {
            (dw, dh)
        };
        let kx = f64::from(dw) / f64::from(decoded.0);
        let ky = f64::from(dh) / f64::from(decoded.1);
        let span = |inset: i32, placed: u32, frame: u32| {
            let lo = i64::from(-inset).max(0);
            let hi = i64::from(placed).min(i64::from(frame) - i64::from(inset));
            (lo, (hi - lo).max(1))
        };
        let (vx, vw) = span(ix, dw, frame.0);
        let (vy, vh) = span(iy, dh, frame.1);
        let sigma = radius as f32 / 2.0 / kx as f32;
        let margin = (3.0 * f64::from(sigma)).ceil() + 1.0;
        let cut = |at: f64, len: f64, k: f64, limit: u32| {
            let (a, b) = (at / k, (at + len) / k);
            let lo = ((a.floor() - margin) / 2.0).floor().max(0.0) * 2.0;
            let hi = (b.ceil() + margin).min(f64::from(limit));
            (lo as u32, (hi - lo).max(1.0) as u32, a - lo, b - a)
        };
        let (cx, cw, sx, sw) = cut(vx as f64, vw as f64, kx, decoded.0);
        let (cy, ch, sy, sh) = cut(vy as f64, vh as f64, ky, decoded.1);
        let shrink = (sigma / SHRUNK_SIGMA).floor().max(1.0) as u32;
        let plan = Cut {
            sigma,
            crop: (cx, cy, cw, ch),
            visible: (sx, sy, sw, sh),
            size: (vw as u32, vh as u32),
            // Even, so the shrunk chroma planes are exactly half the shrunk luma.
            shrunk: (shrink > 1).then(|| {
                let even = |v: u32| (v.div_ceil(shrink).div_ceil(2) * 2).max(2);
                (even(cw), even(ch))
            }),
        };
        (decoded, (ix.max(0), iy.max(0)), plan)
    }

    /// Blurs and scales `frame` — the crop already cut by the decoder, or (a whole decoded
    /// frame of size `decoded`) cut here — into the allocation `into`. Returns the finished
    /// picture and the crop's allocation, for the next frame.
    fn apply(&self, frame: Bitmap, decoded: (u32, u32), into: Vec<u8>) -> (Bitmap, Vec<u8>) {
        let (part, visible) = self.blurred(frame, decoded);
        let (ow, oh) = (self.size.0.max(1), self.size.1.max(1));
        let mut px = into;
        px.resize(ow as usize * oh as usize * 4, 0);
        let mut out = Bitmap {
            w: ow,
            h: oh,
            px,
            opaque: part.opaque,
        };
        if !compose::resize_into(part.view(), &mut out.px, ow, oh, Some(visible)) {
            out = Bitmap::new(ow, oh);
        }
        (out, part.px)
    }

    /// Cuts and blurs `frame` as [`Cut::apply`] does, short of scaling it to its finished size:
    /// returns the blurred part and the part of it that shows (x, y, width, height).
    fn blurred(&self, frame: Bitmap, decoded: (u32, u32)) -> (Bitmap, (f64, f64, f64, f64)) {
        let (x, y, w, h) = self.crop;
        // The decoder's frame arrives as the shrunk crop (the usual path), or whole (a
        // reversed clip's spool) or as the crop at full size, both cut and blurred as planned.
        let (sigma, visible) = match self.shrunk {
            Some((pw, ph)) if (frame.w, frame.h) == (pw, ph) => {
                let (fx, fy) = (f64::from(pw) / f64::from(w), f64::from(ph) / f64::from(h));
                let v = self.visible;
                (
                    self.sigma * ((fx + fy) / 2.0) as f32,
                    (v.0 * fx, v.1 * fy, v.2 * fx, v.3 * fy),
                )
            }
            _ => (self.sigma, self.visible),
        };
        let mut part = if (frame.w, frame.h) == decoded && (w, h) != decoded {
            let (x, y) = (
                x.min(frame.w.saturating_sub(1)),
                y.min(frame.h.saturating_sub(1)),
            );
            let (w, h) = (w.min(frame.w - x), h.min(frame.h - y));
            let mut part = Bitmap::new(w, h);
            let row = w as usize * 4;
            for (r, out) in part.px.chunks_exact_mut(row).enumerate() {
                let at = ((y as usize + r) * frame.w as usize + x as usize) * 4;
                out.copy_from_slice(&frame.px[at..at + row]);
            }
            part.opaque = frame.opaque;
            part
        } else {
            frame
        };
        if sigma > 0.0 {
            compose::blur::gaussian(&mut part, sigma);
        }
        (part, visible)
    }
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
    /// Scale the content was prepared at, relative to the box (above 1 for a zooming layer,
    /// so it keeps its detail at its largest).
    pub prepared_scale: f64,
    /// What it draws.
    pub content: Content,
    /// An opaque still's picture in I420, converted when it is first scaled straight into an
    /// I420 frame (a zooming picture covering the frame).
    pub i420: Option<Vec<u8>>,
    /// Its content reaches past its box (a shape's drop shadow, a text overflowing its box): drawn
    /// whole, as the stage draws it, unless a wipe clips it.
    pub spills: bool,
}

impl Drawable {
    /// Returns whether the content changes from frame to frame.
    pub fn is_dynamic(&self) -> bool {
        !matches!(self.content, Content::Still(_))
            || reelforge_timeline::animation::motion_zoom(&self.timing.motion).is_some()
    }
}

struct Ctx<'a> {
    materials: &'a Materials,
    scale: f64,
    fps: (i32, i32),
    scene: usize,
}

impl Ctx<'_> {
    fn place(&self, c: &LayerCommon, material: Option<&str>) -> Place {
        let id = c.id.to_string();
        Place {
            scene: Some(self.scene),
            layer: Some(if id.is_empty() {
                "(no id)".to_owned()
            } else {
                id
            }),
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
            prepared_scale: motion_max_scale(&c.motion),
            content,
            i420: None,
            spills: false,
        }
    }

    fn px(&self, c: &LayerCommon) -> (u32, u32) {
        // Zooming layers keep source detail for their largest size.
        self.px_at(c, motion_max_scale(&c.motion))
    }

    /// Returns the layer's box in output pixels at `z` times its size.
    fn px_at(&self, c: &LayerCommon, z: f64) -> (u32, u32) {
        let dim = |v: f64| ((v * self.scale * z).round() as u32).clamp(1, 8192);
        (dim(c.w), dim(c.h))
    }

    /// Returns the scale, relative to its box, a picture covering the box is prepared at: its
    /// largest zoom, but not beyond the source's own detail (enlarging past it once and then
    /// shrinking every frame would cost time and sharpness for nothing).
    fn detail_scale(&self, c: &LayerCommon, src: (u32, u32)) -> f64 {
        let z = motion_max_scale(&c.motion);
        let (bw, bh) = (c.w * self.scale, c.h * self.scale);
        let k = (bw / f64::from(src.0.max(1))).max(bh / f64::from(src.1.max(1)));
        if k > 0.0 {
            z.min((1.0 / k).max(1.0))
        } else {
            z
        }
    }
}

/// Prepares scene `scene`: its background material (when it has one) under every layer, then
/// every drawable layer sorted by z (stable, so document order breaks ties).
pub fn scene_layers(
    s: &Scene,
    materials: &Materials,
    scale: f64,
    size: (u32, u32),
    fps: (i32, i32),
    scene: usize,
) -> Result<Vec<Drawable>, RenderError> {
    let ctx = Ctx {
        materials,
        scale,
        fps,
        scene,
    };
    let mut out = Vec::new();
    if let Some(bg) = background(&ctx, s, size)? {
        out.push(bg);
    }
    for layer in &s.layers {
        prepare(&ctx, layer, &mut out)?;
    }
    out.sort_by_key(|d| d.z);
    Ok(out)
}

/// Flattens the scene's bottom layer, when it is a still with transparency, onto the scene's
/// background colour `bg`: only that colour is ever under it, and source-over onto one colour
/// is linear in the premultiplied source, so the flattened picture drawn at any opacity, scale
/// or angle gives the same pixels (rounding aside), while being opaque it is copied and scaled
/// straight into the frame instead of blended, and can cover the frame.
pub fn flatten_bottom(layers: &mut [Drawable], bg: [u8; 3]) {
    let Some(Drawable {
        content: Content::Still(sp),
        ..
    }) = layers.first_mut()
    else {
        return;
    };
    if sp.bitmap.opaque {
        return;
    }
    let (w, h) = (sp.bitmap.w, sp.bitmap.h);
    let mut flat = Bitmap::filled(w, h, bg);
    compose::draw(
        &mut flat,
        sp.bitmap.view(),
        0,
        0,
        1.0,
        compose::Rect::of(w, h),
    );
    flat.opaque = true;
    sp.bitmap = flat;
}

/// Returns the material id of a scene's background, when the materials know it: a scene's `id`
/// names its background material, and an id the material library does not know is a plain canvas.
pub fn background_of<'a>(s: &Scene, materials: &'a Materials) -> Option<(String, &'a str)> {
    let id = s.id.as_ref()?.to_string();
    let path = materials.path_of(&id)?;
    Some((id, path))
}

const PICTURE_EXTENSIONS: [&str; 9] = ["png", "jpg", "jpeg", "webp", "bmp", "svg", "heic", "heif", "avif"];

fn extension(path: &Path) -> String {
    path.extension()
        .and_then(|e| e.to_str())
        .unwrap_or("")
        .to_ascii_lowercase()
}

/// The scene's background picture or clip over the whole frame: fitted inside it (bgFit "") or
/// covering it ("cover"), blurred by bgBlur; a clip plays its `range` and loops.
fn background(ctx: &Ctx<'_>, s: &Scene, size: (u32, u32)) -> Result<Option<Drawable>, RenderError> {
    let Some((id, src)) = background_of(s, ctx.materials) else {
        return Ok(None);
    };
    let place = Place {
        scene: Some(ctx.scene),
        layer: Some("background".to_owned()),
        material: Some(format!("{id} ({src})")),
    };
    let path = ctx
        .materials
        .resolve(src)
        .map_err(|e| place.err(Stage::Fetch, e))?;
    let cover = s.bg_fit == "cover";
    let blur = (s.bg_blur.max(0.0) * ctx.scale).round() as usize;
    let (w, h) = size;
    let common = LayerCommon {
        start_time: 0.0,
        end_time: s.time_length,
        w: f64::from(w) / ctx.scale,
        h: f64::from(h) / ctx.scale,
        z: i64::MIN,
        ..LayerCommon::default()
    };
    let content = if extension(&path) == "gif" {
        let frames = image::load_gif(&path).map_err(|e| place.err(Stage::Decode, e))?;
        let mut offset = (0, 0);
        let frames = frames
            .into_iter()
            .map(|(b, d)| {
                let (mut b, dx, dy) = fitted(&b, w, h, cover);
                filter::blur(&mut b, blur);
                offset = (dx, dy);
                (b, d)
            })
            .collect();
        Content::Frames(resample(frames, ctx.fps), offset)
    } else if PICTURE_EXTENSIONS.contains(&extension(&path).as_str()) {
        let src = image::load(&path).map_err(|e| place.err(Stage::Decode, e))?;
        let (mut b, dx, dy) = fitted(&src, w, h, cover);
        filter::blur(&mut b, blur);
        Content::Still(Sprite { bitmap: b, dx, dy })
    } else {
        let info =
            crate::probe::probe(&path, WATCHDOG_S).map_err(|e| place.err(Stage::Decode, e))?;
        if !info.has_video || info.width == 0 || info.height == 0 {
            return Err(place.err(Stage::Decode, MediaError::NoStream("video")));
        }
        let src = (info.width, info.height);
        let (dw, dh, ix, iy) = placement(src, (w, h), cover);
        let range = range_of(&s.range);
        let mut v = video_state(path, (dw, dh), (ix, iy), range, info.duration, ctx.fps);
        v.looped = true;
        // A blurred clip, or one enlarged past the frame and cropped (`cover`), is decoded at
        // its own size and only the part that shows is converted and finished: decoding at the
        // enlarged size would scale, convert and hold three times the pixels that show.
        if blur > 0 || (dw > w || dh > h) {
            let (decoded, inset, plan) = Cut::plan(src, (dw, dh, ix, iy), (w, h), blur);
            (v.size, v.inset, v.cut) = (decoded, inset, Some(plan));
        }
        Content::Video(Box::new(v))
    };
    let mut d = ctx.base(&common, place, 1.0, content);
    d.rect = (0.0, 0.0, f64::from(w), f64::from(h));
    Ok(Some(d))
}

/// Returns a scene's `range` `[start, end]` in source seconds, when it holds one.
fn range_of(v: &serde_json::Value) -> Option<(f64, f64)> {
    let a = v.as_array()?;
    let n = |i: usize| {
        a.get(i)
            .and_then(|x| x.as_f64().or_else(|| x.as_str()?.trim().parse().ok()))
    };
    Some((n(0)?, n(1)?))
}

/// Returns the drawn size and offset of a `src`-sized picture in a `w`×`h` box: fitted inside
/// it, or covering it (offset negative, the box clips it).
fn placement(src: (u32, u32), (w, h): (u32, u32), cover: bool) -> (u32, u32, i32, i32) {
    let (sw, sh) = (f64::from(src.0.max(1)), f64::from(src.1.max(1)));
    let kx = f64::from(w) / sw;
    let ky = f64::from(h) / sh;
    let k = if cover { kx.max(ky) } else { kx.min(ky) };
    // Even sizes and offsets: the decoder's scaler and the encoder's chroma want whole 2×2
    // blocks, and a clip that lands on whole blocks is copied into the frame as it is decoded
    // (`engine::planar`); centred to within a pixel.
    let dw = (((sw * k) / 2.0).round() as u32 * 2).max(2);
    let dh = (((sh * k) / 2.0).round() as u32 * 2).max(2);
    let ix = (i64::from(w) - i64::from(dw)).div_euclid(4) * 2;
    let iy = (i64::from(h) - i64::from(dh)).div_euclid(4) * 2;
    (dw, dh, ix as i32, iy as i32)
}

/// Returns a still picture fitted in or covering a `w`×`h` box, with its offset in the box.
fn fitted(src: &Bitmap, w: u32, h: u32, cover: bool) -> (Bitmap, i32, i32) {
    if cover {
        return (image::cover(src, w, h), 0, 0);
    }
    let (dw, dh, ix, iy) = placement((src.w, src.h), (w, h), false);
    (compose::resize(src.view(), dw, dh, None), ix, iy)
}

/// Resamples timed frames to one per output frame, so playing is one lookup.
fn resample(frames: Vec<(Bitmap, f64)>, fps: (i32, i32)) -> Vec<Bitmap> {
    let fps = f64::from(fps.0) / f64::from(fps.1.max(1));
    let total: f64 = frames.iter().map(|f| f.1).sum();
    let count = ((total * fps).round() as usize).clamp(1, 3000);
    let mut starts = Vec::with_capacity(frames.len());
    let mut acc = 0.0;
    for (_, d) in &frames {
        starts.push(acc);
        acc += d;
    }
    (0..count)
        .map(|i| {
            let t = i as f64 / fps;
            let k = starts.partition_point(|s| *s <= t).saturating_sub(1);
            frames.get(k).map(|f| f.0.clone()).unwrap_or_default()
        })
        .collect()
}

/// Returns a clip's decoding state: `duration` (probed, seconds; 0 when unknown) and the cut
/// give the number of frames that play.
fn video_state(
    path: PathBuf,
    size: (u32, u32),
    inset: (i32, i32),
    cut: Option<(f64, f64)>,
    duration: f64,
    fps: (i32, i32),
) -> VideoState {
    let rate = reelforge_timeline::time::FrameRate { num: fps.0.max(1) as u32, den: fps.1.max(1) as u32 };
    let cut_start = cut.map_or(0.0, |(s, _)| s.max(0.0));
    let mut end = cut.filter(|(s, e)| e > s).map(|(_, e)| e);
    if duration > 0.0 {
        end = Some(end.map_or(duration, |e| e.min(duration)));
    }
    VideoState {
        path,
        cut_start,
        // The editor's stage holds the same frame (`FrameRate::clip_source_time`).
        frames: end.map(|e| rate.cut_frames(cut_start, e)),
        looped: false,
        size,
        inset,
        matrix: None,
        sharpen: 0.0,
        cut: None,
        work: Vec::new(),
        transparent: false,
        reverse: None,
        feed: super::feed::SharedFeed::default(),
        scale_to: None,
        planes: Vec::new(),
        shown: None,
        last: None,
    }
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
            // An effect overlay is a picture, a GIF or a clip (transparent when WebM), by its file.
            let ext = extension(Path::new(e.src.split(['?', '#']).next().unwrap_or("")));
            out.push(if ext == "gif" {
                gif(ctx, &p)?
            } else if PICTURE_EXTENSIONS.contains(&ext.as_str()) || ext.is_empty() {
                picture(ctx, &p)?
            } else {
                let v = VideoLayer {
                    common: e.common.clone(),
                    video_src: serde_json::Value::String(e.src.clone()),
                    is_transparent: ext == "webm",
                    no_audio: true,
                    ..VideoLayer::default()
                };
                video(ctx, &v)?
            });
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
    let c = if t.req_color.is_empty() {
        &t.color
    } else {
        &t.req_color
    };
    colour::parse(c).unwrap_or([255, 255, 255, 255])
}

fn text_style(t: &TextFields, s: f64, fill: Fill) -> TextStyle {
    let content = t.displayed();
    let border = (t.border_width * s) as f32;
    TextStyle {
        content: content.to_owned(),
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

fn rasterised(
    ctx: &Ctx<'_>,
    c: &LayerCommon,
    place: Place,
    style: TextStyle,
) -> Result<Drawable, RenderError> {
    let (w, h) = ctx.px(c);
    let sprite = text::rasterise(&style, w, h).map_err(|e| place.err(Stage::Compose, e))?.trim();
    // A text overflowing its box is drawn whole, as the stage lets it overflow.
    let spills = sprite.reaches_past(w, h);
    Ok(Drawable { spills, ..ctx.base(c, place, 1.0, Content::Still(sprite)) })
}

fn art_word(ctx: &Ctx<'_>, a: &ArtWordLayer) -> Result<Drawable, RenderError> {
    let place = ctx.place(&a.common, None);
    let fill = match (colour::parse(&a.color1), colour::parse(&a.color2)) {
        (Some(c1), Some(c2)) => Fill::Gradient(c1, c2),
        _ => Fill::Solid(colour::parse(&a.fill_color).unwrap_or_else(|| colour_of(&a.text))),
    };
    let mut style = text_style(&a.text, ctx.scale, fill);
    // Outermost first, so the wider stroke lies under the narrower one.
    style.strokes.extend(
        a.borders()
            .iter()
            .filter_map(|b| Some(((b.width * ctx.scale) as f32, colour::parse(&b.color)?))),
    );
    style.strokes.sort_by(|x, y| y.0.total_cmp(&x.0));
    if let Some(c) = colour::parse(&a.shadow_color) {
        let off = (3.0 * ctx.scale) as f32;
        style.shadow = Some((c, off, off));
    }
    let (w, h) = ctx.px(&a.common);
    let mut sprite = text::rasterise(&style, w, h).map_err(|e| place.err(Stage::Compose, e))?;
    if a.blur > 0.0 {
        filter::blur(&mut sprite.bitmap, (a.blur * ctx.scale).round() as usize);
    }
    let opacity = (a.alpha / 255.0).clamp(0.0, 1.0);
    let sprite = sprite.trim();
    let spills = sprite.reaches_past(w, h);
    Ok(Drawable { spills, ..ctx.base(&a.common, place, opacity, Content::Still(sprite)) })
}

fn shape_layer(ctx: &Ctx<'_>, s: &ShapeLayer) -> Result<Drawable, RenderError> {
    let place = ctx.place(&s.common, None);
    let sc = ctx.scale as f32;
    let fill = match s.fill_type.as_str() {
        "gradient" => shape::ShapeFill::Colours(
            s.gradient_colors
                .iter()
                .filter_map(|c| colour::parse(c))
                .collect(),
        ),
        "image" => {
            let mut place = place.clone();
            place.material = Some(s.background_src.clone());
            let path = ctx
                .materials
                .resolve(&s.background_src)
                .map_err(|e| place.err(Stage::Fetch, e))?;
            let (w, h) = ctx.px(&s.common);
            let pic = image::load(&path).map_err(|e| place.err(Stage::Decode, e))?;
            shape::ShapeFill::Picture(image::cover(&pic, w, h))
        }
        _ => shape::ShapeFill::Colours(colour::parse(&s.fill).into_iter().collect()),
    };
    let style = shape::ShapeStyle {
        kind: s.shape.clone(),
        svg: reelforge_timeline::shape::shape_drawing(
            &s.shape,
            s.shape_code.as_deref().unwrap_or_default(),
            &s.svg_style_type,
            (s.common.w, s.common.h),
            s.border_radius,
        ),
        // Multi-colour drawings keep their own colours; plain shapes and lines take the layer's.
        recolour: s.svg_style_type != "specialSvg",
        fill,
        stroke: colour::parse(&s.stroke)
            .filter(|_| s.stroke_width > 0.0)
            .map(|c| (c, s.stroke_width as f32 * sc)),
        radius: s.border_radius as f32 * sc,
        shadow: colour::parse(&s.shadow_color).map(|c| {
            (
                c,
                s.shadow_set_x as f32 * sc,
                s.shadow_set_y as f32 * sc,
                s.shadow_blur as f32 * sc,
            )
        }),
    };
    let (w, h) = ctx.px(&s.common);
    let sprite = shape::rasterise(&style, w, h).map_err(|e| place.err(Stage::Compose, e))?;
    let spills = sprite.reaches_past(w, h);
    Ok(Drawable { spills, ..ctx.base(&s.common, place, 1.0, Content::Still(sprite)) })
}

/// Returns the mask material id of a picture layer: `maskClip` above 0 (-1 and 0 are none).
pub fn mask_id(p: &PictureLayer) -> Option<String> {
    (p.mask_clip > 0).then(|| p.mask_clip.to_string())
}

/// Returns the path of a picture layer's mask, `None` without one; a mask id the materials do
/// not know is missing.
pub fn mask_path<'a>(
    p: &PictureLayer,
    materials: &'a Materials,
) -> Result<Option<&'a str>, MediaError> {
    let Some(id) = mask_id(p) else {
        return Ok(None);
    };
    materials
        .path_of(&id)
        .map(Some)
        .ok_or_else(|| MediaError::Missing(format!("mask material {id}")))
}

/// Returns the mask of a picture layer scaled to its box and blurred by maskBlur, or `None`.
/// `maskClip` names a mask material by id (-1, or any id not above 0, for none).
fn mask_of(
    ctx: &Ctx<'_>,
    p: &PictureLayer,
    place: &Place,
    w: u32,
    h: u32,
) -> Result<Option<Bitmap>, RenderError> {
    let Some(id) = mask_id(p) else {
        return Ok(None);
    };
    let mut place = place.clone();
    place.material = Some(format!("mask {id}"));
    let Some(src) = mask_path(p, ctx.materials).map_err(|e| place.err(Stage::Fetch, e))? else {
        return Ok(None);
    };
    let path = ctx
        .materials
        .resolve(src)
        .map_err(|e| place.err(Stage::Fetch, e))?;
    let mask = image::load(&path).map_err(|e| place.err(Stage::Decode, e))?;
    let mut mask = compose::resize(mask.view(), w, h, None);
    filter::blur(
        &mut mask,
        (p.mask_blur.max(0.0) * ctx.scale).round() as usize,
    );
    Ok(Some(mask))
}

/// Mirrors, filters, blurs, masks and borders a picture prepared at `z` times its box.
fn finish_picture(ctx: &Ctx<'_>, p: &PictureLayer, b: &mut Bitmap, mask: Option<&Bitmap>, z: f64) {
    let scale = ctx.scale * z;
    if p.mirror {
        image::mirror(b);
    }
    if let Some(f) = filter::by_name(&p.filter) {
        f.apply(b, scale);
    }
    if p.blur > 0.0 {
        filter::blur(b, (p.blur * scale).round() as usize);
    }
    if let Some(m) = mask {
        image::apply_mask(b, m);
    }
    let s = scale as f32;
    image::round_and_border(
        b,
        p.border_radius as f32 * s,
        p.border_width as f32 * s,
        &p.border_color,
    );
}

fn picture(ctx: &Ctx<'_>, p: &PictureLayer) -> Result<Drawable, RenderError> {
    let place = ctx.place(&p.common, Some(&p.src));
    let path = ctx
        .materials
        .resolve(&p.src)
        .map_err(|e| place.err(Stage::Fetch, e))?;
    let src = image::load(&path).map_err(|e| place.err(Stage::Decode, e))?;
    let z = ctx.detail_scale(&p.common, (src.w, src.h));
    let (w, h) = ctx.px_at(&p.common, z);
    let mask = mask_of(ctx, p, &place, w, h)?;
    let mut b = image::cover(&src, w, h);
    finish_picture(ctx, p, &mut b, mask.as_ref(), z);
    let sprite = Sprite {
        bitmap: b,
        dx: 0,
        dy: 0,
    };
    let mut d = ctx.base(
        &p.common,
        place,
        p.opacity.clamp(0.0, 1.0),
        Content::Still(sprite),
    );
    d.prepared_scale = z;
    Ok(d)
}

fn gif(ctx: &Ctx<'_>, p: &PictureLayer) -> Result<Drawable, RenderError> {
    let place = ctx.place(&p.common, Some(&p.src));
    let path = ctx
        .materials
        .resolve(&p.src)
        .map_err(|e| place.err(Stage::Fetch, e))?;
    let frames = image::load_gif(&path).map_err(|e| place.err(Stage::Decode, e))?;
    let first = frames.first().map_or((1, 1), |(b, _)| (b.w, b.h));
    let z = ctx.detail_scale(&p.common, first);
    let (w, h) = ctx.px_at(&p.common, z);
    let mask = mask_of(ctx, p, &place, w, h)?;
    let frames = frames
        .into_iter()
        .map(|(b, d)| {
            let mut s = image::cover(&b, w, h);
            finish_picture(ctx, p, &mut s, mask.as_ref(), z);
            (s, d)
        })
        .collect();
    let frames = resample(frames, ctx.fps);
    let mut d = ctx.base(
        &p.common,
        place,
        p.opacity.clamp(0.0, 1.0),
        Content::Frames(frames, (0, 0)),
    );
    d.prepared_scale = z;
    Ok(d)
}

/// The largest source a shrunk clip is decoded at its own size for (full HD): its decoder then
/// queues frames of the source's size, which the memory budget counts at the output's; larger
/// sources are scaled down by GStreamer as they are decoded.
const PLANE_SCALED_MAX_PIXELS: u64 = 1920 * 1088;

fn video(ctx: &Ctx<'_>, v: &VideoLayer) -> Result<Drawable, RenderError> {
    let src = v.video_path().unwrap_or("");
    let place = ctx.place(&v.common, Some(src));
    let path = ctx
        .materials
        .resolve(src)
        .map_err(|e| place.err(Stage::Fetch, e))?;
    let info = crate::probe::probe(&path, WATCHDOG_S).map_err(|e| place.err(Stage::Decode, e))?;
    if !info.has_video || info.width == 0 || info.height == 0 {
        return Err(place.err(Stage::Decode, MediaError::NoStream("video")));
    }
    // Fitted inside the box, keeping the clip's aspect (as the editor's <video> shows it).
    let (dw, dh, ix, iy) = placement((info.width, info.height), ctx.px(&v.common), false);
    let mut state = video_state(
        path,
        (dw, dh),
        (ix, iy),
        v.cut_range(),
        info.duration,
        ctx.fps,
    );
    state.matrix = filter::adjustments(v.brightness, v.contrast, v.saturation);
    state.sharpen = (v.sharpen.clamp(0.0, 100.0) / 100.0) as f32;
    state.transparent = v.is_transparent;
    if v.reversed() {
        let rate = f64::from(ctx.fps.0) / f64::from(ctx.fps.1.max(1));
        let span = ((v.common.end_time - v.common.start_time).max(0.0) * rate).round() as i64;
        let frames = state.frames.map_or(span, |n| n.min(span)).max(1);
        let req = crate::decode::VideoRequest {
            width: state.size.0,
            height: state.size.1,
            fps: ctx.fps,
            start: state.cut_start,
            watchdog_s: WATCHDOG_S,
            alpha: state.transparent,
        };
        let spool =
            Spool::fill(&state.path, &req, frames).map_err(|e| place.err(Stage::Decode, e))?;
        state.frames = Some(spool.frames());
        state.reverse = Some(spool);
    } else if !state.transparent
        && info.width % 2 == 0
        && info.height % 2 == 0
        && u64::from(dw) * u64::from(dh) * 2 <= u64::from(info.width) * u64::from(info.height)
        && u64::from(info.width) * u64::from(info.height) <= PLANE_SCALED_MAX_PIXELS
    {
        // Shown at half its area or less: decoded at its own size and scaled plane by plane
        // before it is converted (`Frame::scaled_region_into`), which costs a third of
        // GStreamer's `videoscale` there (bench clip 1280×720 → 720×406: about 0.9 against
        // 2.5 ms a frame), and lets the clip share its decoder with a larger use of it. For
        // milder shrinks `videoscale` is the cheaper (1280×720 → 1080×608: 1.6 against
        // 2.5 ms), unless the decoder is shared (`feed::share`).
        state.scale_to = Some(state.size);
        state.size = (info.width, info.height);
    }
    Ok(ctx.base(&v.common, place, 1.0, Content::Video(Box::new(state))))
}
