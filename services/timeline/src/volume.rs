//! The volume slider (0–200) and decibels, in 32 steps, and the measured-loudness rules.
//!
//! The slider is quantised to 32 steps of 6.25; step k gives an amplitude of k/16, so slider
//! 100 is unity (0 dB), the default 50 is −6.02 dB, 200 is +6.02 dB and 0 is silence.

use thiserror::Error;

/// Slider maximum.
pub const SLIDER_MAX: f64 = 200.0;
/// Number of steps across the slider.
pub const STEPS: u32 = 32;
/// Slider units per step.
pub const STEP_SIZE: f64 = SLIDER_MAX / STEPS as f64;
/// The step of unity gain.
pub const UNITY_STEP: u32 = 16;
/// Default slider value of a new item.
pub const DEFAULT_SLIDER: f64 = 50.0;
/// Default measured loudness of a source, dB.
pub const ORIGINAL_DB: f64 = -30.0;
/// Loudness used when measuring fails, dB.
pub const FALLBACK_DB: f64 = -20.0;
/// Measured loudness below this is an error, dB.
pub const MIN_DB: f64 = -96.0;

/// A measured loudness that cannot be right.
#[derive(Debug, Clone, Copy, PartialEq, Error)]
pub enum VolumeError {
    /// Below −96 dB (or not a number).
    #[error("volume {0} dB is below the minimum of -96 dB")]
    BelowMinimum(f64),
}

/// Returns the step (0..=32) of a slider value, rounding half up; out-of-range values clamp.
pub fn slider_step(slider: f64) -> u32 {
    if slider.is_nan() {
        return 0;
    }
    // Clamped to 0..=32 before the cast, so it cannot overflow.
    (slider.clamp(0.0, SLIDER_MAX) / STEP_SIZE + 0.5).floor() as u32
}

/// Returns the amplitude factor of a slider value: step/16 (0 is silence).
pub fn slider_to_gain(slider: f64) -> f64 {
    f64::from(slider_step(slider)) / f64::from(UNITY_STEP)
}

/// Returns the gain in dB of a slider value; silence is `f64::NEG_INFINITY`.
pub fn slider_to_db(slider: f64) -> f64 {
    gain_to_db(slider_to_gain(slider))
}

/// Returns the slider value (a multiple of 6.25) nearest to a gain in dB.
pub fn db_to_slider(db: f64) -> f64 {
    if db.is_nan() || db == f64::NEG_INFINITY {
        return 0.0;
    }
    let k = (db_to_gain(db) * f64::from(UNITY_STEP) + 0.5)
        .floor()
        .clamp(0.0, f64::from(STEPS));
    k * STEP_SIZE
}

/// Returns the amplitude factor of a gain in dB: 10^(dB/20).
pub fn db_to_gain(db: f64) -> f64 {
    10f64.powf(db / 20.0)
}

/// Returns the gain in dB of an amplitude factor: 20·log10(gain); 0 gives −∞.
pub fn gain_to_db(gain: f64) -> f64 {
    if gain <= 0.0 {
        f64::NEG_INFINITY
    } else {
        20.0 * gain.log10()
    }
}

/// Checks a loudness fetched for a material: below −96 dB (or NaN) is an error (spec §5).
pub fn check_measured_db(db: f64) -> Result<f64, VolumeError> {
    if db.is_nan() || db < MIN_DB {
        Err(VolumeError::BelowMinimum(db))
    } else {
        Ok(db)
    }
}

/// Returns a fetched loudness, or −20 dB when fetching failed or gave an error value.
pub fn measured_db_or_fallback(db: Option<f64>) -> f64 {
    db.and_then(|v| check_measured_db(v).ok())
        .unwrap_or(FALLBACK_DB)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn default_and_unity() {
        assert_eq!(slider_step(DEFAULT_SLIDER), 8);
        assert!((slider_to_db(100.0)).abs() < 1e-12);
        assert!((slider_to_db(50.0) + 6.0206).abs() < 1e-4);
        assert_eq!(slider_to_db(0.0), f64::NEG_INFINITY);
        assert_eq!(db_to_slider(0.0), 100.0);
        assert_eq!(db_to_slider(f64::NEG_INFINITY), 0.0);
        assert_eq!(db_to_slider(40.0), 200.0);
    }

    #[test]
    fn every_step_round_trips() {
        for k in 0..=STEPS {
            let s = f64::from(k) * STEP_SIZE;
            assert_eq!(db_to_slider(slider_to_db(s)), s);
        }
    }

    #[test]
    fn measured_loudness() {
        assert_eq!(
            check_measured_db(-96.5),
            Err(VolumeError::BelowMinimum(-96.5))
        );
        assert_eq!(check_measured_db(-96.0), Ok(-96.0));
        assert_eq!(measured_db_or_fallback(Some(-120.0)), FALLBACK_DB);
        assert_eq!(measured_db_or_fallback(None), FALLBACK_DB);
        assert_eq!(measured_db_or_fallback(Some(-12.0)), -12.0);
    }
}
