//! Frames drawn straight into the encoder's I420 planes. Most of a frame is often a base that
//! is cheap to have in I420: the scene's background colour, the cached base of its static
//! layers (converted once), or a clip as it is decoded (covering the frame, or over the colour
//! as a portrait frame holds a landscape clip). That base is written as planes; the layers
//! above it are drawn in RGBA on an overlay, and only the rectangle they drew is converted.
//! Drawing the whole frame in RGBA converts every pixel instead, and a clip's pixels twice
//! (I420 → RGBA → I420).
//!
//! Under a colour or a cached base the overlay holds that base (restored where the last frame
//! drew), so the rectangle converts to the same bytes the whole frame would. Over a clip the
//! overlay is transparent; the rectangle is converted back from the planes, the overlay
//! blended over it with the canvas's premultiplied source-over, and converted again, while the
//! clip's pixels outside it reach the encoder untouched.

use crate::compose::{self, Bitmap, Rect, View};
use crate::yuv;

/// What the overlay holds where the layers above the base have not drawn.
#[derive(Debug, Clone, Copy, PartialEq)]
pub enum Backdrop {
    /// Nothing: the base is only in the planes.
    Clear,
    /// The scene's background colour.
    Colour([u8; 3]),
    /// A scene's cached base, by the number it was made under.
    Base(u64),
}

/// The RGBA overlay the layers above a frame's base are drawn on, and scratch space.
pub struct Planar {
    /// The overlay: its backdrop wherever the last frame's layers did not draw.
    pub overlay: Bitmap,
    backdrop: Option<Backdrop>,
    /// The rectangle the last frame drew on the overlay, restored before the next.
    drew: Rect,
    /// A rectangle of the frame in RGBA, for blending over a base that is only in the planes.
    region: Bitmap,
}

impl Planar {
    /// Returns an overlay for frames of `w`×`h`.
    pub fn new(w: u32, h: u32) -> Self {
        Planar {
            overlay: Bitmap::new(w, h),
            backdrop: None,
            drew: Rect::default(),
            region: Bitmap::default(),
        }
    }

    /// Makes the overlay hold `backdrop` everywhere before a frame's layers are drawn on it:
    /// only where the last frame drew when its backdrop was the same. `base` is the cached
    /// base a [`Backdrop::Base`] names (of the overlay's size).
    pub fn begin(&mut self, backdrop: Backdrop, base: Option<&Bitmap>) {
        let whole = Rect::of(self.overlay.w, self.overlay.h);
        let r = if self.backdrop == Some(backdrop) {
            self.drew
        } else {
            whole
        };
        let stride = self.overlay.w as usize * 4;
        let (x0, x1) = (r.x0.max(0) as usize * 4, r.x1.max(0) as usize * 4);
        // One row of the colour, copied into each row.
        let colour: Vec<u8> = match backdrop {
            Backdrop::Colour(rgb) => (x0..x1)
                .step_by(4)
                .flat_map(|_| [rgb[0], rgb[1], rgb[2], 255])
                .collect(),
            _ => Vec::new(),
        };
        for y in r.y0.max(0) as usize..r.y1.max(0) as usize {
            let span = y * stride + x0..y * stride + x1;
            let Some(row) = self.overlay.px.get_mut(span.clone()) else {
                continue;
            };
            match backdrop {
                Backdrop::Clear => row.fill(0),
                Backdrop::Colour(_) => row.copy_from_slice(&colour),
                Backdrop::Base(_) => {
                    if let Some(from) = base.and_then(|b| b.px.get(span)) {
                        row.copy_from_slice(from);
                    }
                }
            }
        }
        self.overlay.opaque = backdrop != Backdrop::Clear;
        self.backdrop = Some(backdrop);
        self.drew = Rect::default();
    }

    /// Writes what the layers drew on the overlay, inside `drew`, into `planes` (the frame in
    /// I420 holding the base), widened to whole chroma blocks and steps of 8 pixels (the
    /// width the fast conversion takes).
    pub fn finish(&mut self, planes: &mut [u8], drew: Rect) {
        let (w, h) = (self.overlay.w as usize, self.overlay.h as usize);
        let r = Rect {
            x0: drew.x0 & !7,
            y0: drew.y0 & !1,
            x1: (drew.x1 + 7) & !7,
            y1: (drew.y1 + 1) & !1,
        }
        .intersect(Rect::of(w as u32, h as u32));
        self.drew = r;
        if r.is_empty() {
            return;
        }
        let (x, y) = (r.x0 as usize, r.y0 as usize);
        let (rw, rh) = ((r.x1 - r.x0) as usize, (r.y1 - r.y0) as usize);
        let stride = w * 4;
        let layers = self.overlay.px.get(y * stride + x * 4..).unwrap_or(&[]);
        let rect = (x, y, rw, rh);
        if self.backdrop != Some(Backdrop::Clear) {
            yuv::rgba_to_i420_region(layers, stride, planes, (w, h), rect);
            return;
        }
        // The base as it is under the rectangle, with the layers blended over it.
        yuv::i420_region_to_rgba(planes, (w, h), rect, &mut self.region.px);
        (self.region.w, self.region.h) = (rw as u32, rh as u32);
        let over = View {
            w: rw as u32,
            h: rh as u32,
            stride,
            data: layers,
            opaque: false,
        };
        compose::draw(
            &mut self.region,
            over,
            0,
            0,
            1.0,
            Rect::of(rw as u32, rh as u32),
        );
        yuv::rgba_to_i420_region(&self.region.px, rw * 4, planes, (w, h), rect);
    }
}
