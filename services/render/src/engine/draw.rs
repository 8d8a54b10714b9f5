//! Draws one scene at one of its frames: background, then layers in z order at their animated
//! state (from `reelforge_timeline::layer_state`). The bottom run of layers that are at rest
//! and static is drawn once into a cached base and reused while it stays the same.

use super::feed::Feed;
use super::planar::{Backdrop, Planar};
use super::prepare::{Content, Drawable, VideoState};
use crate::compose::{self, Bitmap, Rect, View, filter};
use crate::decode::{VideoDecoder, VideoRequest};
use crate::error::{RenderError, Stage};
use crate::yuv;
use reelforge_timeline::animation::{Clip, Edge, LayerState};
use reelforge_timeline::{FrameRate, layer_state};

/// A prepared scene with its cache.
pub struct SceneState {
    /// Background colour.
    pub bg: [u8; 3],
    /// Layers sorted by z.
    pub layers: Vec<Drawable>,
    /// Scene (and rule) filter over the whole frame.
    pub filters: Vec<filter::Prepared>,
    /// Canvas blur radius in output pixels.
    pub canvas_blur: usize,
    /// Visible layers of the cached base and the base itself.
    pub cache: Option<(Vec<usize>, Bitmap)>,
    /// The cached base in I420, converted when a frame is first drawn on it in I420.
    pub cache_planes: Option<Vec<u8>>,
    /// The number the cached base was made under, unique in the process.
    pub cache_id: u64,
    /// Watchdog limit for the decoders.
    pub watchdog_s: u64,
    /// What the canvas this scene drew last holds, so the next frame restores only what the
    /// layers above the base touched.
    pub drawn: Option<Drawn>,
}

/// A canvas as a scene left it: its base (the cached layers, or the background fill) everywhere
/// but in `dirty`, where the layers above the base drew.
#[derive(Debug, Clone, PartialEq)]
pub struct Drawn {
    /// The canvas's allocation (address and length): a frame drawn into another canvas, or a
    /// canvas whose allocation was swapped with a clip frame's, starts from a full base.
    canvas: (usize, usize),
    /// The base's layers and the layer it starts from (none: the background fill under it).
    key: Vec<usize>,
    floor: Option<usize>,
    /// The bounding box of every pixel the layers above the base wrote.
    dirty: Rect,
}

/// Returns the smallest rectangle holding both `a` and `b` (either may be empty).
fn union(a: Rect, b: Rect) -> Rect {
    if a.is_empty() {
        return b;
    }
    if b.is_empty() {
        return a;
    }
    Rect {
        x0: a.x0.min(b.x0),
        y0: a.y0.min(b.y0),
        x1: a.x1.max(b.x1),
        y1: a.y1.max(b.y1),
    }
}

/// Copies rectangle `r` of `base` into `out`, of the same size.
pub fn restore_from(out: &mut Bitmap, base: &Bitmap, r: Rect) {
    let r = r.intersect(Rect::of(out.w, out.h));
    if r.is_empty() {
        return;
    }
    let stride = out.w as usize * 4;
    let (x0, x1) = (r.x0 as usize * 4, r.x1 as usize * 4);
    for y in r.y0 as usize..r.y1 as usize {
        let row = y * stride;
        if let (Some(d), Some(s)) = (
            out.px.get_mut(row + x0..row + x1),
            base.px.get(row + x0..row + x1),
        ) {
            d.copy_from_slice(s);
        }
    }
}

/// Fills rectangle `r` of `out` with an opaque colour.
pub fn fill_rect(out: &mut Bitmap, rgb: [u8; 3], r: Rect) {
    // An empty rectangle may be inverted with negative corners (what a layer wholly off the
    // frame drew), which read as unsigned would be a range of billions of rows.
    let r = r.intersect(Rect::of(out.w, out.h));
    if r.is_empty() {
        return;
    }
    if r == Rect::of(out.w, out.h) {
        out.fill(rgb);
        return;
    }
    let stride = out.w as usize * 4;
    let (x0, x1) = (r.x0 as usize * 4, r.x1 as usize * 4);
    let px = [rgb[0], rgb[1], rgb[2], 255];
    for y in r.y0 as usize..r.y1 as usize {
        let row = y * stride;
        if let Some(d) = out.px.get_mut(row + x0..row + x1) {
            for p in d.chunks_exact_mut(4) {
                p.copy_from_slice(&px);
            }
        }
    }
}

fn at_rest(s: &LayerState) -> bool {
    s.opacity >= 1.0
        && s.offset_x == 0.0
        && s.offset_y == 0.0
        && s.scale == 1.0
        && s.clip.fraction >= 1.0
}

/// Which layers a frame draws, and which of them the cached base holds.
struct Plan {
    /// Each layer's animated state at the frame.
    states: Vec<LayerState>,
    /// The topmost layer that covers the frame opaquely: nothing under it shows.
    floor: Option<usize>,
    /// The layers of the cached base: from the floor up, visible, static and at rest.
    key: Vec<usize>,
    /// The first layer drawn above the base.
    split: usize,
}

impl SceneState {
    /// Caches `base`, the frame with the layers of `key` drawn, under a new number.
    fn set_cache(&mut self, key: Vec<usize>, base: Bitmap) {
        static MADE: std::sync::atomic::AtomicU64 = std::sync::atomic::AtomicU64::new(1);
        self.cache = Some((key, base));
        self.cache_planes = None;
        self.cache_id = MADE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
    }

    /// Returns the plan of local frame `local` on a `w`×`h` canvas.
    fn plan(&self, local: i64, rate: FrameRate, (w, h): (u32, u32)) -> Plan {
        let t = rate.seconds_of(local);
        let states: Vec<LayerState> = self
            .layers
            .iter()
            .map(|l| layer_state(&l.timing, t))
            .collect();
        // Under a layer that covers the whole frame opaquely nothing shows: drawing starts there.
        let floor = (0..self.layers.len())
            .rev()
            .find(|&i| matches!((self.layers.get(i), states.get(i)), (Some(l), Some(s)) if covers(l, s, (w, h))));
        let mut key = Vec::new();
        let mut split = floor.unwrap_or(0);
        for (i, (l, s)) in self.layers.iter().zip(&states).enumerate().skip(split) {
            if !s.visible {
                split = i + 1;
                continue;
            }
            if l.is_dynamic() || !at_rest(s) {
                break;
            }
            key.push(i);
            split = i + 1;
        }
        Plan {
            states,
            floor,
            key,
            split,
        }
    }

    /// Draws local frame `local` of the scene into `out` (the output size). Returns the layers
    /// of the cached base when the frame is that base alone (nothing moves or plays), so the
    /// caller can tell two such frames apart from a changed one.
    pub fn draw(
        &mut self,
        local: i64,
        rate: FrameRate,
        out: &mut Bitmap,
    ) -> Result<Option<Vec<usize>>, RenderError> {
        let Plan {
            states,
            floor,
            key,
            split,
        } = self.plan(local, rate, (out.w, out.h));
        let whole = Rect::of(out.w, out.h);
        let canvas = (out.px.as_ptr() as usize, out.px.len());
        // The canvas still holds this scene's last frame over the same base: only what the
        // layers above the base drew there differs from the base. Filters and the canvas blur
        // change every pixel, so their scenes always start from the whole base.
        let restore = match self.drawn.take() {
            Some(d)
                if d.canvas == canvas
                    && d.key == key
                    && d.floor == floor
                    && self.filters.is_empty()
                    && self.canvas_blur == 0 =>
            {
                d.dirty.intersect(whole)
            }
            _ => whole,
        };
        match &self.cache {
            Some((k, base)) if *k == key && base.w == out.w && base.h == out.h => {
                if restore == whole {
                    out.px.copy_from_slice(&base.px);
                } else {
                    restore_from(out, base, restore);
                }
                out.opaque = true;
            }
            _ if key.is_empty() => {
                if floor.is_none() {
                    fill_rect(out, self.bg, restore);
                }
            }
            _ => {
                if floor.is_none() {
                    out.fill(self.bg);
                }
                for &i in &key {
                    if let (Some(l), Some(s)) = (self.layers.get_mut(i), states.get(i)) {
                        draw_layer(out, l, s, local, rate, self.watchdog_s)?;
                    }
                }
                if !key.is_empty() {
                    self.set_cache(key.clone(), out.clone());
                }
            }
        }
        let mut dirty = Rect::default();
        for i in split..self.layers.len() {
            if let (Some(l), Some(s)) = (self.layers.get_mut(i), states.get(i))
                && s.visible
            {
                let drew = draw_layer(out, l, s, local, rate, self.watchdog_s)?;
                dirty = union(dirty, drew);
            }
        }
        // A layer that swapped its frame in as the canvas leaves nothing to restore from.
        if (out.px.as_ptr() as usize, out.px.len()) == canvas {
            self.drawn = Some(Drawn {
                canvas,
                key: key.clone(),
                floor,
                dirty,
            });
        }
        let still = (split == self.layers.len()).then_some(key);
        for f in &self.filters {
            f.apply(out, 1.0);
        }
        if self.canvas_blur > 0 {
            filter::blur(out, self.canvas_blur);
        }
        out.opaque = true;
        Ok(still)
    }

    /// Draws local frame `local` of the scene straight into `planes`, I420 of the output size
    /// (`planar`'s): the base (the cached layers, the background colour, a covering clip
    /// frame, or a clip over the colour) as planes, the layers above it on `planar`'s overlay, blended
    /// where they drew ([`super::planar`]). Returns `None`, having drawn nothing, when the frame
    /// needs the whole picture in RGBA (a scene filter or canvas blur changes every pixel, or
    /// the covering layer cannot be drawn as planes); otherwise what [`SceneState::draw`]
    /// returns.
    pub fn draw_planar(
        &mut self,
        local: i64,
        rate: FrameRate,
        planar: &mut Planar,
        planes: &mut [u8],
    ) -> Result<Option<Option<Vec<usize>>>, RenderError> {
        if !self.filters.is_empty() || self.canvas_blur > 0 {
            return Ok(None);
        }
        let size = (planar.overlay.w, planar.overlay.h);
        let Plan {
            states,
            floor,
            key,
            split,
        } = self.plan(local, rate, size);
        let mut above = split;
        if !key.is_empty() {
            if !matches!(&self.cache, Some((k, b)) if *k == key && (b.w, b.h) == size) {
                let mut base = Bitmap::new(size.0, size.1);
                if floor.is_none() {
                    base.fill(self.bg);
                }
                for &i in &key {
                    if let (Some(l), Some(s)) = (self.layers.get_mut(i), states.get(i)) {
                        draw_layer(&mut base, l, s, local, rate, self.watchdog_s)?;
                    }
                }
                base.opaque = true;
                self.set_cache(key.clone(), base);
            }
            let Some((_, base)) = &self.cache else {
                return Ok(None);
            };
            let cached = self.cache_planes.get_or_insert_with(|| {
                let mut p = vec![0; yuv::i420_len(base.w, base.h)];
                yuv::rgba_to_i420(&base.px, base.w, base.h, &mut p);
                p
            });
            planes.copy_from_slice(cached);
            planar.begin(Backdrop::Base(self.cache_id), Some(base));
        } else if let Some(f) = floor {
            let (Some(l), Some(s)) = (self.layers.get_mut(f), states.get(f)) else {
                return Ok(None);
            };
            if !blit(l, s, (local, rate, self.watchdog_s), size, planes)? {
                return Ok(None);
            }
            above = f + 1;
            // Clips right above it that can be copied in as planes go in too (a clip contained
            // in a portrait frame over its own blurred copy), in order, until one cannot.
            while let (Some(l), Some(s)) = (self.layers.get_mut(above), states.get(above)) {
                if s.visible && !blit(l, s, (local, rate, self.watchdog_s), size, planes)? {
                    break;
                }
                above += 1;
            }
            planar.begin(Backdrop::Clear, None);
        } else {
            yuv::fill_i420(planes, size.0, size.1, self.bg);
            // The lowest layer may be a clip that can be copied in over the colour (a clip
            // contained in a portrait frame).
            let copied = match (self.layers.get_mut(split), states.get(split)) {
                (Some(l), Some(s)) if s.visible => {
                    blit(l, s, (local, rate, self.watchdog_s), size, planes)?
                }
                _ => false,
            };
            if copied {
                above = split + 1;
                planar.begin(Backdrop::Clear, None);
            } else {
                planar.begin(Backdrop::Colour(self.bg), None);
            }
        }
        let mut drew = Rect::default();
        for i in above..self.layers.len() {
            if let (Some(l), Some(s)) = (self.layers.get_mut(i), states.get(i))
                && s.visible
            {
                let r = draw_layer(&mut planar.overlay, l, s, local, rate, self.watchdog_s)?;
                drew = union(drew, r);
            }
        }
        planar.finish(planes, drew);
        // The RGBA canvas this scene drew on last is not what it drew last any more.
        self.drawn = None;
        Ok(Some((split == self.layers.len()).then_some(key)))
    }

    /// Opens and prerolls the clips that show at the scene's first frame, decoding that frame,
    /// so drawing the scene does not wait on them (called while the scene before still plays).
    pub fn warm_up(&mut self, rate: FrameRate) -> Result<(), RenderError> {
        for l in &mut self.layers {
            if !layer_state(&l.timing, 0.0).visible {
                continue;
            }
            if let Content::Video(v) = &mut l.content {
                video_frame(v, 0, rate, self.watchdog_s)
                    .map_err(|e| l.place.err(Stage::Decode, e))?;
            }
        }
        Ok(())
    }
}

/// Draws layer `l` at state `s` (at local frame, rate and watchdog `timing`) straight into
/// `planes` (I420 of `size`) when it can be: a clip frame shown as it is decoded (or scaled
/// plane by plane), unscaled by its animation, unrotated, opaque, whole, on even pixels inside
/// the frame, in the encoder's colours, whose decoder's planes are copied into place; or an
/// opaque still scaled over the whole frame (a zooming picture), scaled plane by plane from
/// its picture converted to I420 once. Returns false when it cannot be drawn so.
fn blit(
    l: &mut Drawable,
    s: &LayerState,
    (local, rate, watchdog_s): (i64, FrameRate, u64),
    size: (u32, u32),
    planes: &mut [u8],
) -> Result<bool, RenderError> {
    if s.rotation.abs() > 1e-6 || s.opacity * l.opacity < 1.0 || s.clip.fraction < 1.0 {
        return Ok(false);
    }
    let at = Placement::of(l, s, size);
    let (sc, whole) = (at.sc, Rect::of(size.0, size.1));
    let shows = at.shows(&s.clip, whole);
    if let Content::Still(sp) = &l.content {
        let pic = (sp.bitmap.w, sp.bitmap.h);
        let origin = at.origin((sp.dx, sp.dy));
        let Some((dst, crop)) = scaled_target(pic, sc, origin, at.centre(), shows) else {
            return Ok(false);
        };
        if !sp.bitmap.opaque || (sc - 1.0).abs() < 1e-6 || dst != whole {
            return Ok(false);
        }
        let still = l.i420.get_or_insert_with(|| {
            let mut p = vec![0; yuv::i420_len(pic.0, pic.1)];
            yuv::rgba_to_i420(&sp.bitmap.px, pic.0, pic.1, &mut p);
            p
        });
        return Ok(scale_i420(still, pic, crop, planes, size));
    }
    let Content::Video(v) = &mut l.content else {
        return Ok(false);
    };
    if (sc - 1.0).abs() > 1e-6 {
        return Ok(false);
    }
    // Where `draw_layer` puts an unscaled picture: on the whole pixel nearest its origin.
    let (ox, oy) = at.origin(v.inset);
    let (x, y) = (ox.round() as i32, oy.round() as i32);
    let layer_frame = (local - rate.frames_for(l.timing.start)).max(0);
    if v.cut.is_some() {
        if (x, y) != (0, 0) || shows != whole {
            return Ok(false);
        }
        return cut_planes(v, layer_frame, (rate, watchdog_s), size, planes)
            .map_err(|e| l.place.err(Stage::Decode, e));
    }
    let (w, h) = v.scale_to.unwrap_or(v.size);
    let lands = Rect {
        x0: x,
        y0: y,
        x1: x + w as i32,
        y1: y + h as i32,
    };
    // The part that shows inside the layer's box and the frame, copied where it lands, when
    // it starts on whole chroma samples both in the picture and in the frame.
    let vis = lands.intersect(shows);
    if vis.is_empty() || [vis.x0, vis.y0, vis.x0 - x, vis.y0 - y].iter().any(|c| c % 2 != 0) {
        return Ok(false);
    }
    let part = (
        (vis.x0 - x) as u32,
        (vis.y0 - y) as u32,
        (vis.x1 - vis.x0) as u32,
        (vis.y1 - vis.y0) as u32,
    );
    let target = ClipTarget {
        size,
        part,
        at: (vis.x0 as u32, vis.y0 as u32),
    };
    video_planes(v, layer_frame, (rate, watchdog_s), target, planes)
        .map_err(|e| l.place.err(Stage::Decode, e))
}

/// Scales the part `crop` (luma pixels) of the tightly packed I420 picture `pic` of `pic_size`
/// over the whole of `planes`, tightly packed I420 of even `size`, plane by plane. Returns
/// false when it could not.
pub(super) fn scale_i420(
    pic: &[u8],
    pic_size: (u32, u32),
    crop: (f64, f64, f64, f64),
    planes: &mut [u8],
    size: (u32, u32),
) -> bool {
    if !size.0.is_multiple_of(2) || !size.1.is_multiple_of(2) {
        return false;
    }
    let (pw, ph) = (pic_size.0 as usize, pic_size.1 as usize);
    let (cw, ch) = (pw.div_ceil(2), ph.div_ceil(2));
    let (ow, oh) = (size.0 as usize, size.1 as usize);
    if pic.len() < pw * ph + 2 * cw * ch || planes.len() < ow * oh * 3 / 2 {
        return false;
    }
    let (sy, suv) = pic.split_at(pw * ph);
    let (su, sv) = suv.split_at(cw * ch);
    let (dy, duv) = planes.split_at_mut(ow * oh);
    let (du, dv) = duv.split_at_mut(ow / 2 * (oh / 2));
    // Chroma planes are the luma plane at half the resolution, so their crop is half the luma
    // crop, fractions included, and both stay aligned.
    let half = (crop.0 / 2.0, crop.1 / 2.0, crop.2 / 2.0, crop.3 / 2.0);
    let out_half = (size.0 / 2, size.1 / 2);
    compose::resize_plane(sy, (pw, ph), crop, dy, size)
        && compose::resize_plane(su, (cw, ch), half, du, out_half)
        && compose::resize_plane(sv, (cw, ch), half, dv, out_half)
}

/// Returns whether layer `l` at state `s` paints every pixel of a `w`×`h` frame opaquely,
/// by the geometry `draw_layer` draws it with: fully visible, unrotated, opaque, its box and
/// its picture (placed on whole pixels, or scaled onto the whole pixels it touches) both
/// covering the frame.
fn covers(l: &Drawable, s: &LayerState, (w, h): (u32, u32)) -> bool {
    if !s.visible || s.opacity * l.opacity < 1.0 || s.clip.fraction < 1.0 || s.rotation.abs() > 1e-6
    {
        return false;
    }
    let (vw, vh, dx, dy) = match &l.content {
        Content::Still(sp) if sp.bitmap.opaque => (sp.bitmap.w, sp.bitmap.h, sp.dx, sp.dy),
        Content::Video(v) if !v.transparent => match &v.last {
            Some(b) if b.opaque => (b.w, b.h, v.inset.0, v.inset.1),
            _ => return false,
        },
        _ => return false,
    };
    let whole = Rect::of(w, h);
    let at = Placement::of(l, s, (w, h));
    let clip = at.shows(&s.clip, whole);
    if clip != whole {
        return false;
    }
    let (sc, (ox, oy)) = (at.sc, at.origin((dx, dy)));
    if (sc - 1.0).abs() < 1e-6 {
        let (x, y) = (ox.round() as i32, oy.round() as i32);
        let lands = Rect {
            x0: x,
            y0: y,
            x1: x + vw as i32,
            y1: y + vh as i32,
        };
        return lands.intersect(whole) == whole;
    }
    scaled_target((vw, vh), sc, (ox, oy), at.centre(), clip).is_some_and(|(dst, _)| dst == whole)
}

/// Where a layer lies at an animation state on a frame: its box moved by the animation, the
/// scale its content was prepared at, and the scale that content is drawn at.
struct Placement {
    /// The box: x, y, width, height in output pixels.
    rect: (f64, f64, f64, f64),
    /// The scale the content was prepared at, relative to the box.
    prep: f64,
    /// The scale the prepared content is drawn at.
    sc: f64,
}

impl Placement {
    /// Returns where `l` lies at state `s` on a frame of `size`.
    fn of(l: &Drawable, s: &LayerState, size: (u32, u32)) -> Self {
        let (bx, by, bw, bh) = l.rect;
        Placement {
            rect: (
                bx + s.offset_x * f64::from(size.0),
                by + s.offset_y * f64::from(size.1),
                bw,
                bh,
            ),
            prep: l.prepared_scale,
            sc: s.scale / l.prepared_scale,
        }
    }

    /// Returns the unscaled top-left of a picture offset by `d` in the box: zooming content is
    /// prepared at `prep` times the box, centred on it.
    fn origin(&self, (dx, dy): (i32, i32)) -> (f64, f64) {
        let (bx, by, bw, bh) = self.rect;
        (
            bx + f64::from(dx) - (self.prep - 1.0) * bw / 2.0,
            by + f64::from(dy) - (self.prep - 1.0) * bh / 2.0,
        )
    }

    /// Returns the box's centre, which scaling keeps in place.
    fn centre(&self) -> (f64, f64) {
        let (bx, by, bw, bh) = self.rect;
        (bx + bw / 2.0, by + bh / 2.0)
    }

    /// Returns the part of the box that shows at clip state `clip`, inside `frame`.
    fn shows(&self, clip: &Clip, frame: Rect) -> Rect {
        let (bx, by, bw, bh) = self.rect;
        clip_rect(clip, bx, by, bw, bh).intersect(frame)
    }

    /// Returns the bounds, inside `frame`, of the part of the box that shows at clip state `clip`
    /// once turned by `degrees` and scaled by `sc` about the box's centre: a rotated layer is drawn
    /// whole, corners and all, as the stage shows it (its wipe turns with it; these bounds hold it).
    fn shows_turned(&self, clip: &Clip, degrees: f64, sc: f64, frame: Rect) -> Rect {
        let (bx, by, bw, bh) = self.rect;
        let r = clip_rect(clip, bx, by, bw, bh);
        let (cx, cy) = self.centre();
        let (sin, cos) = degrees.to_radians().sin_cos();
        let corners = [(r.x0, r.y0), (r.x1, r.y0), (r.x0, r.y1), (r.x1, r.y1)].map(|(x, y)| {
            let (dx, dy) = (f64::from(x) - cx, f64::from(y) - cy);
            (cx + sc * (cos * dx - sin * dy), cy + sc * (sin * dx + cos * dy))
        });
        let (mut x0, mut y0, mut x1, mut y1) = (f64::MAX, f64::MAX, f64::MIN, f64::MIN);
        for (x, y) in corners {
            (x0, y0, x1, y1) = (x0.min(x), y0.min(y), x1.max(x), y1.max(y));
        }
        Rect { x0: x0.floor() as i32, y0: y0.floor() as i32, x1: x1.ceil() as i32, y1: y1.ceil() as i32 }.intersect(frame)
    }
}

fn clip_rect(clip: &Clip, x: f64, y: f64, w: f64, h: f64) -> Rect {
    let f = clip.fraction.clamp(0.0, 1.0);
    let (x0, y0, x1, y1) = match clip.edge {
        Edge::Left => (x, y, x + w * f, y + h),
        Edge::Right => (x + w * (1.0 - f), y, x + w, y + h),
        Edge::Top => (x, y, x + w, y + h * f),
        Edge::Bottom => (x, y + h * (1.0 - f), x + w, y + h),
    };
    Rect {
        x0: x0.round() as i32,
        y0: y0.round() as i32,
        x1: x1.round() as i32,
        y1: y1.round() as i32,
    }
}

/// Returns the clip frame shown at layer frame `idx`: the cut plays once and holds its last
/// frame (or loops, for backgrounds); `None` for a clip without frames.
fn clip_index(v: &VideoState, idx: i64) -> Option<i64> {
    match v.frames {
        Some(n) if n <= 0 => None,
        Some(n) if v.looped => Some(idx.rem_euclid(n)),
        Some(n) => Some(idx.min(n - 1)),
        None => Some(idx),
    }
}

/// Runs the clip's decoder on to clip frame `idx` (opening it there unless it is a little way
/// ahead already), so that the feed's `current` holds that frame. Returns the clip's length
/// in frames when it ended before `idx`; the decoder is then dropped.
fn decode_to(
    feed: &mut Feed,
    v: &VideoState,
    idx: i64,
    rate: FrameRate,
    watchdog_s: u64,
) -> Result<Option<i64>, crate::MediaError> {
    let Feed { decoder, current } = feed;
    // Another layer showing the same clip frames may have decoded this frame already.
    if matches!(current, Some((i, _)) if *i == idx) {
        return Ok(None);
    }
    let reuse = matches!(decoder, Some((_, next)) if *next <= idx && idx - *next <= 30);
    if !reuse {
        *decoder = None;
        let req = VideoRequest {
            width: v.size.0,
            height: v.size.1,
            fps: (rate.num as i32, rate.den as i32),
            start: v.cut_start + rate.seconds_of(idx),
            watchdog_s,
            alpha: v.transparent,
        };
        *decoder = Some((VideoDecoder::open(&v.path, &req)?, idx));
    }
    let mut ended_at = None;
    if let Some((dec, next)) = decoder {
        while *next <= idx {
            match dec.next_frame()? {
                Some(f) => {
                    *next += 1;
                    if *next > idx {
                        *current = Some((idx, f));
                    }
                }
                None => {
                    ended_at = Some(*next);
                    break;
                }
            }
        }
    }
    if ended_at.is_some() {
        *decoder = None;
    }
    Ok(ended_at)
}

/// Makes `v.last` the clip frame shown at layer frame `idx`: the cut plays once and holds its
/// last frame (or loops, for backgrounds); a reversed clip reads its spool backwards.
fn video_frame(
    v: &mut VideoState,
    idx: i64,
    rate: FrameRate,
    watchdog_s: u64,
) -> Result<(), crate::MediaError> {
    let Some(idx) = clip_index(v, idx) else {
        return Ok(());
    };
    // The frame asked for is the one already held: a scene's last frame drawn again and again
    // under a transition (the from-scene holds its last frame), or a clip that has ended.
    if v.shown == Some(idx) && v.last.is_some() {
        return Ok(());
    }
    if let Some(spool) = &v.reverse {
        let (w, h) = spool.size();
        let px = spool.backwards(idx)?;
        v.last = Some(v.finish(w, h, px));
        v.shown = Some(idx);
        return Ok(());
    }
    let feed = v.feed.clone();
    let mut feed = feed
        .lock()
        .map_err(|_| crate::MediaError::Pipeline("a clip's decoder was poisoned".to_owned()))?;
    let ended_at = decode_to(&mut feed, v, idx, rate, watchdog_s)?;
    let mut got = None;
    if let Some((_, f)) = feed.current.as_ref().filter(|(i, _)| *i == idx) {
        // A cut clip converts only its crop, into its own reused buffer (the held frame's
        // allocation receives the finished picture); a clip shown smaller than its shared
        // decoder's frames is scaled before it is converted; otherwise the whole frame goes
        // straight into the held frame's allocation.
        if let Some(cut) = &v.cut {
            let mut px = std::mem::take(&mut v.work);
            let (w, h) = match cut.shrunk {
                Some(size) => f.scaled_region_into(cut.crop, size, &mut v.planes, &mut px),
                None => f.copy_region_into(cut.crop, &mut px),
            };
            got = Some((w, h, px));
        } else {
            let mut px = v.last.take().map(|b| b.px).unwrap_or_default();
            let (w, h) = match v.scale_to {
                Some(to) => {
                    f.scaled_region_into((0, 0, f.width(), f.height()), to, &mut v.planes, &mut px)
                }
                None => f.copy_region_into((0, 0, f.width(), f.height()), &mut px),
            };
            got = Some((w, h, px));
        }
    }
    drop(feed);
    if let Some((w, h, px)) = got {
        v.last = Some(v.finish(w, h, px));
        v.shown = Some(idx);
    }
    if let Some(n) = ended_at {
        // The clip ended before the cut (or the layer): now its length is known.
        v.frames = Some(n);
        if n > 0 && (v.looped || v.last.is_none()) {
            return video_frame(v, idx, rate, watchdog_s);
        }
    }
    Ok(())
}

/// Where a clip's frame is copied as planes: the part of its picture that shows, and where.
#[derive(Clone, Copy)]
struct ClipTarget {
    /// The output frame's size.
    size: (u32, u32),
    /// The part of the (scaled) picture that shows: x, y, width, height, x and y even.
    part: (u32, u32, u32, u32),
    /// Where that part goes in the frame, at even pixels.
    at: (u32, u32),
}

/// Copies `frame.part` of the clip frame shown at layer frame `idx` into `planes`, I420 of
/// `frame.size`, at `frame.at`, when the clip is drawn as it is decoded (or scaled plane by plane) and
/// its decoder gives the encoder's own picture; the frame held for drawing in RGBA is then out
/// of date, so `shown` is cleared. Returns false when the clip cannot be copied so.
fn video_planes(
    v: &mut VideoState,
    idx: i64,
    timing: (FrameRate, u64),
    frame: ClipTarget,
    planes: &mut [u8],
) -> Result<bool, crate::MediaError> {
    if !v.plain() {
        return Ok(false);
    }
    let copied = with_shown_frame(v, idx, timing, |v, f| {
        f.put_i420(v.scale_to, &mut v.planes, (planes, frame.size), frame.part, frame.at)
    })?
    .unwrap_or(false);
    if copied {
        v.shown = None;
    }
    Ok(copied)
}

/// Draws the frame of a cut clip (a covering background, blurred or cropped) shown at layer
/// frame `idx` straight into `planes`, I420 of `size`, when its finished picture is exactly the
/// frame ([`VideoState::finish_planes`]); the frame held for drawing in RGBA is then out of
/// date, so `shown` is cleared. Returns false, having drawn nothing, when it cannot be drawn so.
fn cut_planes(
    v: &mut VideoState,
    idx: i64,
    timing: (FrameRate, u64),
    size: (u32, u32),
    planes: &mut [u8],
) -> Result<bool, crate::MediaError> {
    let Some((crop, shrunk)) = v
        .cut
        .as_ref()
        .filter(|c| c.size == size && v.reverse.is_none() && !v.transparent)
        .map(|c| (c.crop, c.shrunk))
    else {
        return Ok(false);
    };
    let drew = with_shown_frame(v, idx, timing, |v, f| {
        let mut px = std::mem::take(&mut v.work);
        let got = match shrunk {
            Some(to) => f.scaled_region_into(crop, to, &mut v.planes, &mut px),
            None => f.copy_region_into(crop, &mut px),
        };
        v.finish_planes(got, px, size, planes)
    })?
    .unwrap_or(false);
    if drew {
        v.shown = None;
    }
    Ok(drew)
}

/// Runs `draw` on the decoded frame a plain or cut clip shows at layer frame `idx`, decoding
/// up to it; `None` when it shows none.
fn with_shown_frame<R>(
    v: &mut VideoState,
    idx: i64,
    (rate, watchdog_s): (FrameRate, u64),
    draw: impl FnOnce(&mut VideoState, &crate::decode::Frame) -> R,
) -> Result<Option<R>, crate::MediaError> {
    loop {
        let Some(at) = clip_index(v, idx) else {
            return Ok(None);
        };
        let feed = v.feed.clone();
        let mut feed = feed
            .lock()
            .map_err(|_| crate::MediaError::Pipeline("a clip's decoder was poisoned".to_owned()))?;
        if let Some(n) = decode_to(&mut feed, v, at, rate, watchdog_s)? {
            drop(feed);
            // The clip ended before the cut (or the layer): ask again for the frame it shows now.
            v.frames = Some(n);
            if n > 0 {
                continue;
            }
            return Ok(None);
        }
        return Ok(match feed.current.as_ref() {
            Some((i, f)) if *i == at => Some(draw(v, f)),
            _ => None,
        });
    }
}

/// Where a picture of `size` scaled by `sc` about `centre` from its unscaled top-left `origin`
/// lands on the canvas inside `clip`: the canvas rectangle (whole pixels) and the part of the
/// picture `(left, top, width, height)`, in picture pixels, scaled into it. `None` when it
/// lands outside.
fn scaled_target(
    size: (u32, u32),
    sc: f64,
    (ox, oy): (f64, f64),
    (cx, cy): (f64, f64),
    clip: Rect,
) -> Option<(Rect, (f64, f64, f64, f64))> {
    let (sx0, sy0) = (cx + (ox - cx) * sc, cy + (oy - cy) * sc);
    let (sw, sh) = (f64::from(size.0) * sc, f64::from(size.1) * sc);
    let dst = Rect {
        x0: sx0.floor() as i32,
        y0: sy0.floor() as i32,
        x1: (sx0 + sw).ceil() as i32,
        y1: (sy0 + sh).ceil() as i32,
    }
    .intersect(clip);
    if dst.is_empty() {
        return None;
    }
    let (left, top) = (
        ((f64::from(dst.x0) - sx0) / sc).max(0.0),
        ((f64::from(dst.y0) - sy0) / sc).max(0.0),
    );
    let crop = (
        left,
        top,
        (f64::from(dst.x1 - dst.x0) / sc).min(f64::from(size.0) - left),
        (f64::from(dst.y1 - dst.y0) / sc).min(f64::from(size.1) - top),
    );
    Some((dst, crop))
}

thread_local! {
    // A scaled layer's pixels, reused from frame to frame (a zooming picture every frame).
    static SCALED: std::cell::RefCell<Bitmap> = std::cell::RefCell::new(Bitmap::default());
}

/// Draws one layer at state `s` into `out`; returns the rectangle it may have written
/// (empty when it drew nothing).
fn draw_layer(
    out: &mut Bitmap,
    l: &mut Drawable,
    s: &LayerState,
    local: i64,
    rate: FrameRate,
    watchdog_s: u64,
) -> Result<Rect, RenderError> {
    let opacity = (s.opacity * l.opacity) as f32;
    if opacity <= 0.0 {
        return Ok(Rect::default());
    }
    let at = Placement::of(l, s, (out.w, out.h));
    let start = rate.frames_for(l.timing.start);
    let layer_frame = (local - start).max(0);
    let is_video = matches!(l.content, Content::Video(_));
    let (view, offset): (View<'_>, (i32, i32)) = match &mut l.content {
        Content::Still(sp) => (sp.bitmap.view(), (sp.dx, sp.dy)),
        Content::Frames(frames, offset) => {
            let n = frames.len().max(1);
            match frames.get(layer_frame as usize % n) {
                Some(b) => (b.view(), *offset),
                None => return Ok(Rect::default()),
            }
        }
        Content::Video(v) => {
            video_frame(v, layer_frame, rate, watchdog_s)
                .map_err(|e| l.place.err(Stage::Decode, e))?;
            match &v.last {
                Some(b) => (b.view(), v.inset),
                None => return Ok(Rect::default()),
            }
        }
    };
    let sc = at.sc;
    let frame = Rect::of(out.w, out.h);
    // Content that reaches past its box (a shadow) is held only by the frame, unless a wipe clips it.
    let whole_content = l.spills && s.clip.fraction >= 1.0;
    let clip = if whole_content { frame } else { at.shows(&s.clip, frame) };
    let (ox, oy) = at.origin(offset);
    let rot = s.rotation;
    if rot.abs() < 1e-6 && (sc - 1.0).abs() < 1e-6 {
        let (x, y) = (ox.round() as i32, oy.round() as i32);
        let whole =
            (view.w, view.h, x, y) == (out.w, out.h, 0, 0) && clip == Rect::of(out.w, out.h);
        if whole && view.opaque && opacity >= 1.0 && is_video {
            // A clip frame that is the whole picture (a covering clip at the output size, a
            // cut background) becomes the canvas by swapping allocations instead of copying
            // 4 bytes a pixel.
            if let Content::Video(v) = &mut l.content
                && let Some(last) = &mut v.last
            {
                std::mem::swap(&mut out.px, &mut last.px);
                out.opaque = true;
                // The held frame now holds the old canvas: asking for this clip frame again
                // (a transition holding the scene's last frame) converts it again from the
                // decoder's frame, or decodes it again.
                v.shown = None;
            }
            return Ok(clip);
        }
        compose::draw(out, view, x, y, opacity, clip);
        let area = Rect {
            x0: x,
            y0: y,
            x1: x + view.w as i32,
            y1: y + view.h as i32,
        };
        return Ok(area.intersect(clip));
    }
    let (cx, cy) = at.centre();
    if rot.abs() < 1e-6 {
        // Scaled, not rotated: crop-and-scale with fast_image_resize, then a plain blend.
        let Some((dst, crop)) = scaled_target((view.w, view.h), sc, (ox, oy), (cx, cy), clip)
        else {
            return Ok(Rect::default());
        };
        let (dw, dh) = ((dst.x1 - dst.x0) as u32, (dst.y1 - dst.y0) as u32);
        if view.opaque && opacity >= 1.0 && dst.x0 == 0 && dst.x1 == out.w as i32 {
            // Opaque, full-width and fully visible (the zooming background): scaled straight
            // into the canvas rows it covers, the same bytes the copy below would write.
            let stride = out.w as usize * 4;
            let rows = dst.y0 as usize * stride..dst.y1 as usize * stride;
            if let Some(px) = out.px.get_mut(rows)
                && compose::resize_into(view, px, dw, dh, Some(crop))
            {
                return Ok(dst);
            }
        }
        SCALED.with(|scaled| {
            let mut scaled = scaled.borrow_mut();
            scaled.px.resize(dw as usize * dh as usize * 4, 0);
            if compose::resize_into(view, &mut scaled.px, dw, dh, Some(crop)) {
                let v = View {
                    w: dw,
                    h: dh,
                    stride: dw as usize * 4,
                    data: &scaled.px,
                    opaque: view.opaque,
                };
                compose::draw(out, v, dst.x0, dst.y0, opacity, clip);
            }
        });
        return Ok(dst);
    }
    let (sin, cos) = rot.to_radians().sin_cos();
    let m = [
        sc * cos,
        sc * sin,
        -sc * sin,
        sc * cos,
        cx + sc * (cos * (ox - cx) - sin * (oy - cy)),
        cy + sc * (sin * (ox - cx) + cos * (oy - cy)),
    ];
    let turned = if whole_content { frame } else { at.shows_turned(&s.clip, rot, sc, frame) };
    compose::draw_affine(out, view, m, opacity, turned);
    Ok(turned)
}
