//! Colour filters as one 3×4 matrix (the catalogue's CSS-like operations, a video layer's
//! brightness/contrast/saturation) and a box blur, applied to premultiplied bitmaps.

use super::Bitmap;
use reelforge_timeline::catalogue::filters::{self, FilterOp};

/// A colour matrix: rows r, g, b of `[mr, mg, mb, offset]` on 0..1 values.
pub type Matrix = [[f32; 4]; 3];

/// The identity matrix.
pub const IDENTITY: Matrix = [
    [1.0, 0.0, 0.0, 0.0],
    [0.0, 1.0, 0.0, 0.0],
    [0.0, 0.0, 1.0, 0.0],
];

fn then(m: Matrix, n: Matrix) -> Matrix {
    // Returns n ∘ m: apply m first, then n.
    let mut out = [[0.0; 4]; 3];
    for (r, row) in out.iter_mut().enumerate() {
        for c in 0..4 {
            let mut v: f32 = (0..3).map(|k| n[r][k] * m[k][c]).sum();
            if c == 3 {
                v += n[r][3];
            }
            row[c] = v;
        }
    }
    out
}

fn saturate(s: f32) -> Matrix {
    [
        [0.213 + 0.787 * s, 0.715 - 0.715 * s, 0.072 - 0.072 * s, 0.0],
        [0.213 - 0.213 * s, 0.715 + 0.285 * s, 0.072 - 0.072 * s, 0.0],
        [0.213 - 0.213 * s, 0.715 - 0.715 * s, 0.072 + 0.928 * s, 0.0],
    ]
}

fn op_matrix(op: FilterOp) -> Matrix {
    match op {
        FilterOp::Brightness(a) => {
            let a = a as f32;
            [[a, 0.0, 0.0, 0.0], [0.0, a, 0.0, 0.0], [0.0, 0.0, a, 0.0]]
        }
        FilterOp::Contrast(a) => {
            let (a, o) = (a as f32, 0.5 * (1.0 - a as f32));
            [[a, 0.0, 0.0, o], [0.0, a, 0.0, o], [0.0, 0.0, a, o]]
        }
        FilterOp::Saturate(s) => saturate(s as f32),
        FilterOp::Grayscale(g) => saturate(1.0 - (g as f32).clamp(0.0, 1.0)),
        FilterOp::Sepia(s) => {
            let t = 1.0 - (s as f32).clamp(0.0, 1.0);
            [
                [0.393 + 0.607 * t, 0.769 - 0.769 * t, 0.189 - 0.189 * t, 0.0],
                [0.349 - 0.349 * t, 0.686 + 0.314 * t, 0.168 - 0.168 * t, 0.0],
                [0.272 - 0.272 * t, 0.534 - 0.534 * t, 0.131 + 0.869 * t, 0.0],
            ]
        }
        FilterOp::Invert(a) => {
            let a = (a as f32).clamp(0.0, 1.0);
            let k = 1.0 - 2.0 * a;
            [[k, 0.0, 0.0, a], [0.0, k, 0.0, a], [0.0, 0.0, k, a]]
        }
        FilterOp::HueRotate(deg) => {
            let (s, c) = (deg as f32).to_radians().sin_cos();
            [
                [
                    0.213 + c * 0.787 - s * 0.213,
                    0.715 - c * 0.715 - s * 0.715,
                    0.072 - c * 0.072 + s * 0.928,
                    0.0,
                ],
                [
                    0.213 - c * 0.213 + s * 0.143,
                    0.715 + c * 0.285 + s * 0.140,
                    0.072 - c * 0.072 - s * 0.283,
                    0.0,
                ],
                [
                    0.213 - c * 0.213 - s * 0.787,
                    0.715 - c * 0.715 + s * 0.715,
                    0.072 + c * 0.928 + s * 0.072,
                    0.0,
                ],
            ]
        }
        FilterOp::Blur(_) => IDENTITY,
    }
}

/// A filter ready to apply: its colour matrix (if not the identity) and blur radius.
#[derive(Debug, Clone, Copy, PartialEq, Default)]
pub struct Prepared {
    /// The colour matrix, `None` for the identity.
    pub matrix: Option<Matrix>,
    /// Blur radius in editing pixels (0: none).
    pub blur: f64,
}

impl Prepared {
    /// Returns whether the filter changes nothing.
    pub fn is_noop(&self) -> bool {
        self.matrix.is_none() && self.blur <= 0.0
    }

    /// Applies the filter; `scale` turns editing pixels into output pixels.
    pub fn apply(&self, b: &mut Bitmap, scale: f64) {
        if let Some(m) = self.matrix {
            apply_matrix(b, &m);
        }
        if self.blur > 0.0 {
            blur(b, (self.blur * scale).round() as usize);
        }
    }
}

/// Returns the filter a document names (catalogue key or id), `None` for "" or unknown.
pub fn by_name(name: &str) -> Option<Prepared> {
    if name.is_empty() || name == "none" {
        return None;
    }
    let f = filters::find(name)?;
    let mut m = IDENTITY;
    let mut blur = 0.0;
    for op in f.ops {
        match op {
            FilterOp::Blur(r) => blur += r,
            other => m = then(m, op_matrix(*other)),
        }
    }
    Some(Prepared {
        matrix: (m != IDENTITY).then_some(m),
        blur,
    })
}

/// Returns the matrix of a video layer's brightness, contrast and saturation percentages
/// (100 each leaves the picture unchanged), `None` when all are 100.
pub fn adjustments(brightness: f64, contrast: f64, saturation: f64) -> Option<Matrix> {
    let pct = |v: f64| (v.clamp(0.0, 200.0) / 100.0) as f32;
    let mut m = IDENTITY;
    if (brightness - 100.0).abs() > 0.01 {
        m = then(
            m,
            op_matrix(FilterOp::Brightness(f64::from(pct(brightness)))),
        );
    }
    if (contrast - 100.0).abs() > 0.01 {
        m = then(m, op_matrix(FilterOp::Contrast(f64::from(pct(contrast)))));
    }
    if (saturation - 100.0).abs() > 0.01 {
        m = then(m, saturate(pct(saturation)));
    }
    (m != IDENTITY).then_some(m)
}

/// Applies a colour matrix to premultiplied pixels (offsets scale with alpha).
pub fn apply_matrix(b: &mut Bitmap, m: &Matrix) {
    let k = |v: f32| (v * 255.0 + 0.5).clamp(0.0, 255.0) as u8;
    for p in b.px.chunks_exact_mut(4) {
        let a = f32::from(p[3]) / 255.0;
        if a == 0.0 {
            continue;
        }
        let (r, g, bl) = (
            f32::from(p[0]) / 255.0,
            f32::from(p[1]) / 255.0,
            f32::from(p[2]) / 255.0,
        );
        for (c, row) in m.iter().enumerate() {
            let v = row[0] * r + row[1] * g + row[2] * bl + row[3] * a;
            p[c] = k(v.min(a));
        }
    }
}

/// Blurs by a radius in output pixels: a Gaussian of standard deviation `radius / 2`
/// (`blur::gaussian`, the same strength the editor's numbers have always had here).
pub fn blur(b: &mut Bitmap, radius: usize) {
    super::blur::gaussian(b, radius as f32 / 2.0);
}

/// Sharpens with an unsharp mask: each channel moves away from its 3×3 neighbourhood mean by
/// `amount` (1.0 doubles the local contrast). Edges repeat the border pixel; alpha is kept.
pub fn sharpen(b: &mut Bitmap, amount: f32) {
    if amount <= 0.0 || b.w < 3 || b.h < 3 {
        return;
    }
    let (w, h) = (b.w as usize, b.h as usize);
    let stride = w * 4;
    let src = b.px.clone();
    let k = (amount * 256.0).round() as i32;
    for y in 0..h {
        let rows = [y.saturating_sub(1), y, (y + 1).min(h - 1)];
        for x in 0..w {
            let cols = [x.saturating_sub(1), x, (x + 1).min(w - 1)];
            let at = y * stride + x * 4;
            let a = i32::from(src[at + 3]);
            for c in 0..3 {
                let mut sum = 0i32;
                for r in rows {
                    for col in cols {
                        sum += i32::from(src[r * stride + col * 4 + c]);
                    }
                }
                let v = i32::from(src[at + c]);
                let out = v + ((v * 9 - sum) * k) / (9 * 256);
                // Premultiplied: a channel never exceeds its alpha.
                b.px[at + c] = out.clamp(0, a) as u8;
            }
        }
    }
}
