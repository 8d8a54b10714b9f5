//! The audio mixer: interleaved stereo f32 at 48 kHz, sample exact. Items are placed at whole
//! sample positions computed once from the document's seconds, looped, gained and faded.

use crate::decode::{CHANNELS, SAMPLE_RATE};

/// How one source is laid into the mix.
#[derive(Debug, Clone, PartialEq)]
pub struct Placement {
    /// First output sample (per channel) the item plays at.
    pub at: i64,
    /// Number of output samples (per channel) it plays for.
    pub len: i64,
    /// Repeat the source to fill `len`.
    pub looped: bool,
    /// Amplitude factor.
    pub gain: f32,
    /// Fade-in length in samples.
    pub fade_in: i64,
    /// Fade-out length in samples.
    pub fade_out: i64,
}

/// Returns a duration in seconds as a whole number of samples (rounded to nearest).
pub fn samples_for(seconds: f64) -> i64 {
    if seconds.is_finite() {
        (seconds * f64::from(SAMPLE_RATE)).round() as i64
    } else {
        0
    }
}

/// A mix buffer covering `[0, len)` samples of the output.
#[derive(Debug, Clone)]
pub struct Mixer {
    buf: Vec<f32>,
}

fn ramp(i: i64, len: i64, fade_in: i64, fade_out: i64) -> f32 {
    let mut g = 1.0f32;
    if fade_in > 0 && i < fade_in {
        g *= i as f32 / fade_in as f32;
    }
    if fade_out > 0 && i >= len - fade_out {
        g *= (len - i) as f32 / fade_out as f32;
    }
    g
}

impl Mixer {
    /// Returns a silent mix of `samples` samples per channel.
    pub fn new(samples: i64) -> Self {
        Mixer {
            buf: vec![0.0; samples.max(0) as usize * CHANNELS],
        }
    }

    /// Returns the samples per channel.
    pub fn len(&self) -> i64 {
        (self.buf.len() / CHANNELS) as i64
    }

    /// Returns whether the mix holds no samples.
    pub fn is_empty(&self) -> bool {
        self.buf.is_empty()
    }

    /// Adds `src` (interleaved stereo) as `p` says; parts outside the mix are skipped.
    pub fn add(&mut self, src: &[f32], p: &Placement) {
        let n = (src.len() / CHANNELS) as i64;
        if n == 0 || p.len <= 0 || p.gain == 0.0 {
            return;
        }
        let total = self.len();
        let first = p.at.max(0) - p.at;
        let last = p.len.min(total - p.at);
        for i in first..last {
            let s = if p.looped {
                i % n
            } else if i < n {
                i
            } else {
                break;
            };
            let g = p.gain * ramp(i, p.len, p.fade_in, p.fade_out);
            let (o, si) = ((p.at + i) as usize * CHANNELS, s as usize * CHANNELS);
            for c in 0..CHANNELS {
                self.buf[o + c] += src[si + c] * g;
            }
        }
    }

    /// Fades the whole mix in over `fade_in` and out over `fade_out` samples.
    pub fn fade(&mut self, fade_in: i64, fade_out: i64) {
        let len = self.len();
        for i in 0..len {
            let g = ramp(i, len, fade_in, fade_out);
            if g != 1.0 {
                for c in 0..CHANNELS {
                    self.buf[i as usize * CHANNELS + c] *= g;
                }
            }
        }
    }

    /// Returns samples `[from, to)` per channel, clamped to ±1 so the encoder never clips wildly.
    pub fn slice(&self, from: i64, to: i64) -> Vec<f32> {
        let (a, b) = (from.clamp(0, self.len()), to.clamp(0, self.len()));
        self.buf[a as usize * CHANNELS..b.max(a) as usize * CHANNELS]
            .iter()
            .map(|s| s.clamp(-1.0, 1.0))
            .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn places_loops_and_fades() {
        let mut m = Mixer::new(10);
        let src = vec![1.0f32; 3 * CHANNELS];
        m.add(
            &src,
            &Placement {
                at: 2,
                len: 7,
                looped: true,
                gain: 0.5,
                fade_in: 0,
                fade_out: 0,
            },
        );
        let s = m.slice(0, 10);
        assert_eq!(s[0], 0.0);
        assert_eq!(s[2 * CHANNELS], 0.5);
        assert_eq!(s[8 * CHANNELS], 0.5);
        assert_eq!(s[9 * CHANNELS], 0.0);
        m.fade(10, 0);
        assert!(m.slice(0, 10)[2 * CHANNELS] < 0.5);
    }

    #[test]
    fn unlooped_stops_at_source_end() {
        let mut m = Mixer::new(10);
        m.add(
            &[1.0f32; 2 * CHANNELS],
            &Placement {
                at: -1,
                len: 10,
                looped: false,
                gain: 1.0,
                fade_in: 0,
                fade_out: 0,
            },
        );
        let s = m.slice(0, 10);
        assert_eq!(s[0], 1.0);
        assert_eq!(s[CHANNELS], 0.0);
    }
}
