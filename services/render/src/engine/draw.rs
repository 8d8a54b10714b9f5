//! Draws one scene at one of its frames: background, then layers in z order at their animated
//! state (from `reelforge_timeline::layer_state`). The bottom run of layers that are at rest
//! and static is drawn once into a cached base and reused while it stays the same.

use super::prepare::{Content, Drawable, VideoState};
use crate::compose::{self, Bitmap, Rect, View, filter};
use crate::decode::{VideoDecoder, VideoRequest};
use crate::error::{RenderError, Stage};
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

/// Copies rectangle `r` (inside both) of `base` into `out`, of the same size.
fn restore_from(out: &mut Bitmap, base: &Bitmap, r: Rect) {
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
fn fill_rect(out: &mut Bitmap, rgb: [u8; 3], r: Rect) {
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

impl SceneState {
    /// Draws local frame `local` of the scene into `out` (the output size). Returns the layers
    /// of the cached base when the frame is that base alone (nothing moves or plays), so the
    /// caller can tell two such frames apart from a changed one.
    pub fn draw(
        &mut self,
        local: i64,
        rate: FrameRate,
        out: &mut Bitmap,
    ) -> Result<Option<Vec<usize>>, RenderError> {
        let t = rate.seconds_of(local);
        let states: Vec<LayerState> = self
            .layers
            .iter()
            .map(|l| layer_state(&l.timing, t))
            .collect();
        // Under a layer that covers the whole frame opaquely nothing shows: drawing starts there.
        let (w, h) = (f64::from(out.w), f64::from(out.h));
        let floor = (0..self.layers.len())
            .rev()
            .find(|&i| matches!((self.layers.get(i), states.get(i)), (Some(l), Some(s)) if covers(l, s, w, h)));
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
                    self.cache = Some((key.clone(), out.clone()));
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

/// Returns whether layer `l` at state `s` paints every pixel of a `w`×`h` frame opaquely
/// (the same geometry as `draw_layer`): fully visible, unrotated, opaque, box and picture
/// both covering the frame.
fn covers(l: &Drawable, s: &LayerState, w: f64, h: f64) -> bool {
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
    const EPS: f64 = 1e-6;
    let (bx, by, bw, bh) = l.rect;
    let (bx, by) = (bx + s.offset_x * w, by + s.offset_y * h);
    if bx > EPS || by > EPS || bx + bw < w - EPS || by + bh < h - EPS {
        return false;
    }
    let prep = l.prepared_scale;
    let sc = s.scale / prep;
    let (cx, cy) = (bx + bw / 2.0, by + bh / 2.0);
    let ox = bx + f64::from(dx) - (prep - 1.0) * bw / 2.0;
    let oy = by + f64::from(dy) - (prep - 1.0) * bh / 2.0;
    let (x0, y0) = (cx + (ox - cx) * sc, cy + (oy - cy) * sc);
    let (x1, y1) = (x0 + f64::from(vw) * sc, y0 + f64::from(vh) * sc);
    x0 <= EPS && y0 <= EPS && x1 >= w - EPS && y1 >= h - EPS
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

/// Makes `v.last` the clip frame shown at layer frame `idx`: the cut plays once and holds its
/// last frame (or loops, for backgrounds); a reversed clip reads its spool backwards.
fn video_frame(
    v: &mut VideoState,
    idx: i64,
    rate: FrameRate,
    watchdog_s: u64,
) -> Result<(), crate::MediaError> {
    let idx = match v.frames {
        Some(n) if n <= 0 => return Ok(()),
        Some(n) if v.looped => idx.rem_euclid(n),
        Some(n) => idx.min(n - 1),
        None => idx,
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
    let super::feed::Feed { decoder, current } = &mut *feed;
    let mut ended_at = None;
    // Another layer showing the same clip frames may have decoded this frame already.
    if !matches!(current, Some((i, _)) if *i == idx) {
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
    }
    let mut got = None;
    if let Some((_, f)) = current.as_ref().filter(|(i, _)| *i == idx) {
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
    if ended_at.is_some() {
        *decoder = None;
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
    let (w, h) = (f64::from(out.w), f64::from(out.h));
    let (bx, by, bw, bh) = l.rect;
    let (bx, by) = (bx + s.offset_x * w, by + s.offset_y * h);
    let start = rate.frames_for(l.timing.start);
    let layer_frame = (local - start).max(0);
    let prep = l.prepared_scale;
    let is_video = matches!(l.content, Content::Video(_));
    let (view, ox, oy): (View<'_>, f64, f64) = match &mut l.content {
        Content::Still(sp) => (sp.bitmap.view(), f64::from(sp.dx), f64::from(sp.dy)),
        Content::Frames(frames, (dx, dy)) => {
            let n = frames.len().max(1);
            match frames.get(layer_frame as usize % n) {
                Some(b) => (b.view(), f64::from(*dx), f64::from(*dy)),
                None => return Ok(Rect::default()),
            }
        }
        Content::Video(v) => {
            video_frame(v, layer_frame, rate, watchdog_s)
                .map_err(|e| l.place.err(Stage::Decode, e))?;
            let (ix, iy) = v.inset;
            match &v.last {
                Some(b) => (b.view(), f64::from(ix), f64::from(iy)),
                None => return Ok(Rect::default()),
            }
        }
    };
    let sc = s.scale / prep;
    let clip = clip_rect(&s.clip, bx, by, bw, bh).intersect(Rect::of(out.w, out.h));
    // Zooming content is prepared at `prep` times the box, centred on it.
    let (ox, oy) = (
        bx + ox - (prep - 1.0) * bw / 2.0,
        by + oy - (prep - 1.0) * bh / 2.0,
    );
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
    let (cx, cy) = (bx + bw / 2.0, by + bh / 2.0);
    if rot.abs() < 1e-6 {
        // Scaled, not rotated: crop-and-scale with fast_image_resize, then a plain blend.
        let (sx0, sy0) = (cx + (ox - cx) * sc, cy + (oy - cy) * sc);
        let (sw, sh) = (f64::from(view.w) * sc, f64::from(view.h) * sc);
        let dst = Rect {
            x0: sx0.floor() as i32,
            y0: sy0.floor() as i32,
            x1: (sx0 + sw).ceil() as i32,
            y1: (sy0 + sh).ceil() as i32,
        }
        .intersect(clip);
        if dst.is_empty() {
            return Ok(Rect::default());
        }
        let crop = (
            ((f64::from(dst.x0) - sx0) / sc).max(0.0),
            ((f64::from(dst.y0) - sy0) / sc).max(0.0),
            f64::from(dst.x1 - dst.x0) / sc,
            f64::from(dst.y1 - dst.y0) / sc,
        );
        let crop = (
            crop.0,
            crop.1,
            crop.2.min(f64::from(view.w) - crop.0),
            crop.3.min(f64::from(view.h) - crop.1),
        );
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
    compose::draw_affine(out, view, m, opacity, clip);
    Ok(clip)
}
