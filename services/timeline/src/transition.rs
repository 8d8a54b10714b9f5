//! How the outgoing scene A and the incoming scene B combine at progress p of a transition.
//!
//! A [`Composite`] is plain data a renderer executes in four steps (README "Transition model"):
//! clear the frame to black; draw the bottom plane, then the top plane, each transformed and
//! masked; pixelate the result if asked; lay the flash colour over everything.

use crate::catalogue::transitions::{TransitionKind, find};
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Largest mosaic cell, as a fraction of the frame width (reached at p = 0.5).
pub const MOSAIC_MAX_CELL: f64 = 1.0 / 16.0;
/// Number of slats of the shutters.
pub const SHUTTER_COUNT: u32 = 10;

/// Which scene a plane shows.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Which.ts", rename_all = "camelCase")]
pub enum Which {
    /// The outgoing scene.
    A,
    /// The incoming scene.
    B,
}

/// The coordinate a blinds mask tests.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Axis.ts", rename_all = "camelCase")]
pub enum Axis {
    /// Along the width (vertical slats).
    X,
    /// Along the height (horizontal slats).
    Y,
}

/// Where a plane is visible, in frame coordinates (0..1 across each axis of the output frame).
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export_to = "Mask.ts", tag = "kind", rename_all = "camelCase")]
pub enum Mask {
    /// Everywhere.
    Full,
    /// Inside `x0 ≤ x < x1`, `y0 ≤ y < y1`.
    Rect {
        /// Left.
        x0: f64,
        /// Top.
        y0: f64,
        /// Right.
        x1: f64,
        /// Bottom.
        y1: f64,
    },
    /// Strictly inside a circle (pixel distance < r · half-diagonal), so r = 1 from the centre covers the frame.
    Circle {
        /// Centre x.
        cx: f64,
        /// Centre y.
        cy: f64,
        /// Radius in half-diagonals.
        r: f64,
    },
    /// In each of `count` equal slats along `axis`, the first `fraction` of the slat.
    Blinds {
        /// The tested coordinate.
        axis: Axis,
        /// Number of slats.
        count: u32,
        /// Visible part of each slat, 0..=1.
        fraction: f64,
    },
    /// A wedge from 12 o'clock about the centre: angles (measured clockwise, in pixel space)
    /// in `[0, sweep)` when clockwise, in `[360 − sweep, 360)` when not.
    Wedge {
        /// Angle swept, degrees 0..=360.
        sweep: f64,
        /// Sweeps clockwise.
        clockwise: bool,
    },
}

/// One scene's frame as drawn during a transition.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Plane.ts", rename_all = "camelCase")]
pub struct Plane {
    /// The scene shown.
    pub which: Which,
    /// Horizontal offset, fractions of the frame width.
    pub dx: f64,
    /// Vertical offset, fractions of the frame height.
    pub dy: f64,
    /// Horizontal scale about the frame centre (applied before the offset).
    pub sx: f64,
    /// Vertical scale about the frame centre.
    pub sy: f64,
    /// Opacity, 0..=1.
    pub alpha: f64,
    /// Where the plane is visible.
    pub mask: Mask,
    /// Shows the plane outside the mask instead of inside.
    pub invert: bool,
}

impl Plane {
    /// A scene's frame drawn as it is.
    pub const fn plain(which: Which) -> Self {
        Plane {
            which,
            dx: 0.0,
            dy: 0.0,
            sx: 1.0,
            sy: 1.0,
            alpha: 1.0,
            mask: Mask::Full,
            invert: false,
        }
    }

    fn offset(self, dx: f64, dy: f64) -> Self {
        Plane { dx, dy, ..self }
    }

    fn scaled(self, sx: f64, sy: f64) -> Self {
        Plane { sx, sy, ..self }
    }

    fn alpha(self, alpha: f64) -> Self {
        Plane { alpha, ..self }
    }

    fn masked(self, mask: Mask, invert: bool) -> Self {
        Plane {
            mask,
            invert,
            ..self
        }
    }
}

/// A colour laid over the whole frame.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "Flash.ts")]
pub struct Flash {
    /// RGB.
    pub rgb: [u8; 3],
    /// Opacity, 0..=1.
    pub alpha: f64,
}

/// How A and B combine at one progress.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Composite.ts", rename_all = "camelCase")]
pub struct Composite {
    /// Drawn first.
    pub bottom: Plane,
    /// Drawn over the bottom plane.
    pub top: Plane,
    /// Mosaic cell size over the result, fractions of the frame width (0: none).
    pub pixelate: f64,
    /// Colour over everything.
    pub flash: Flash,
}

impl Composite {
    /// Returns a composite of A under B with no effect.
    fn ab(a: Plane, b: Plane) -> Self {
        Composite {
            bottom: a,
            top: b,
            pixelate: 0.0,
            flash: Flash {
                rgb: [0, 0, 0],
                alpha: 0.0,
            },
        }
    }
}

/// Returns the composite of a transition at progress `p` (clamped to 0..=1; NaN reads as 0).
pub fn composite(kind: TransitionKind, p: f64) -> Composite {
    use TransitionKind as K;
    let p = if p.is_nan() { 0.0 } else { p.clamp(0.0, 1.0) };
    let q = 1.0 - p;
    let a = Plane::plain(Which::A);
    let b = Plane::plain(Which::B);
    let after_mid = if p < 0.5 { 0.0 } else { 1.0 };
    let peak = 1.0 - (2.0 * p - 1.0).abs();
    let rect = |x0, y0, x1, y1| Mask::Rect { x0, y0, x1, y1 };
    match kind {
        K::MoveLeft => Composite::ab(a.offset(-p, 0.0), b.offset(q, 0.0)),
        K::MoveRight => Composite::ab(a.offset(p, 0.0), b.offset(-q, 0.0)),
        K::MoveUp => Composite::ab(a.offset(0.0, -p), b.offset(0.0, q)),
        K::MoveDown => Composite::ab(a.offset(0.0, p), b.offset(0.0, -q)),
        K::MoveLeftUp => Composite::ab(a.offset(-p, -p), b.offset(q, q)),
        K::MoveRightUp => Composite::ab(a.offset(p, -p), b.offset(-q, q)),
        K::MoveLeftDown => Composite::ab(a.offset(-p, p), b.offset(q, -q)),
        K::MoveRightDown => Composite::ab(a.offset(p, p), b.offset(-q, -q)),
        K::RollDown => Composite::ab(a, b.offset(0.0, -q)),
        K::RollUp => Composite::ab(a, b.offset(0.0, q)),
        K::CurtainOpen => Composite::ab(
            a,
            b.masked(rect(0.5 - p / 2.0, 0.0, 0.5 + p / 2.0, 1.0), false),
        ),
        K::CurtainClose => Composite::ab(a, b.masked(rect(p / 2.0, 0.0, 1.0 - p / 2.0, 1.0), true)),
        K::EraseLeft => Composite::ab(a, b.masked(rect(q, 0.0, 1.0, 1.0), false)),
        K::EraseRight => Composite::ab(a, b.masked(rect(0.0, 0.0, p, 1.0), false)),
        K::EraseUp => Composite::ab(a, b.masked(rect(0.0, q, 1.0, 1.0), false)),
        K::EraseDown => Composite::ab(a, b.masked(rect(0.0, 0.0, 1.0, p), false)),
        K::CircleOpen => Composite::ab(
            a,
            b.masked(
                Mask::Circle {
                    cx: 0.5,
                    cy: 0.5,
                    r: p,
                },
                false,
            ),
        ),
        K::CircleClose => Composite::ab(
            a,
            b.masked(
                Mask::Circle {
                    cx: 0.5,
                    cy: 0.5,
                    r: q,
                },
                true,
            ),
        ),
        K::Mosaic => Composite {
            pixelate: MOSAIC_MAX_CELL * peak,
            ..Composite::ab(a, b.alpha(after_mid))
        },
        K::Overlay => Composite::ab(a, b.alpha(p)),
        K::ShuttersHorizontal => Composite::ab(
            a,
            b.masked(
                Mask::Blinds {
                    axis: Axis::Y,
                    count: SHUTTER_COUNT,
                    fraction: p,
                },
                false,
            ),
        ),
        K::ShuttersVertical => Composite::ab(
            a,
            b.masked(
                Mask::Blinds {
                    axis: Axis::X,
                    count: SHUTTER_COUNT,
                    fraction: p,
                },
                false,
            ),
        ),
        K::TrackIn => {
            let (sa, sb) = (1.0 + 0.5 * p, 0.8 + 0.2 * p);
            Composite::ab(a.scaled(sa, sa), b.scaled(sb, sb).alpha(p))
        }
        K::TrackOut => {
            let (sa, sb) = (1.0 - 0.2 * p, 1.5 - 0.5 * p);
            Composite::ab(a.scaled(sa, sa), b.scaled(sb, sb).alpha(p))
        }
        K::Clockwise => Composite::ab(
            a,
            b.masked(
                Mask::Wedge {
                    sweep: 360.0 * p,
                    clockwise: true,
                },
                false,
            ),
        ),
        K::AntiClockwise => Composite::ab(
            a,
            b.masked(
                Mask::Wedge {
                    sweep: 360.0 * p,
                    clockwise: false,
                },
                false,
            ),
        ),
        K::FlashBlack => Composite {
            flash: Flash {
                rgb: [0, 0, 0],
                alpha: peak,
            },
            ..Composite::ab(a, b.alpha(after_mid))
        },
        K::FlashWhite => Composite {
            flash: Flash {
                rgb: [255, 255, 255],
                alpha: peak,
            },
            ..Composite::ab(a, b.alpha(after_mid))
        },
        K::MirrorFoldHorizontal => {
            let (fa, fb) = ((1.0 - 2.0 * p).max(0.0), (2.0 * p - 1.0).max(0.0));
            Composite::ab(
                a.scaled(fa, 1.0).alpha(1.0 - after_mid),
                b.scaled(fb, 1.0).alpha(after_mid),
            )
        }
        K::MirrorFoldVertical => {
            let (fa, fb) = ((1.0 - 2.0 * p).max(0.0), (2.0 * p - 1.0).max(0.0));
            Composite::ab(
                a.scaled(1.0, fa).alpha(1.0 - after_mid),
                b.scaled(1.0, fb).alpha(after_mid),
            )
        }
    }
}

/// Returns the composite of a transition named in a document, or `None` for a cut or an unknown name.
pub fn composite_by_name(name: &str, p: f64) -> Option<Composite> {
    find(name).map(|t| composite(t.kind, p))
}

/// Returns whether the point (x, y) in frame fractions of a `width`×`height` frame is inside
/// `mask` (the reference the renderer and the browser test against).
pub fn mask_contains(mask: &Mask, x: f64, y: f64, width: f64, height: f64) -> bool {
    match *mask {
        Mask::Full => true,
        Mask::Rect { x0, y0, x1, y1 } => x >= x0 && x < x1 && y >= y0 && y < y1,
        Mask::Circle { cx, cy, r } => {
            let (px, py) = ((x - cx) * width, (y - cy) * height);
            let half_diag = 0.5 * width.hypot(height);
            px.hypot(py) < r * half_diag
        }
        Mask::Blinds {
            axis,
            count,
            fraction,
        } => {
            let c = if axis == Axis::X { x } else { y } * f64::from(count.max(1));
            c - c.floor() < fraction
        }
        Mask::Wedge { sweep, clockwise } => {
            // Angle clockwise from 12 o'clock in pixel space (y grows downwards).
            let (px, py) = ((x - 0.5) * width, (y - 0.5) * height);
            let angle = px.atan2(-py).to_degrees().rem_euclid(360.0);
            if clockwise {
                angle < sweep
            } else {
                angle >= 360.0 - sweep
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::catalogue::transitions::TRANSITIONS;

    #[test]
    fn every_transition_starts_on_a_and_ends_on_b() {
        for t in TRANSITIONS {
            let start = composite(t.kind, 0.0);
            let end = composite(t.kind, 1.0);
            // At p = 0 nothing of B shows; at p = 1 B covers the frame with no effect left.
            let b_start = if start.top.which == Which::B {
                start.top
            } else {
                start.bottom
            };
            let b_end = if end.top.which == Which::B {
                end.top
            } else {
                end.bottom
            };
            let shows = |pl: &Plane, x: f64, y: f64| {
                pl.alpha > 0.0
                    && mask_contains(&pl.mask, x, y, 640.0, 360.0) != pl.invert
                    && (x - 0.5 - pl.dx).abs() * 2.0 < pl.sx
                    && (y - 0.5 - pl.dy).abs() * 2.0 < pl.sy
            };
            for (x, y) in [(0.5, 0.5), (0.05, 0.05), (0.95, 0.9), (0.3, 0.7)] {
                assert!(
                    !shows(&b_start, x, y),
                    "{} shows B at p=0 at {x},{y}",
                    t.key
                );
                assert!(
                    shows(&b_end, x, y) && b_end.alpha == 1.0,
                    "{} hides B at p=1 at {x},{y}",
                    t.key
                );
            }
            assert!(end.flash.alpha == 0.0 && end.pixelate == 0.0, "{}", t.key);
        }
    }

    #[test]
    fn wedge_grows_clockwise_from_noon() {
        let m = Mask::Wedge {
            sweep: 90.0,
            clockwise: true,
        };
        assert!(mask_contains(&m, 0.6, 0.2, 100.0, 100.0));
        assert!(!mask_contains(&m, 0.4, 0.2, 100.0, 100.0));
        let m = Mask::Wedge {
            sweep: 90.0,
            clockwise: false,
        };
        assert!(mask_contains(&m, 0.4, 0.2, 100.0, 100.0));
    }
}
