//! In- and out-animations (editor-core §3). The maths of each is in `animation`.

use serde::{Deserialize, Serialize};
use ts_rs::TS;

/// Whether an animation brings a layer in or takes it out.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(
    export_to = "AnimationPhase.ts",
    rename = "AnimationPhase",
    rename_all = "camelCase"
)]
pub enum Phase {
    /// Plays at the layer's start.
    In,
    /// Plays at the layer's end.
    Out,
}

/// What an animation changes.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(
    export_to = "AnimationEffect.ts",
    rename = "AnimationEffect",
    rename_all = "camelCase"
)]
pub enum Effect {
    /// Opacity 0→1 (in) or 1→0 (out).
    Opacity,
    /// Slides one frame length along the direction.
    Move,
    /// Slides in with three overshoots: 60/15/15/10 % of the duration.
    Bounce,
    /// A wipe whose boundary travels along the direction ("python erase").
    Erase,
}

/// The direction an animation travels in.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, Deserialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Direction.ts", rename_all = "camelCase")]
pub enum Direction {
    /// Towards −x.
    Left,
    /// Towards +x.
    Right,
    /// Towards −y.
    Up,
    /// Towards +y.
    Down,
}

impl Direction {
    /// Returns the unit vector of the direction in frame coordinates (y grows downwards).
    pub const fn vector(self) -> (f64, f64) {
        match self {
            Direction::Left => (-1.0, 0.0),
            Direction::Right => (1.0, 0.0),
            Direction::Up => (0.0, -1.0),
            Direction::Down => (0.0, 1.0),
        }
    }
}

/// A catalogue entry.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "AnimationInfo.ts", rename_all = "camelCase")]
pub struct AnimationInfo {
    /// Key written in `motionIn` / `motionOut`.
    pub key: &'static str,
    /// Chinese label.
    pub name_zh: &'static str,
    /// English label.
    pub name_en: &'static str,
    /// In or out.
    pub phase: Phase,
    /// What it changes.
    pub effect: Effect,
    /// Travel direction, none for opacity.
    pub direction: Option<Direction>,
}

use Direction::{Down, Left, Right, Up};
use Effect::{Bounce, Erase, Move, Opacity};
use Phase::{In, Out};

const fn a(
    key: &'static str,
    name_zh: &'static str,
    name_en: &'static str,
    phase: Phase,
    effect: Effect,
    direction: Option<Direction>,
) -> AnimationInfo {
    AnimationInfo {
        key,
        name_zh,
        name_en,
        phase,
        effect,
        direction,
    }
}

/// The animations.
pub static ANIMATIONS: &[AnimationInfo] = &[
    a("MOTIONIN_OPACITY", "渐显", "Fade in", In, Opacity, None),
    a(
        "MOTIONIN_MOVE_LEFT",
        "向左移入",
        "Move in leftwards",
        In,
        Move,
        Some(Left),
    ),
    a(
        "MOTIONIN_MOVE_RIGHT",
        "向右移入",
        "Move in rightwards",
        In,
        Move,
        Some(Right),
    ),
    a(
        "MOTIONIN_MOVE_UP",
        "向上移入",
        "Move in upwards",
        In,
        Move,
        Some(Up),
    ),
    a(
        "MOTIONIN_MOVE_DOWN",
        "向下移入",
        "Move in downwards",
        In,
        Move,
        Some(Down),
    ),
    a(
        "MOTIONIN_BOUNCE_LEFT",
        "向左弹入",
        "Bounce in leftwards",
        In,
        Bounce,
        Some(Left),
    ),
    a(
        "MOTIONIN_BOUNCE_RIGHT",
        "向右弹入",
        "Bounce in rightwards",
        In,
        Bounce,
        Some(Right),
    ),
    a(
        "MOTIONIN_BOUNCE_UP",
        "向上弹入",
        "Bounce in upwards",
        In,
        Bounce,
        Some(Up),
    ),
    a(
        "MOTIONIN_BOUNCE_DOWN",
        "向下弹入",
        "Bounce in downwards",
        In,
        Bounce,
        Some(Down),
    ),
    a(
        "PYTHONERASE_LEFT",
        "向左擦入",
        "Wipe in leftwards",
        In,
        Erase,
        Some(Left),
    ),
    a(
        "PYTHONERASE_RIGHT",
        "向右擦入",
        "Wipe in rightwards",
        In,
        Erase,
        Some(Right),
    ),
    a(
        "PYTHONERASE_UP",
        "向上擦入",
        "Wipe in upwards",
        In,
        Erase,
        Some(Up),
    ),
    a(
        "PYTHONERASE_DOWN",
        "向下擦入",
        "Wipe in downwards",
        In,
        Erase,
        Some(Down),
    ),
    a("MOTIONOUT_OPACITY", "渐隐", "Fade out", Out, Opacity, None),
    a(
        "MOTIONOUT_MOVE_LEFT",
        "向左移出",
        "Move out leftwards",
        Out,
        Move,
        Some(Left),
    ),
    a(
        "MOTIONOUT_MOVE_RIGHT",
        "向右移出",
        "Move out rightwards",
        Out,
        Move,
        Some(Right),
    ),
    a(
        "MOTIONOUT_MOVE_UP",
        "向上移出",
        "Move out upwards",
        Out,
        Move,
        Some(Up),
    ),
    a(
        "MOTIONOUT_MOVE_DOWN",
        "向下移出",
        "Move out downwards",
        Out,
        Move,
        Some(Down),
    ),
    a(
        "PYTHONERASE_LEFT_OUT",
        "向左擦除",
        "Wipe out leftwards",
        Out,
        Erase,
        Some(Left),
    ),
    a(
        "PYTHONERASE_RIGHT_OUT",
        "向右擦除",
        "Wipe out rightwards",
        Out,
        Erase,
        Some(Right),
    ),
    a(
        "PYTHONERASE_UP_OUT",
        "向上擦除",
        "Wipe out upwards",
        Out,
        Erase,
        Some(Up),
    ),
    a(
        "PYTHONERASE_DOWN_OUT",
        "向下擦除",
        "Wipe out downwards",
        Out,
        Erase,
        Some(Down),
    ),
];

/// Returns the animation with a key.
pub fn find(key: &str) -> Option<&'static AnimationInfo> {
    ANIMATIONS.iter().find(|a| a.key == key)
}

/// Returns whether a document's animation name is acceptable for a phase: "", "none", or a catalogue key of that phase.
pub fn is_known(key: &str, phase: Phase) -> bool {
    key.is_empty() || key == "none" || find(key).is_some_and(|a| a.phase == phase)
}
