//! Draws a transition frame from the two scenes' frames and the composite description the
//! timeline crate gives for the progress (`reelforge_timeline::transition::composite`), so the
//! export and the browser preview follow the same model.

use super::{Bitmap, Rect, draw, draw_affine};
use reelforge_timeline::transition::{Composite, Mask, Plane, Which, mask_contains};

/// Draws `comp` of scenes `a` and `b` (both the output size) into `out`.
pub fn apply(out: &mut Bitmap, a: &Bitmap, b: &Bitmap, comp: &Composite) {
    out.fill([0, 0, 0]);
    for plane in [&comp.bottom, &comp.top] {
        let src = match plane.which {
            Which::A => a,
            Which::B => b,
        };
        draw_plane(out, src, plane);
    }
    if comp.pixelate > 0.0 {
        pixelate(
            out,
            (comp.pixelate * f64::from(out.w)).round().max(1.0) as u32,
        );
    }
    if comp.flash.alpha > 0.0 {
        let [r, g, bl] = comp.flash.rgb;
        let mut flash = Bitmap::filled(out.w, out.h, [r, g, bl]);
        flash.opaque = true;
        let full = Rect::of(out.w, out.h);
        draw(out, flash.view(), 0, 0, comp.flash.alpha as f32, full);
    }
}

fn draw_plane(out: &mut Bitmap, src: &Bitmap, p: &Plane) {
    let (w, h) = (f64::from(out.w), f64::from(out.h));
    let alpha = p.alpha as f32;
    if alpha <= 0.0 || p.sx <= 0.0 || p.sy <= 0.0 {
        return;
    }
    let plain = (p.sx - 1.0).abs() < 1e-9 && (p.sy - 1.0).abs() < 1e-9;
    let (ox, oy) = ((p.dx * w).round() as i32, (p.dy * h).round() as i32);
    let m = [
        p.sx,
        0.0,
        0.0,
        p.sy,
        w / 2.0 - p.sx * w / 2.0 + p.dx * w,
        h / 2.0 - p.sy * h / 2.0 + p.dy * h,
    ];
    let paint = |out: &mut Bitmap, clip: Rect| {
        if plain {
            draw(out, src.view(), ox, oy, alpha, clip);
        } else {
            draw_affine(out, src.view(), m, alpha, clip);
        }
    };
    match (&p.mask, p.invert) {
        (Mask::Full, false) => paint(out, Rect::of(out.w, out.h)),
        (Mask::Full, true) => {}
        (Mask::Rect { x0, y0, x1, y1 }, false) => paint(
            out,
            Rect {
                x0: (x0 * w).round() as i32,
                y0: (y0 * h).round() as i32,
                x1: (x1 * w).round() as i32,
                y1: (y1 * h).round() as i32,
            },
        ),
        (mask, invert) => {
            // General masks: one clip rectangle per horizontal run of covered pixels.
            for y in 0..out.h {
                let fy = (f64::from(y) + 0.5) / h;
                let mut run: Option<u32> = None;
                for x in 0..=out.w {
                    let inside = x < out.w
                        && mask_contains(mask, (f64::from(x) + 0.5) / w, fy, w, h) != invert;
                    match (inside, run) {
                        (true, None) => run = Some(x),
                        (false, Some(x0)) => {
                            let clip = Rect {
                                x0: x0 as i32,
                                y0: y as i32,
                                x1: x as i32,
                                y1: y as i32 + 1,
                            };
                            paint(out, clip);
                            run = None;
                        }
                        _ => {}
                    }
                }
            }
        }
    }
}

/// Replaces each `cell`×`cell` block by its mean colour.
pub fn pixelate(b: &mut Bitmap, cell: u32) {
    if cell <= 1 {
        return;
    }
    let (w, h) = (b.w, b.h);
    let stride = w as usize * 4;
    for cy in (0..h).step_by(cell as usize) {
        for cx in (0..w).step_by(cell as usize) {
            let (x1, y1) = ((cx + cell).min(w), (cy + cell).min(h));
            let mut sum = [0u64; 4];
            for y in cy..y1 {
                let row = &b.px[y as usize * stride..];
                for x in cx..x1 {
                    let o = x as usize * 4;
                    for c in 0..4 {
                        sum[c] += u64::from(row[o + c]);
                    }
                }
            }
            let n = u64::from((x1 - cx) * (y1 - cy)).max(1);
            let mean = sum.map(|s| (s / n) as u8);
            for y in cy..y1 {
                let o = y as usize * stride + cx as usize * 4;
                for px in b.px[o..o + (x1 - cx) as usize * 4].chunks_exact_mut(4) {
                    px.copy_from_slice(&mean);
                }
            }
        }
    }
}
