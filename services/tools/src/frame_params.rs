//! The parameters of VIDEO_KEY_FRAMES (the page `ai-frame-cut`, docs/toolbox.md): one picture per
//! detected scene, or one every so often; each refusal names its field.

use serde_json::{Map, Value};

use crate::error::ParamError;
use crate::params::{MAX_SPLITS, SceneDetect, scene_detect_of};
use crate::probe::Facts;

/// VIDEO_KEY_FRAMES: which frames of a video become pictures.
#[derive(Debug, Clone, Copy, PartialEq, Eq)]
pub enum KeyFrames {
    /// One picture per detected scene: its sharpest frame, the middle preferred.
    Scenes(SceneDetect),
    /// The frame at 0, `every_ms`, 2 × `every_ms`, … up to the end.
    Interval {
        /// The time between two pictures, milliseconds.
        every_ms: u64,
    },
}

/// The time between two pictures of an interval, milliseconds: least and most.
pub const EVERY_MS: (u64, u64) = (500, 600_000);
/// Most pictures one run makes (as many as a split's clips).
pub const MAX_PICTURES: usize = MAX_SPLITS + 1;

impl KeyFrames {
    /// Validates `{mode: "scenes", sensitivity?, minSceneMs?}` or `{mode: "interval", everyMs}`.
    pub fn parse(value: &Value) -> Result<Self, ParamError> {
        let map = value.as_object().ok_or_else(|| ParamError::new("params", "must be an object"))?;
        let mode = map.get("mode").and_then(Value::as_str).unwrap_or_default();
        let known: &[&str] = match mode {
            "scenes" => &["mode", "sensitivity", "minSceneMs"],
            "interval" => &["mode", "everyMs"],
            _ => return Err(ParamError::new("params.mode", "must be one of scenes, interval")),
        };
        if let Some(k) = map.keys().find(|k| !known.contains(&k.as_str())) {
            return Err(ParamError::new(format!("params.{k}"), format!("unknown parameter for mode {mode}; expected one of {}", known.join(", "))));
        }
        if mode == "scenes" {
            return Ok(Self::Scenes(scene_detect_of(value)?));
        }
        Ok(Self::Interval { every_ms: every_ms(map)? })
    }

    /// The parameters as the contract writes them.
    pub fn to_json(&self) -> Value {
        match self {
            Self::Scenes(d) => serde_json::json!({"mode": "scenes", "sensitivity": d.sensitivity, "minSceneMs": d.min_scene_ms}),
            Self::Interval { every_ms } => serde_json::json!({"mode": "interval", "everyMs": every_ms}),
        }
    }

    /// The times of an interval's pictures in a clip of `duration_ms`, each with the stretch it stands for.
    pub fn interval_times(every_ms: u64, duration_ms: u64) -> Vec<(u64, u64)> {
        let every = every_ms.max(1);
        (0..duration_ms.div_ceil(every)).map(|k| (k * every, ((k + 1) * every).min(duration_ms))).collect()
    }

    /// Checks the parameters against the clip: an interval may not make more than
    /// [`MAX_PICTURES`] pictures, a scene no shorter than the clip.
    pub fn check_input(&self, input: &Facts) -> Result<(), ParamError> {
        match self {
            Self::Interval { every_ms } => {
                let n = Self::interval_times(*every_ms, input.duration_ms).len();
                if n > MAX_PICTURES {
                    let least = input.duration_ms.div_ceil(MAX_PICTURES as u64);
                    let why = format!("{n} pictures of a {} ms clip, more than {MAX_PICTURES}: at least {least} ms", input.duration_ms);
                    return Err(ParamError::new("params.everyMs", why));
                }
                Ok(())
            }
            Self::Scenes(_) => Ok(()),
        }
    }
}

fn every_ms(map: &Map<String, Value>) -> Result<u64, ParamError> {
    let n = map
        .get("everyMs")
        .filter(|v| !v.is_null())
        .ok_or_else(|| ParamError::new("params.everyMs", "is required"))?
        .as_u64()
        .ok_or_else(|| ParamError::new("params.everyMs", "must be a whole number of ms"))?;
    if !(EVERY_MS.0..=EVERY_MS.1).contains(&n) {
        return Err(ParamError::new("params.everyMs", format!("must be between {} and {}", EVERY_MS.0, EVERY_MS.1)));
    }
    Ok(n)
}

#[cfg(test)]
mod tests {
    use super::*;
    use serde_json::json;

    fn field(v: Value) -> String {
        KeyFrames::parse(&v).err().map(|e| e.field).unwrap_or_default()
    }

    #[test]
    fn refusals_name_their_field_and_the_json_round_trips() -> Result<(), ParamError> {
        assert_eq!(field(json!({})), "params.mode");
        assert_eq!(field(json!({"mode": "shots"})), "params.mode");
        assert_eq!(field(json!({"mode": "interval"})), "params.everyMs");
        assert_eq!(field(json!({"mode": "interval", "everyMs": 100})), "params.everyMs");
        assert_eq!(field(json!({"mode": "interval", "everyMs": 1000, "sensitivity": 50})), "params.sensitivity");
        assert_eq!(field(json!({"mode": "scenes", "everyMs": 1000})), "params.everyMs");
        assert_eq!(field(json!({"mode": "scenes", "sensitivity": 100})), "params.sensitivity");
        assert_eq!(field(json!({"mode": "scenes", "minSceneMs": 50})), "params.minSceneMs");
        for v in [json!({"mode": "scenes", "sensitivity": 70, "minSceneMs": 500}), json!({"mode": "interval", "everyMs": 2000})] {
            assert_eq!(KeyFrames::parse(&v)?.to_json(), v);
        }
        assert_eq!(KeyFrames::parse(&json!({"mode": "scenes"}))?, KeyFrames::Scenes(SceneDetect { sensitivity: 60, min_scene_ms: 1000 }));
        Ok(())
    }

    #[test]
    fn an_interval_covers_the_clip_and_is_bounded() -> Result<(), ParamError> {
        assert_eq!(KeyFrames::interval_times(1000, 2500), [(0, 1000), (1000, 2000), (2000, 2500)]);
        assert_eq!(KeyFrames::interval_times(1000, 2000), [(0, 1000), (1000, 2000)]);
        let clip = Facts { duration_ms: 60_000, bytes: 1000, audio: false, video: Some((320, 180, 25.0)), orientation: Default::default(), coding: Default::default() };
        assert!(KeyFrames::Interval { every_ms: 600 }.check_input(&clip).is_ok());
        let err = KeyFrames::Interval { every_ms: 500 }.check_input(&clip).err();
        assert!(err.is_some_and(|e| e.field == "params.everyMs" && e.message.contains("at least 600 ms")));
        Ok(())
    }
}
