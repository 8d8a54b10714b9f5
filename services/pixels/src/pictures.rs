//! The starter pictures, each a function drawing on a canvas of the size its catalogue entry
//! gives: backgrounds (two designs per style class), masks, borders, atmosphere overlays and
//! button samples. Animated ones take the loop position `t` in `0..1` and return to their start.

use std::f32::consts::TAU;

use crate::paint::{Canvas, Dice, Rgba, heart, polygon, polyline, rgb, rounded, star};
use resvg::tiny_skia::{PathBuilder, Rect};

const WHITE: Rgba = rgb(0xffffff);

/// Dawn: a warm vertical gradient with a soft sun.
pub fn gradient_dawn(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.linear(
        (0.0, 0.0),
        (0.0, h),
        &[rgb(0xff9a9e), rgb(0xfad0c4), rgb(0xfbc2eb)],
    );
    c.glow(w * 0.7, h * 0.3, w * 0.6, WHITE.alpha(110));
}

/// Ocean: a diagonal teal-to-blue gradient with two glows.
pub fn gradient_ocean(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.linear(
        (0.0, 0.0),
        (w, h),
        &[rgb(0x2193b0), rgb(0x6dd5ed), rgb(0x4364f7)],
    );
    c.glow(w * 0.2, h * 0.8, h * 0.7, WHITE.alpha(70));
    c.glow(w * 0.85, h * 0.15, h * 0.5, rgb(0xc2fff7).alpha(90));
}

fn hills(c: &mut Canvas, base: f32, height: f32, colour: Rgba, seed: u64) {
    let (w, h) = (c.w(), c.h());
    let mut dice = Dice::new(seed);
    let mut points = vec![(0.0, h)];
    let steps = 8;
    for i in 0..=steps {
        let x = w * i as f32 / steps as f32;
        let peak = if i % 2 == 1 {
            dice.range(0.5, 1.0)
        } else {
            dice.range(0.0, 0.35)
        };
        points.push((x, base - height * peak));
    }
    points.push((w, h));
    c.shape(polygon(&points), colour);
}

/// Ink landscape: rice paper, layered ink hills and a red sun.
pub fn chinese_ink(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.linear((0.0, 0.0), (0.0, h), &[rgb(0xf6efe0), rgb(0xe9dfc9)]);
    c.circle(w * 0.72, h * 0.22, w * 0.12, rgb(0xc0392b).alpha(220));
    hills(c, h * 0.62, h * 0.25, rgb(0x7f8c8d).alpha(90), 11);
    hills(c, h * 0.74, h * 0.22, rgb(0x4d5656).alpha(130), 12);
    hills(c, h * 0.88, h * 0.18, rgb(0x1c2833).alpha(170), 13);
    c.rect(w * 0.08, h * 0.08, w * 0.06, w * 0.06, rgb(0xb03a2e));
}

/// Festive red: deep red with gold rings and a lattice border.
pub fn chinese_festive(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.linear(
        (0.0, 0.0),
        (0.0, h),
        &[rgb(0xa31515), rgb(0xd4281c), rgb(0x8e0e0e)],
    );
    let gold = rgb(0xf5c242);
    for (x, y, r) in [(0.15, 0.3, 0.18), (0.85, 0.7, 0.22), (0.5, 0.5, 0.3)] {
        let (cx, cy, r) = (w * x, h * y, h.min(w) * r);
        c.line(PathBuilder::from_circle(cx, cy, r), gold.alpha(150), 4.0);
        c.line(
            PathBuilder::from_circle(cx, cy, r * 0.8),
            gold.alpha(90),
            2.0,
        );
    }
    c.frame(h.min(w) * 0.03, 6.0, 0.0, gold);
    c.frame(h.min(w) * 0.03 + 14.0, 2.0, 0.0, gold.alpha(200));
}

/// Sea at sunset: a warm sky, the sun low, the sea with light on it.
pub fn scenery_sunset(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    let horizon = h * 0.6;
    c.linear(
        (0.0, 0.0),
        (0.0, horizon),
        &[rgb(0x2c3e75), rgb(0xf3904f), rgb(0xfdd36a)],
    );
    c.glow(w * 0.5, horizon, w.max(h) * 0.35, rgb(0xfff3b0).alpha(200));
    c.circle(w * 0.5, horizon, w.min(h) * 0.09, rgb(0xfff1c1));
    let sea = Rect::from_xywh(0.0, horizon, w, h - horizon).map(PathBuilder::from_rect);
    c.shape_linear(
        sea,
        (0.0, horizon),
        (0.0, h),
        &[rgb(0x1f4e79), rgb(0x0b2545)],
    );
    let mut dice = Dice::new(21);
    for i in 0..40 {
        let y = horizon + (h - horizon) * (i as f32 + 0.5) / 40.0;
        let half = w * 0.05 * (1.0 + 3.0 * (y - horizon) / (h - horizon)) * dice.range(0.4, 1.0);
        c.line(
            polyline(&[(w * 0.5 - half, y), (w * 0.5 + half, y)]),
            rgb(0xffd27f).alpha(140),
            3.0,
        );
    }
}

/// Mountain lake: blue sky, three ridges, green shore.
pub fn scenery_mountains(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.linear((0.0, 0.0), (0.0, h * 0.7), &[rgb(0x6fb1fc), rgb(0xcfe9ff)]);
    c.glow(w * 0.2, h * 0.15, h * 0.3, WHITE.alpha(160));
    hills(c, h * 0.55, h * 0.3, rgb(0x8aa1b1), 31);
    hills(c, h * 0.65, h * 0.25, rgb(0x5d7b6f), 32);
    hills(c, h * 0.8, h * 0.15, rgb(0x3f6e3a), 33);
    c.rect(0.0, h * 0.86, w, h * 0.14, rgb(0x4c8c4a));
}

fn wobbly_circle(c: &mut Canvas, cx: f32, cy: f32, r: f32, colour: Rgba, dice: &mut Dice) {
    let points: Vec<(f32, f32)> = (0..=36)
        .map(|i| {
            let a = TAU * i as f32 / 36.0;
            let rr = r * dice.range(0.93, 1.07);
            (cx + rr * a.cos(), cy + rr * a.sin())
        })
        .collect();
    c.line(polyline(&points), colour, 5.0);
}

/// Crayon doodles on cream paper.
pub fn hand_doodles(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.fill(rgb(0xfff8e7));
    let mut dice = Dice::new(41);
    let pastels = [
        rgb(0xf28b82),
        rgb(0xfbbc04),
        rgb(0x81c995),
        rgb(0x8ab4f8),
        rgb(0xc58af9),
    ];
    for i in 0..18 {
        let colour = pastels[i % pastels.len()];
        let (x, y) = (dice.range(0.0, w), dice.range(0.0, h));
        match i % 3 {
            0 => wobbly_circle(c, x, y, dice.range(20.0, 60.0), colour, &mut dice),
            1 => c.line(star(x, y, 40.0, 18.0, 5), colour, 4.0),
            _ => {
                let points: Vec<(f32, f32)> = (0..8)
                    .map(|k| (x + k as f32 * 18.0, y + if k % 2 == 0 { 0.0 } else { 16.0 }))
                    .collect();
                c.line(polyline(&points), colour, 4.0);
            }
        }
    }
}

/// A notebook page: ruled lines, a margin and a few doodles.
pub fn hand_notebook(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.fill(rgb(0xfdfdf7));
    let mut y = 80.0;
    while y < h {
        c.line(polyline(&[(0.0, y), (w, y)]), rgb(0xa4c8f0), 2.0);
        y += 40.0;
    }
    c.line(
        polyline(&[(w * 0.1, 0.0), (w * 0.1, h)]),
        rgb(0xe57373),
        3.0,
    );
    let mut dice = Dice::new(42);
    wobbly_circle(c, w * 0.8, h * 0.25, 70.0, rgb(0xfbbc04), &mut dice);
    c.line(heart(w * 0.6, h * 0.6, 120.0), rgb(0xe57373), 5.0);
    c.line(star(w * 0.3, h * 0.75, 60.0, 26.0, 5), rgb(0x5c6bc0), 5.0);
}

/// Linen: fine crossing threads on a warm grey.
pub fn texture_linen(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.fill(rgb(0xd9d2c5));
    let mut dice = Dice::new(51);
    let mut x = 0.0;
    while x < w {
        let a = dice.range(20.0, 60.0) as u8;
        c.rect(x, 0.0, 2.0, h, rgb(0x8d7f6a).alpha(a));
        x += dice.range(3.0, 7.0);
    }
    let mut y = 0.0;
    while y < h {
        let a = dice.range(20.0, 60.0) as u8;
        c.rect(0.0, y, w, 2.0, rgb(0xffffff).alpha(a));
        y += dice.range(3.0, 7.0);
    }
}

/// Terrazzo: scattered chips on off-white.
pub fn texture_terrazzo(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.fill(rgb(0xf1ede6));
    let chips = [
        rgb(0xc0846b),
        rgb(0x6b8f8c),
        rgb(0xe3b448),
        rgb(0x9a9a9a),
        rgb(0x3d4a5c),
    ];
    let mut dice = Dice::new(52);
    for i in 0..260 {
        let (x, y, r) = (
            dice.range(0.0, w),
            dice.range(0.0, h),
            dice.range(4.0, 16.0),
        );
        let points: Vec<(f32, f32)> = (0..5)
            .map(|k| {
                (
                    x + r * dice.range(0.6, 1.0) * (TAU * k as f32 / 5.0).cos(),
                    y + r * dice.range(0.6, 1.0) * (TAU * k as f32 / 5.0).sin(),
                )
            })
            .collect();
        c.shape(polygon(&points), chips[i % chips.len()]);
    }
}

fn tech_grid(c: &mut Canvas, shift: f32, glow: u8) {
    let (w, h) = (c.w(), c.h());
    c.linear(
        (0.0, 0.0),
        (0.0, h),
        &[rgb(0x020617), rgb(0x0b1d4a), rgb(0x081229)],
    );
    let horizon = h * 0.45;
    let cyan = rgb(0x22d3ee);
    for i in -12..=12 {
        let x = w * 0.5 + i as f32 * w * 0.12;
        c.line(
            polyline(&[
                (w * 0.5 + i as f32 * w * 0.01, horizon),
                (x * 2.0 - w * 0.5, h),
            ]),
            cyan.alpha(90),
            2.0,
        );
    }
    for k in 0..10 {
        let f = ((k as f32 + shift) / 10.0).powi(2);
        let y = horizon + (h - horizon) * f;
        c.line(
            polyline(&[(0.0, y), (w, y)]),
            cyan.alpha(60 + (120.0 * f) as u8),
            2.0,
        );
    }
    c.glow(w * 0.5, horizon, w.max(h) * 0.4, rgb(0x3b82f6).alpha(glow));
}

/// Neon grid: a perspective grid towards a glowing horizon.
pub fn tech_neon(c: &mut Canvas) {
    tech_grid(c, 0.0, 120);
}

/// Circuit: traces and nodes on dark blue.
pub fn tech_circuit(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.linear((0.0, 0.0), (w, h), &[rgb(0x0f172a), rgb(0x1e3a8a)]);
    let mut dice = Dice::new(61);
    for _ in 0..40 {
        let (mut x, mut y) = (
            (dice.range(0.0, w) / 20.0).round() * 20.0,
            (dice.range(0.0, h) / 20.0).round() * 20.0,
        );
        let mut points = vec![(x, y)];
        for k in 0..4 {
            let len = dice.range(40.0, 160.0);
            if k % 2 == 0 {
                x += len
            } else {
                y += if dice.range(0.0, 1.0) > 0.5 {
                    len
                } else {
                    -len
                }
            }
            points.push((x, y));
        }
        c.line(polyline(&points), rgb(0x38bdf8).alpha(150), 2.0);
        c.circle(x, y, 5.0, rgb(0x7dd3fc));
    }
    c.glow(w * 0.5, h * 0.5, w.max(h) * 0.35, rgb(0x38bdf8).alpha(60));
}

/// Navy: a dark blue field crossed by a white band and a gold rule.
pub fn business_navy(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.linear((0.0, 0.0), (0.0, h), &[rgb(0x0b1f3a), rgb(0x163a66)]);
    c.shape(
        polygon(&[(0.0, h * 0.7), (w, h * 0.5), (w, h * 0.62), (0.0, h * 0.82)]),
        WHITE.alpha(235),
    );
    c.line(
        polyline(&[(0.0, h * 0.85), (w, h * 0.65)]),
        rgb(0xd4af37),
        6.0,
    );
}

/// Blocks: light grey with blue geometric panels.
pub fn business_blocks(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.fill(rgb(0xf3f5f8));
    c.shape(
        polygon(&[(w * 0.55, 0.0), (w, 0.0), (w, h), (w * 0.75, h)]),
        rgb(0x1d4ed8),
    );
    c.shape(
        polygon(&[(w * 0.45, 0.0), (w * 0.6, 0.0), (w * 0.8, h), (w * 0.65, h)]),
        rgb(0x60a5fa).alpha(200),
    );
    c.rect(w * 0.06, h * 0.1, w * 0.08, 8.0, rgb(0x1d4ed8));
}

/// Confetti: bright dots scattered on a pastel field.
pub fn other_confetti(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.linear((0.0, 0.0), (w, h), &[rgb(0xfdfbfb), rgb(0xebedee)]);
    let colours = [
        rgb(0xff6b6b),
        rgb(0xfeca57),
        rgb(0x48dbfb),
        rgb(0x1dd1a1),
        rgb(0x5f27cd),
    ];
    let mut dice = Dice::new(81);
    for i in 0..220 {
        c.circle(
            dice.range(0.0, w),
            dice.range(0.0, h),
            dice.range(3.0, 10.0),
            colours[i % colours.len()].alpha(200),
        );
    }
}

/// Stripes: broad diagonal stripes in two soft colours.
pub fn other_stripes(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.fill(rgb(0xfff1e6));
    let band = w.max(h) / 12.0;
    for i in -12..24 {
        let x = i as f32 * band * 2.0;
        c.shape(
            polygon(&[(x, 0.0), (x + band, 0.0), (x + band - h, h), (x - h, h)]),
            rgb(0xffd6a5).alpha(180),
        );
    }
}

/// A white circle mask.
pub fn mask_circle(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.circle(w / 2.0, h / 2.0, w.min(h) * 0.48, WHITE);
}

/// A white rounded-square mask.
pub fn mask_rounded(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.shape(
        rounded(w * 0.04, h * 0.04, w * 0.92, h * 0.92, w * 0.16),
        WHITE,
    );
}

/// A white heart mask.
pub fn mask_heart(c: &mut Canvas) {
    let s = c.w().min(c.h());
    c.shape(heart(s * 0.02, s * 0.04, s * 0.96), WHITE);
}

/// A white five-point star mask.
pub fn mask_star(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.shape(
        star(w / 2.0, h * 0.53, w.min(h) * 0.48, w.min(h) * 0.2, 5),
        WHITE,
    );
}

/// A white hexagon mask.
pub fn mask_hexagon(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    let r = w.min(h) * 0.48;
    c.shape(star(w / 2.0, h / 2.0, r, r, 3), WHITE);
}

/// A soft-edged ellipse mask (a vignette).
pub fn mask_soft(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.glow(w / 2.0, h / 2.0, w.min(h) * 0.5, WHITE);
    c.circle(w / 2.0, h / 2.0, w.min(h) * 0.3, WHITE);
}

/// A gold double-line frame.
pub fn border_gold(c: &mut Canvas) {
    let gold = rgb(0xd4af37);
    c.frame(24.0, 10.0, 0.0, gold);
    c.frame(44.0, 3.0, 0.0, gold.alpha(220));
    for (x, y) in [
        (40.0, 40.0),
        (c.w() - 40.0, 40.0),
        (40.0, c.h() - 40.0),
        (c.w() - 40.0, c.h() - 40.0),
    ] {
        c.shape(star(x, y, 22.0, 22.0, 2), gold);
    }
}

/// A film strip: dark bands with sprocket holes above and below.
pub fn border_film(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    let band = h * 0.1;
    c.rect(0.0, 0.0, w, band, rgb(0x111111));
    c.rect(0.0, h - band, w, band, rgb(0x111111));
    let mut x = 20.0;
    while x < w {
        for y in [band * 0.3, h - band * 0.7] {
            c.shape(rounded(x, y, 28.0, band * 0.4, 5.0), rgb(0xf5f5f5));
        }
        x += 56.0;
    }
}

/// A red frame with cloud-like corner ornaments.
pub fn border_chinese(c: &mut Canvas) {
    let red = rgb(0xb71c1c);
    c.frame(16.0, 14.0, 8.0, red);
    c.frame(40.0, 4.0, 4.0, rgb(0xe0b84c));
    let (w, h) = (c.w(), c.h());
    for (x, y) in [
        (60.0, 60.0),
        (w - 60.0, 60.0),
        (60.0, h - 60.0),
        (w - 60.0, h - 60.0),
    ] {
        c.line(PathBuilder::from_circle(x, y, 26.0), red, 8.0);
        c.circle(x, y, 10.0, rgb(0xe0b84c));
    }
}

/// A soft white glow around the edges, rounded.
pub fn border_glow(c: &mut Canvas) {
    for i in 0..12 {
        c.frame(
            i as f32 * 4.0,
            4.0,
            60.0 - i as f32 * 3.0,
            WHITE.alpha(200 - i * 16),
        );
    }
}

/// Golden light spots of several sizes.
pub fn atmosphere_bokeh(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    let mut dice = Dice::new(91);
    for _ in 0..28 {
        let r = dice.range(20.0, 90.0);
        c.glow(
            dice.range(0.0, w),
            dice.range(0.0, h),
            r,
            rgb(0xffe08a).alpha(dice.range(90.0, 200.0) as u8),
        );
    }
}

/// Four-point sparkles.
pub fn atmosphere_sparkles(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    let mut dice = Dice::new(92);
    for _ in 0..40 {
        let (x, y, r) = (
            dice.range(0.0, w),
            dice.range(0.0, h),
            dice.range(8.0, 26.0),
        );
        c.glow(x, y, r * 1.6, WHITE.alpha(90));
        c.shape(star(x, y, r, r * 0.18, 4), WHITE);
    }
}

/// A button face: a rounded pill with a vertical gradient and a highlight.
fn pill(c: &mut Canvas, top: Rgba, bottom: Rgba) {
    let (w, h) = (c.w(), c.h());
    c.shape(
        rounded(6.0, 10.0, w - 12.0, h - 14.0, h / 2.0),
        rgb(0x000000).alpha(60),
    );
    c.shape_linear(
        rounded(4.0, 4.0, w - 12.0, h - 14.0, h / 2.0),
        (0.0, 4.0),
        (0.0, h - 10.0),
        &[top, bottom],
    );
    c.shape(
        rounded(h * 0.25, 10.0, w - 12.0 - h * 0.5, h * 0.28, h * 0.14),
        WHITE.alpha(70),
    );
}

/// An orange gradient pill button.
pub fn button_orange(c: &mut Canvas) {
    pill(c, rgb(0xffb347), rgb(0xff7b00));
}

/// A blue gradient pill button.
pub fn button_blue(c: &mut Canvas) {
    pill(c, rgb(0x5eb8ff), rgb(0x1565c0));
}

/// A red gradient pill button.
pub fn button_red(c: &mut Canvas) {
    pill(c, rgb(0xff6f61), rgb(0xc62828));
}

/// A gold gradient pill button.
pub fn button_gold(c: &mut Canvas) {
    pill(c, rgb(0xffe29a), rgb(0xd4a017));
}

/// A white outlined pill button.
pub fn button_outline(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    c.shape(
        rounded(6.0, 6.0, w - 12.0, h - 12.0, h / 2.0),
        rgb(0x000000).alpha(70),
    );
    c.line(rounded(6.0, 6.0, w - 12.0, h - 12.0, h / 2.0), WHITE, 6.0);
}

/// A round play button.
pub fn button_play(c: &mut Canvas) {
    let (w, h) = (c.w(), c.h());
    let r = w.min(h) * 0.46;
    c.circle(w / 2.0, h / 2.0 + 4.0, r, rgb(0x000000).alpha(60));
    c.shape_linear(
        PathBuilder::from_circle(w / 2.0, h / 2.0, r),
        (0.0, 0.0),
        (0.0, h),
        &[rgb(0xff5f6d), rgb(0xffc371)],
    );
    c.shape(
        polygon(&[
            (w * 0.42, h * 0.32),
            (w * 0.42, h * 0.68),
            (w * 0.7, h * 0.5),
        ]),
        WHITE,
    );
}

/// Gradient flow (animated): the dawn colours sliding along a slow diagonal.
pub fn moving_gradient(c: &mut Canvas, t: f32) {
    let (w, h) = (c.w(), c.h());
    let dx = (TAU * t).cos() * w * 0.5;
    let dy = (TAU * t).sin() * h * 0.3;
    c.linear(
        (dx, dy),
        (w - dx, h - dy),
        &[rgb(0xff9a9e), rgb(0xa18cd1), rgb(0xfbc2eb)],
    );
}

/// Neon grid (animated): the grid lines run towards the viewer, the horizon pulses.
pub fn moving_grid(c: &mut Canvas, t: f32) {
    tech_grid(c, t, (90.0 + 60.0 * (TAU * t).sin()) as u8);
}

/// Snowflakes falling through the loop: white dots that wrap from bottom to top.
fn snow(c: &mut Canvas, t: f32, seed: u64) {
    let (w, h) = (c.w(), c.h());
    let mut dice = Dice::new(seed);
    for _ in 0..70 {
        let (x, y0, r) = (dice.range(0.0, w), dice.range(0.0, h), dice.range(1.5, 4.5));
        let sway = (TAU * (t + x / w)).sin() * 6.0;
        let y = (y0 + t * h) % h;
        c.circle(x + sway, y, r, WHITE.alpha(230));
    }
}

/// Snowy night (animated): snow falling over a dark blue sky.
pub fn moving_snow_night(c: &mut Canvas, t: f32) {
    let (w, h) = (c.w(), c.h());
    c.linear(
        (0.0, 0.0),
        (0.0, h),
        &[rgb(0x0f2027), rgb(0x203a43), rgb(0x2c5364)],
    );
    c.circle(w * 0.75, h * 0.15, w * 0.08, rgb(0xf5f3ce));
    snow(c, t, 101);
}

/// Rising light (animated): golden spots drifting up over navy.
pub fn moving_bokeh(c: &mut Canvas, t: f32) {
    let (w, h) = (c.w(), c.h());
    c.linear((0.0, 0.0), (w, h), &[rgb(0x0b1f3a), rgb(0x1e3c72)]);
    let mut dice = Dice::new(102);
    for _ in 0..18 {
        let (x, y0, r) = (
            dice.range(0.0, w),
            dice.range(0.0, h),
            dice.range(12.0, 40.0),
        );
        let y = (y0 - t * h).rem_euclid(h);
        c.glow(x, y, r, rgb(0xffd27f).alpha(150));
    }
}

/// Falling snow (animated overlay, transparent between the flakes).
pub fn moving_snowfall(c: &mut Canvas, t: f32) {
    snow(c, t, 103);
}

/// Falling petals (animated overlay): pink ovals tumbling down.
pub fn moving_petals(c: &mut Canvas, t: f32) {
    let (w, h) = (c.w(), c.h());
    let mut dice = Dice::new(104);
    for _ in 0..30 {
        let (x0, y0, s) = (
            dice.range(0.0, w),
            dice.range(0.0, h),
            dice.range(6.0, 12.0),
        );
        let y = (y0 + t * h) % h;
        let x = x0 + (TAU * (t + y0 / h)).sin() * 12.0;
        let squash = 0.4 + 0.6 * (TAU * (t * 2.0 + x0 / w)).cos().abs();
        let petal = Rect::from_xywh(x - s, y - s * squash, s * 2.0, s * 2.0 * squash)
            .and_then(PathBuilder::from_oval);
        c.shape(petal, rgb(0xf8a5c2).alpha(230));
    }
}
