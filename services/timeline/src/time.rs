//! Seconds to integer frames, once: frame rates, scene start frames as a prefix sum, and the
//! frame spans of transitions, so durations and boundaries never drift with the frame rate.

use crate::catalogue::transitions::{TransitionKind, find};
use crate::rule::Rule;
use serde::Serialize;
use thiserror::Error;
use ts_rs::TS;

/// Largest frame count or microsecond value a document may produce (about 12 days at 1 MHz);
/// keeps every product below in `i128`-free `i64` range and bounds allocations by frame count.
const MAX_TICKS: f64 = 1e12;

/// A frame rate that cannot be used.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Error)]
pub enum TimeError {
    /// Numerator or denominator is zero.
    #[error("frame rate {0}/{1} is not positive")]
    NotPositive(u32, u32),
}

/// A frame rate as a ratio `num/den` frames per second (30000/1001 for NTSC).
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[ts(export_to = "FrameRate.ts")]
pub struct FrameRate {
    /// Frames …
    pub num: u32,
    /// … per this many seconds.
    pub den: u32,
}

impl FrameRate {
    /// 25 frames per second.
    pub const FPS_25: FrameRate = FrameRate { num: 25, den: 1 };
    /// 30 frames per second, the output rate unless the rule asks for a usable one.
    pub const FPS_30: FrameRate = FrameRate { num: 30, den: 1 };

    /// Returns a frame rate.
    pub fn new(num: u32, den: u32) -> Result<Self, TimeError> {
        if num == 0 || den == 0 {
            Err(TimeError::NotPositive(num, den))
        } else {
            Ok(FrameRate { num, den })
        }
    }

    /// Returns the output frame rate of a rule: its `frameRate` when it is 1..=60 frames per
    /// second, else 30. The spec's stored default, 80, is a legacy setting and reads as 30.
    pub fn for_rule(rule: &Rule) -> Self {
        match u32::try_from(rule.frame_rate) {
            Ok(fps @ 1..=60) => FrameRate { num: fps, den: 1 },
            _ => Self::FPS_30,
        }
    }

    /// Returns frames per second as a float.
    pub fn fps(self) -> f64 {
        f64::from(self.num) / f64::from(self.den)
    }

    /// Returns the whole number of frames nearest to `seconds` (half away from zero); NaN is 0.
    pub fn frames_for(self, seconds: f64) -> i64 {
        to_ticks(seconds * f64::from(self.num) / f64::from(self.den))
    }

    /// Returns the time of a frame's start in seconds.
    pub fn seconds_of(self, frame: i64) -> f64 {
        frame as f64 * f64::from(self.den) / f64::from(self.num)
    }

    /// Returns the frames a clip's cut from `start` to `end` (source seconds) plays: its length to
    /// the nearest whole frame, at least one.
    pub fn cut_frames(self, start: f64, end: f64) -> i64 {
        self.frames_for(end - start).max(1)
    }

    /// Returns the time in a clip's source shown `layer_seconds` into its layer: from the cut's
    /// start, and once the cut has played, its last frame (the frame that starts one frame of
    /// this rate before the cut's end, as [`FrameRate::cut_frames`] counts them), which the clip
    /// then holds. Without an end (or an empty cut) the clip plays on.
    pub fn clip_source_time(self, layer_seconds: f64, start: f64, end: Option<f64>) -> f64 {
        let t = start + layer_seconds.max(0.0);
        match end {
            Some(e) if e > start => t.min(start + self.seconds_of(self.cut_frames(start, e) - 1)),
            _ => t,
        }
    }

    /// Returns the time of a frame's start in whole microseconds (rounded down, exact integer maths).
    pub fn micros_of(self, frame: i64) -> i64 {
        let v = i128::from(frame) * i128::from(self.den) * 1_000_000 / i128::from(self.num);
        // |frame| ≤ 1e12 by construction, so the quotient fits.
        v as i64
    }

    /// Returns the index of the first audio sample of a frame at `sample_rate` (rounded down),
    /// so consecutive frames get consecutive, gap-free sample ranges.
    pub fn sample_of(self, frame: i64, sample_rate: u32) -> i64 {
        let v = i128::from(frame) * i128::from(self.den) * i128::from(sample_rate)
            / i128::from(self.num);
        v as i64
    }
}

/// Returns the whole number of microseconds nearest to `seconds`.
pub fn micros_for(seconds: f64) -> i64 {
    to_ticks(seconds * 1e6)
}

/// Rounds half away from zero and clamps to ±[`MAX_TICKS`]; NaN is 0.
fn to_ticks(v: f64) -> i64 {
    if v.is_nan() {
        return 0;
    }
    // Clamped first, so the cast is exact.
    v.round().clamp(-MAX_TICKS, MAX_TICKS) as i64
}

/// A scene's place on the output timeline, in frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "ScenePlan.ts", rename_all = "camelCase")]
pub struct ScenePlan {
    /// First frame (the sum of the frame counts before it).
    pub start: i64,
    /// Frame count: `frames_for(timeLength)`, at least 0.
    pub frames: i64,
}

/// A transition between scene `from` and scene `from + 1`, in frames.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "TransitionPlan.ts", rename_all = "camelCase")]
pub struct TransitionPlan {
    /// Index of the outgoing scene.
    pub from: usize,
    /// The transition.
    pub kind: TransitionKind,
    /// First frame: the boundary minus half the length (rounded down).
    pub start: i64,
    /// Length in frames: `frames_for(effectTime)`, at most either neighbour's length.
    pub frames: i64,
}

/// What one output frame shows.
#[derive(Debug, Clone, Copy, PartialEq, Serialize, TS)]
#[serde(tag = "kind", rename_all = "camelCase")]
#[ts(export_to = "FrameSource.ts", tag = "kind", rename_all = "camelCase")]
pub enum FrameSource {
    /// One scene at a frame of its own timeline.
    #[serde(rename_all = "camelCase")]
    Scene {
        /// Scene index.
        scene: usize,
        /// Frame from the scene start.
        local: i64,
    },
    /// Two scenes combined by a transition.
    #[serde(rename_all = "camelCase")]
    Transition {
        /// Index of the outgoing scene A (B is `from + 1`).
        from: usize,
        /// The transition.
        transition: TransitionKind,
        /// Progress `(frame − start) / frames`, in 0..1.
        progress: f64,
        /// A's frame, held at its last frame once A has ended.
        from_local: i64,
        /// B's frame, held at its first frame until B has started.
        to_local: i64,
    },
}

/// The frame plan of a rule.
#[derive(Debug, Clone, PartialEq, Serialize, TS)]
#[serde(rename_all = "camelCase")]
#[ts(export_to = "Timeline.ts", rename_all = "camelCase")]
pub struct Timeline {
    /// The frame rate.
    pub rate: FrameRate,
    /// One entry per scene, in order.
    pub scenes: Vec<ScenePlan>,
    /// The transitions that play, in order.
    pub transitions: Vec<TransitionPlan>,
    /// Total frames: the sum of the scenes' frame counts (transitions overlap, they add nothing).
    pub total_frames: i64,
}

impl Timeline {
    /// Returns the frame plan of scene lengths and `(effect, effectTime)` pairs, where scene i's
    /// effect leads into scene i + 1.
    pub fn plan(rate: FrameRate, scenes: &[(f64, &str, f64)]) -> Self {
        let mut plans = Vec::with_capacity(scenes.len());
        let mut start = 0i64;
        for (len, _, _) in scenes {
            let frames = rate.frames_for(*len).max(0);
            plans.push(ScenePlan { start, frames });
            start = start.saturating_add(frames);
        }
        let mut transitions = Vec::new();
        for (i, pair) in plans.windows(2).enumerate() {
            let Some(info) = scenes.get(i).and_then(|(_, effect, _)| find(effect)) else {
                continue;
            };
            let effect_time = scenes.get(i).map_or(0.0, |s| s.2);
            let frames = rate
                .frames_for(effect_time)
                .clamp(0, pair[0].frames.min(pair[1].frames));
            if frames > 0 {
                transitions.push(TransitionPlan {
                    from: i,
                    kind: info.kind,
                    start: pair[1].start - frames / 2,
                    frames,
                });
            }
        }
        Timeline {
            rate,
            scenes: plans,
            transitions,
            total_frames: start,
        }
    }

    /// Returns the frame plan of a rule at its output frame rate.
    pub fn for_rule(rule: &Rule) -> Self {
        let scenes: Vec<(f64, &str, f64)> = rule
            .scenes
            .iter()
            .map(|s| (s.time_length, s.effect.as_str(), s.effect_time))
            .collect();
        Self::plan(FrameRate::for_rule(rule), &scenes)
    }

    /// Returns what frame `frame` shows, or `None` past the end.
    pub fn at(&self, frame: i64) -> Option<FrameSource> {
        if frame < 0 || frame >= self.total_frames {
            return None;
        }
        if let Some(t) = self
            .transitions
            .iter()
            .find(|t| frame >= t.start && frame < t.start + t.frames)
        {
            let (a, b) = (self.scenes.get(t.from)?, self.scenes.get(t.from + 1)?);
            return Some(FrameSource::Transition {
                from: t.from,
                transition: t.kind,
                progress: (frame - t.start) as f64 / t.frames as f64,
                from_local: (frame - a.start).clamp(0, a.frames - 1),
                to_local: (frame - b.start).clamp(0, b.frames - 1),
            });
        }
        // Scenes are sorted by start; the last one starting at or before the frame holds it.
        let idx = self
            .scenes
            .partition_point(|s| s.start <= frame)
            .checked_sub(1)?;
        let s = self.scenes.get(idx)?;
        Some(FrameSource::Scene {
            scene: idx,
            local: frame - s.start,
        })
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ntsc_does_not_drift() {
        let r = FrameRate {
            num: 30000,
            den: 1001,
        };
        let plan = Timeline::plan(r, &[(5.0, "", 1.0); 100]);
        // 100 scenes of 5 s: each rounds to 150 frames, so the sum is exact.
        assert_eq!(plan.total_frames, 100 * 150);
        assert_eq!(plan.scenes[99].start, 99 * 150);
        assert_eq!(r.micros_of(30000), 1_001_000_000);
        assert_eq!(r.sample_of(1, 48000), 1601);
    }

    #[test]
    fn crossfade_is_centred_on_the_boundary() -> Result<(), String> {
        // ref-15s: three 5 s scenes with 1 s transitions at 4.5–5.5 s and 9.5–10.5 s.
        let plan = Timeline::plan(
            FrameRate::FPS_30,
            &[
                (5.0, "OVERLAY", 1.0),
                (5.0, "MOVE_LEFT", 1.0),
                (5.0, "", 1.0),
            ],
        );
        assert_eq!(plan.total_frames, 450);
        assert_eq!(plan.transitions.len(), 2);
        assert_eq!(
            (plan.transitions[0].start, plan.transitions[0].frames),
            (135, 30)
        );
        assert_eq!(
            plan.at(134),
            Some(FrameSource::Scene {
                scene: 0,
                local: 134
            })
        );
        match plan.at(150).ok_or("none")? {
            FrameSource::Transition {
                from: 0,
                progress,
                from_local,
                to_local,
                ..
            } => {
                assert_eq!((progress, from_local, to_local), (0.5, 149, 0));
            }
            other => return Err(format!("{other:?}")),
        }
        assert_eq!(
            plan.at(165),
            Some(FrameSource::Scene {
                scene: 1,
                local: 15
            })
        );
        assert_eq!(plan.at(450), None);
        Ok(())
    }

    #[test]
    fn transitions_never_exceed_a_neighbour() {
        let plan = Timeline::plan(FrameRate::FPS_25, &[(2.0, "OVERLAY", 9.0), (1.0, "", 1.0)]);
        assert_eq!(plan.transitions[0].frames, 25);
    }
}
