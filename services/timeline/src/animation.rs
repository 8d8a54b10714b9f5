//! A layer's state at a time: where its in- and out-animations and its continuous motion have
//! taken it.
//!
//! Offsets are fractions of the frame (multiply by the frame width/height); the clip is the
//! visible part of the layer's own box, measured from one edge. See README "Animation model".

use crate::catalogue::animations::{self, AnimationInfo, Direction, Effect, Phase};
use crate::layer::LayerCommon;
use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Bounce keyframes: (progress, position along the travel direction in frame lengths).
/// The segments take 60, 15, 15 and 10 % of the duration (spec §9).
pub const BOUNCE_KEYS: [(f64, f64); 5] = [
    (0.0, -1.0),
    (0.6, 0.04),
    (0.75, -0.016),
    (0.9, 0.008),
    (1.0, 0.0),
];

/// The far scale of the zooming continuous motions: they run between 1 and this over the span.
pub const MOTION_ZOOM: f64 = 1.25;

/// The edge a clip is measured from.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Edge.ts", rename_all = "camelCase")]
pub enum Edge {
    /// The left edge.
    Left,
    /// The right edge.
    Right,
    /// The top edge.
    Top,
    /// The bottom edge.
    Bottom,
}

/// The visible part of a layer's box: the `fraction` of its width (left/right) or height
/// (top/bottom) nearest to `edge`. A fraction of 1 shows the whole layer.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[ts(export_to = "Clip.ts")]
pub struct Clip {
    /// The edge the visible part starts at.
    pub edge: Edge,
    /// The visible fraction, 0..=1.
    pub fraction: f64,
}

impl Clip {
    /// The whole layer.
    pub const FULL: Clip = Clip {
        edge: Edge::Left,
        fraction: 1.0,
    };
}

/// A layer's animated state at one time.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "LayerState.ts", rename_all = "camelCase")]
pub struct LayerState {
    /// Whether the layer is drawn at all (start ≤ t < end).
    pub visible: bool,
    /// Horizontal offset, fractions of the frame width.
    pub offset_x: f64,
    /// Vertical offset, fractions of the frame height.
    pub offset_y: f64,
    /// Scale about the centre of the layer's box (after the offsets move it): the continuous
    /// motion's zoom times the animations' scale, 1 when neither scales.
    pub scale: f64,
    /// Rotation in degrees, clockwise.
    pub rotation: f64,
    /// Opacity multiplier, 0..=1.
    pub opacity: f64,
    /// The visible part of the layer.
    pub clip: Clip,
}

impl LayerState {
    /// The state of a layer with no animation running.
    pub const REST: LayerState = LayerState {
        visible: true,
        offset_x: 0.0,
        offset_y: 0.0,
        scale: 1.0,
        rotation: 0.0,
        opacity: 1.0,
        clip: Clip::FULL,
    };
    /// The state of a layer outside its time range.
    pub const HIDDEN: LayerState = LayerState {
        visible: false,
        opacity: 0.0,
        ..Self::REST
    };
}

/// What [`layer_state`] needs of a layer.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "LayerTiming.ts", rename_all = "camelCase")]
pub struct LayerTiming {
    /// Start, seconds from the scene start.
    pub start: f64,
    /// End, seconds from the scene start.
    pub end: f64,
    /// Rotation in degrees.
    pub rotate: f64,
    /// Continuous motion name (read by `motion_zoom`) or "".
    pub motion: String,
    /// In-animation key or "".
    pub motion_in: String,
    /// In-animation length, seconds.
    pub in_time: f64,
    /// Out-animation key or "".
    pub motion_out: String,
    /// Out-animation length, seconds.
    pub out_time: f64,
}

impl From<&LayerCommon> for LayerTiming {
    fn from(c: &LayerCommon) -> Self {
        Self {
            start: c.start_time,
            end: c.end_time,
            rotate: c.rotate,
            motion: c.motion.clone(),
            motion_in: c.motion_in.clone(),
            in_time: c.in_time,
            motion_out: c.motion_out.clone(),
            out_time: c.out_time,
        }
    }
}

/// Returns the scale at the start and at the end of a continuous motion, or `None` when `motion`
/// names none (unknown names, "" included, do not move).
pub fn motion_zoom(motion: &str) -> Option<(f64, f64)> {
    match motion {
        "ZOOM_IN" | "zoomIn" | "KEN_BURNS" => Some((1.0, MOTION_ZOOM)),
        "ZOOM_OUT" | "zoomOut" => Some((MOTION_ZOOM, 1.0)),
        _ => None,
    }
}

/// Returns the largest scale a continuous motion reaches, 1 when none: the renderer prepares
/// zooming content at this scale so that it never enlarges past its source detail.
pub fn motion_max_scale(motion: &str) -> f64 {
    motion_zoom(motion).map_or(1.0, |(from, to)| from.max(to))
}

/// Returns `1 − (1 − u)³`: fast start, gentle arrival.
pub fn ease_out_cubic(u: f64) -> f64 {
    let v = 1.0 - u;
    1.0 - v * v * v
}

/// Returns `u³`: gentle start, fast departure.
pub fn ease_in_cubic(u: f64) -> f64 {
    u * u * u
}

/// Returns the bounce position along the travel direction at progress `u` (frame lengths).
pub fn bounce_position(u: f64) -> f64 {
    let u = clamp01(u);
    for pair in BOUNCE_KEYS.windows(2) {
        let [(u0, s0), (u1, s1)] = [pair[0], pair[1]];
        if u <= u1 {
            let local = (u - u0) / (u1 - u0);
            return s0 + (s1 - s0) * ease_out_cubic(local);
        }
    }
    0.0
}

/// Returns the state one animation gives at progress `u` (0 at its start, 1 at its end),
/// before the layer's own rotation is applied.
pub fn animation_state(info: &AnimationInfo, u: f64) -> LayerState {
    let u = clamp01(u);
    let mut s = LayerState::REST;
    let (vx, vy) = info.direction.map_or((0.0, 0.0), Direction::vector);
    match (info.phase, info.effect) {
        (Phase::In, Effect::Opacity) => s.opacity = u,
        (Phase::Out, Effect::Opacity) => s.opacity = 1.0 - u,
        (Phase::In, Effect::Move) => {
            // Arrives travelling along the direction, so it starts one frame behind its rest place.
            let along = ease_out_cubic(u) - 1.0;
            (s.offset_x, s.offset_y) = (vx * along, vy * along);
        }
        (Phase::Out, Effect::Move) => {
            let along = ease_in_cubic(u);
            (s.offset_x, s.offset_y) = (vx * along, vy * along);
        }
        (_, Effect::Bounce) => {
            let along = bounce_position(u);
            (s.offset_x, s.offset_y) = (vx * along, vy * along);
            s.opacity = (u / BOUNCE_KEYS[1].0).min(1.0);
        }
        (Phase::In, Effect::Erase) => {
            // The boundary travels along the direction, so the revealed part grows from the far side.
            s.clip = Clip {
                edge: trailing_edge(info.direction),
                fraction: u,
            };
        }
        (Phase::Out, Effect::Erase) => {
            s.clip = Clip {
                edge: leading_edge(info.direction),
                fraction: 1.0 - u,
            };
        }
    }
    s
}

/// Returns the edge a direction travels away from.
fn trailing_edge(d: Option<Direction>) -> Edge {
    match d {
        Some(Direction::Left) => Edge::Right,
        Some(Direction::Right) | None => Edge::Left,
        Some(Direction::Up) => Edge::Bottom,
        Some(Direction::Down) => Edge::Top,
    }
}

/// Returns the edge a direction travels towards.
fn leading_edge(d: Option<Direction>) -> Edge {
    match d {
        Some(Direction::Left) | None => Edge::Left,
        Some(Direction::Right) => Edge::Right,
        Some(Direction::Up) => Edge::Top,
        Some(Direction::Down) => Edge::Bottom,
    }
}

/// Returns the in and out durations after fitting both into the layer's span: each is clamped
/// to the span, and when together they exceed it both shrink in proportion.
pub fn fitted_durations(span: f64, in_time: f64, out_time: f64) -> (f64, f64) {
    let span = span.max(0.0);
    let i = in_time.max(0.0).min(span);
    let o = out_time.max(0.0).min(span);
    if i + o > span && i + o > 0.0 {
        let k = span / (i + o);
        (i * k, o * k)
    } else {
        (i, o)
    }
}

/// Returns a layer's state at `t` seconds from its scene start. Unknown animation keys animate
/// nothing (validation reports them); a continuous motion scales linearly over the whole span,
/// on top of the animations.
pub fn layer_state(timing: &LayerTiming, t: f64) -> LayerState {
    let (start, end) = (timing.start, timing.end);
    if !(t >= start && t < end) {
        return LayerState::HIDDEN;
    }
    let in_info = animations::find(&timing.motion_in).filter(|a| a.phase == Phase::In);
    let out_info = animations::find(&timing.motion_out).filter(|a| a.phase == Phase::Out);
    let (in_d, out_d) = fitted_durations(
        end - start,
        if in_info.is_some() {
            timing.in_time
        } else {
            0.0
        },
        if out_info.is_some() {
            timing.out_time
        } else {
            0.0
        },
    );
    let mut state = LayerState::REST;
    if let Some(info) = in_info.filter(|_| in_d > 0.0 && t < start + in_d) {
        state = animation_state(info, (t - start) / in_d);
    }
    if let Some(info) = out_info.filter(|_| out_d > 0.0 && t >= end - out_d) {
        let out = animation_state(info, (t - (end - out_d)) / out_d);
        state.offset_x += out.offset_x;
        state.offset_y += out.offset_y;
        state.opacity *= out.opacity;
        state.scale *= out.scale;
        if out.clip.fraction < 1.0 {
            state.clip = out.clip;
        }
    }
    if let Some((from, to)) = motion_zoom(&timing.motion) {
        // Visible means start ≤ t < end, so the span is positive here.
        let u = clamp01((t - start) / (end - start));
        state.scale *= from + (to - from) * u;
    }
    state.rotation = timing.rotate;
    state
}

/// Returns `u` clamped to 0..=1 (NaN reads as 0).
fn clamp01(u: f64) -> f64 {
    if u.is_nan() { 0.0 } else { u.clamp(0.0, 1.0) }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn timing(motion_in: &str, motion_out: &str) -> LayerTiming {
        LayerTiming {
            start: 1.0,
            end: 4.0,
            rotate: 15.0,
            motion: String::new(),
            motion_in: motion_in.into(),
            in_time: 1.0,
            motion_out: motion_out.into(),
            out_time: 1.0,
        }
    }

    #[test]
    fn outside_the_range_is_hidden() {
        let t = timing("", "");
        assert!(!layer_state(&t, 0.99).visible);
        assert!(!layer_state(&t, 4.0).visible);
        assert_eq!(
            layer_state(&t, 2.0),
            LayerState {
                rotation: 15.0,
                ..LayerState::REST
            }
        );
    }

    #[test]
    fn fade_in_and_out_are_linear() {
        let t = timing("MOTIONIN_OPACITY", "MOTIONOUT_OPACITY");
        assert!((layer_state(&t, 1.25).opacity - 0.25).abs() < 1e-12);
        assert!((layer_state(&t, 3.75).opacity - 0.25).abs() < 1e-12);
    }

    #[test]
    fn move_in_starts_one_frame_away() {
        let t = timing("MOTIONIN_MOVE_LEFT", "");
        let s = layer_state(&t, 1.0);
        assert!((s.offset_x - 1.0).abs() < 1e-12, "{s:?}");
        assert!(layer_state(&t, 1.999).offset_x.abs() < 1e-6);
    }

    #[test]
    fn bounce_hits_its_keyframes() {
        for (u, s) in BOUNCE_KEYS {
            assert!((bounce_position(u) - s).abs() < 1e-12);
        }
    }

    #[test]
    fn erase_reveals_from_the_far_edge() -> Result<(), String> {
        let info = animations::find("PYTHONERASE_LEFT").ok_or("missing")?;
        let s = animation_state(info, 0.3);
        assert_eq!(
            s.clip,
            Clip {
                edge: Edge::Right,
                fraction: 0.3
            }
        );
        let out = animations::find("PYTHONERASE_LEFT_OUT").ok_or("missing")?;
        assert_eq!(
            animation_state(out, 0.25).clip,
            Clip {
                edge: Edge::Left,
                fraction: 0.75
            }
        );
        Ok(())
    }

    #[test]
    fn zoom_runs_linearly_over_the_span() {
        let t = LayerTiming {
            motion: "ZOOM_OUT".into(),
            ..timing("MOTIONIN_OPACITY", "")
        };
        assert_eq!(layer_state(&t, 1.0).scale, MOTION_ZOOM);
        assert!((layer_state(&t, 2.5).scale - 1.125).abs() < 1e-12);
        assert!((layer_state(&t, 1.5).opacity - 0.5).abs() < 1e-12);
        assert!(!layer_state(&t, 4.0).visible);
        let zoom_in = LayerTiming {
            motion: "KEN_BURNS".into(),
            ..t
        };
        assert!((layer_state(&zoom_in, 3.25).scale - 1.1875).abs() < 1e-12);
    }

    #[test]
    fn motion_names_are_read_exactly() {
        for m in ["ZOOM_IN", "zoomIn", "KEN_BURNS"] {
            assert_eq!(motion_zoom(m), Some((1.0, MOTION_ZOOM)));
            assert_eq!(motion_max_scale(m), MOTION_ZOOM);
        }
        for m in ["ZOOM_OUT", "zoomOut"] {
            assert_eq!(motion_zoom(m), Some((MOTION_ZOOM, 1.0)));
        }
        for m in ["", "zoom_in", "PAN_LEFT"] {
            assert_eq!(motion_zoom(m), None);
            assert_eq!(motion_max_scale(m), 1.0);
        }
    }

    #[test]
    fn long_animations_share_the_span() {
        assert_eq!(fitted_durations(1.0, 1.0, 1.0), (0.5, 0.5));
        assert_eq!(fitted_durations(3.0, 1.0, 1.0), (1.0, 1.0));
        assert_eq!(fitted_durations(1.0, 3.0, 0.0), (1.0, 0.0));
    }
}
