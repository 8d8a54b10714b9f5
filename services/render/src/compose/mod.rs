//! The per-frame compositor: a premultiplied RGBA canvas and the few fast paths every frame
//! uses (design §4, 'The per-frame budget'): memcpy for opaque untransformed layers, a
//! constant-alpha blend, a source-over blend restricted to the layer's box, `fast_image_resize`
//! for scaling and a bilinear affine sampler only for rotated layers. tiny-skia, resvg and
//! cosmic-text only rasterise vector content into cached [`Bitmap`]s (`text`, `shape`).

pub mod blend;
pub mod blur;
pub mod colour;
pub mod filter;
pub mod image;
pub mod shape;
pub mod text;
pub mod transition;

pub use blend::{Rect, draw, draw_affine};

/// A premultiplied RGBA picture with tightly packed rows.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Bitmap {
    /// Width in pixels.
    pub w: u32,
    /// Height in pixels.
    pub h: u32,
    /// Premultiplied RGBA bytes, `w * h * 4`.
    pub px: Vec<u8>,
    /// True when every alpha is 255, so drawing can copy rows instead of blending.
    pub opaque: bool,
}

impl Bitmap {
    /// Returns a transparent bitmap.
    pub fn new(w: u32, h: u32) -> Self {
        Bitmap {
            w,
            h,
            px: vec![0; w as usize * h as usize * 4],
            opaque: false,
        }
    }

    /// Returns a bitmap filled with an opaque colour.
    pub fn filled(w: u32, h: u32, rgb: [u8; 3]) -> Self {
        let mut b = Bitmap::new(w, h);
        b.fill(rgb);
        b
    }

    /// Fills the whole bitmap with an opaque colour.
    pub fn fill(&mut self, rgb: [u8; 3]) {
        let px = [rgb[0], rgb[1], rgb[2], 255];
        // One row pixel by pixel, the others copied from it: four-byte stores do not vectorise,
        // row copies run at memcpy speed.
        let row = (self.w as usize * 4).min(self.px.len());
        let (first, rest) = self.px.split_at_mut(row);
        for p in first.chunks_exact_mut(4) {
            p.copy_from_slice(&px);
        }
        for r in rest.chunks_mut(row.max(1)) {
            r.copy_from_slice(&first[..r.len()]);
        }
        self.opaque = true;
    }

    /// Returns a borrowed view.
    pub fn view(&self) -> View<'_> {
        View {
            w: self.w,
            h: self.h,
            stride: self.w as usize * 4,
            data: &self.px,
            opaque: self.opaque,
        }
    }

    /// Returns a bitmap from straight-alpha RGBA bytes, premultiplying them.
    pub fn from_straight(w: u32, h: u32, mut px: Vec<u8>) -> Self {
        let mut opaque = true;
        for p in px.chunks_exact_mut(4) {
            let a = p[3];
            if a != 255 {
                opaque = false;
                for c in &mut p[..3] {
                    *c = blend::mul255(*c, a);
                }
            }
        }
        Bitmap { w, h, px, opaque }
    }

    /// Re-checks whether every pixel is opaque.
    pub fn update_opaque(&mut self) {
        self.opaque = self.px.chunks_exact(4).all(|p| p[3] == 255);
    }

    /// Returns a tiny-skia pixmap holding a copy of this bitmap (both are premultiplied RGBA).
    pub fn to_pixmap(&self) -> Option<resvg::tiny_skia::Pixmap> {
        let size = resvg::tiny_skia::IntSize::from_wh(self.w, self.h)?;
        resvg::tiny_skia::Pixmap::from_vec(self.px.clone(), size)
    }

    /// Returns a bitmap taking over a tiny-skia pixmap's pixels.
    pub fn from_pixmap(p: resvg::tiny_skia::Pixmap) -> Self {
        let (w, h) = (p.width(), p.height());
        let mut b = Bitmap {
            w,
            h,
            px: p.take(),
            opaque: false,
        };
        b.update_opaque();
        b
    }
}

/// A borrowed premultiplied RGBA picture whose rows are `stride` bytes apart.
#[derive(Debug, Clone, Copy)]
pub struct View<'a> {
    /// Width in pixels.
    pub w: u32,
    /// Height in pixels.
    pub h: u32,
    /// Bytes between row starts.
    pub stride: usize,
    /// The bytes.
    pub data: &'a [u8],
    /// True when every alpha is 255.
    pub opaque: bool,
}

impl View<'_> {
    /// Returns row `y`, `w * 4` bytes.
    pub fn row(&self, y: u32) -> &[u8] {
        let start = y as usize * self.stride;
        self.data
            .get(start..start + self.w as usize * 4)
            .unwrap_or(&[])
    }
}

/// Returns `src` scaled to `w`×`h` (bilinear, premultiplied), optionally from the crop
/// `(left, top, width, height)` of the source in source pixels.
pub fn resize(src: View<'_>, w: u32, h: u32, crop: Option<(f64, f64, f64, f64)>) -> Bitmap {
    let (w, h) = (w.max(1), h.max(1));
    let mut out = Bitmap::new(w, h);
    out.opaque = src.opaque;
    if !resize_into(src, &mut out.px, w, h, crop) {
        return Bitmap::new(w, h);
    }
    out
}

thread_local! {
    // Reused across frames: the resizer keeps its intermediate buffers.
    static RESIZER: std::cell::RefCell<fast_image_resize::Resizer> =
        std::cell::RefCell::new(fast_image_resize::Resizer::new());
}

/// Scales `src` into `dst`, a tightly packed `w`×`h` RGBA buffer (for example whole rows of a
/// canvas), like [`resize`] but without allocating the result. Returns false when it could not
/// (`dst` of the wrong size); `dst` is then left as it was or partly written.
pub fn resize_into(
    src: View<'_>,
    dst: &mut [u8],
    w: u32,
    h: u32,
    crop: Option<(f64, f64, f64, f64)>,
) -> bool {
    use fast_image_resize as fr;
    if src.w == 0 || src.h == 0 {
        return true;
    }
    let packed: std::borrow::Cow<'_, [u8]> = if src.stride == src.w as usize * 4 {
        std::borrow::Cow::Borrowed(&src.data[..src.h as usize * src.stride])
    } else {
        std::borrow::Cow::Owned((0..src.h).flat_map(|y| src.row(y).to_vec()).collect())
    };
    let Ok(src_img) = fr::images::ImageRef::new(src.w, src.h, &packed, fr::PixelType::U8x4) else {
        return true;
    };
    let Ok(mut dst_img) = fr::images::Image::from_slice_u8(w, h, dst, fr::PixelType::U8x4) else {
        return false;
    };
    // The pixels are already premultiplied, so the alpha-aware mode is switched off.
    let mut opts = fr::ResizeOptions::new()
        .resize_alg(fr::ResizeAlg::Convolution(fr::FilterType::Bilinear))
        .use_alpha(false);
    if let Some((l, t, cw, ch)) = crop {
        opts = opts.crop(l, t, cw.max(1.0), ch.max(1.0));
    }
    RESIZER.with(|r| r.borrow_mut().resize(&src_img, &mut dst_img, &opts).is_ok())
}

/// Scales the part `crop` `(left, top, width, height)` of one 8-bit plane (`stride` bytes a
/// row, `rows` rows) into `dst`, a tightly packed `w`×`h` plane (bilinear). A decoded clip's
/// Y, U and V planes are scaled this way before they are converted to RGBA, so a clip shown
/// smaller than it is decoded converts only the pixels that show. Returns false when it could
/// not (a plane or crop out of bounds).
pub fn resize_plane(
    src: &[u8],
    (stride, rows): (usize, usize),
    crop: (f64, f64, f64, f64),
    dst: &mut [u8],
    (w, h): (u32, u32),
) -> bool {
    use fast_image_resize as fr;
    let (Ok(sw), Ok(sh)) = (u32::try_from(stride), u32::try_from(rows)) else {
        return false;
    };
    let Some(src) = src.get(..stride * rows) else {
        return false;
    };
    let Ok(src_img) = fr::images::ImageRef::new(sw, sh, src, fr::PixelType::U8) else {
        return false;
    };
    let Ok(mut dst_img) = fr::images::Image::from_slice_u8(w, h, dst, fr::PixelType::U8) else {
        return false;
    };
    // The stride's padding lies right of the crop, so it is never read.
    let opts = fr::ResizeOptions::new()
        .resize_alg(fr::ResizeAlg::Convolution(fr::FilterType::Bilinear))
        .crop(crop.0, crop.1, crop.2.max(1.0), crop.3.max(1.0));
    RESIZER.with(|r| r.borrow_mut().resize(&src_img, &mut dst_img, &opts).is_ok())
}
