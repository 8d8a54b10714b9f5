//! The audio mixer: interleaved stereo f32 at 48 kHz, sample exact. Items are placed at whole
//! sample positions computed once from the document's seconds, looped, gained, faded and ducked
//! under voices; the whole mix is then measured (EBU R128) and brought to the loudness target.

use crate::decode::{CHANNELS, SAMPLE_RATE};
use ebur128::{EbuR128, Mode};

/// The highest sample a loudness gain may raise the mix to, dBFS: a quiet mix with loud peaks
/// ends below its target rather than clipping.
pub const PEAK_CEILING_DB: f64 = -1.0;

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

/// Where music ducks: the spans (output samples per channel) in which a voice plays, merged, with
/// the ramp down before each (attack) and back up after it (release).
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Ducking {
    spans: Vec<(i64, i64)>,
    attack: i64,
    release: i64,
}

impl Ducking {
    /// The ducking of voices playing over `spans` (`[start, end)` each, in any order); spans closer
    /// than `attack + release` are one span, so the music does not bob up between sentences.
    pub fn new(spans: impl IntoIterator<Item = (i64, i64)>, attack: i64, release: i64) -> Self {
        let mut sorted: Vec<(i64, i64)> = spans.into_iter().filter(|(a, b)| b > a).collect();
        sorted.sort_unstable();
        let mut merged: Vec<(i64, i64)> = Vec::with_capacity(sorted.len());
        for (a, b) in sorted {
            match merged.last_mut() {
                Some(last) if a <= last.1 + attack + release => last.1 = last.1.max(b),
                _ => merged.push((a, b)),
            }
        }
        Self {
            spans: merged,
            attack: attack.max(0),
            release: release.max(0),
        }
    }

    /// Whether no voice plays.
    pub fn is_empty(&self) -> bool {
        self.spans.is_empty()
    }

    /// Returns the merged spans the music is down in (`[start, end)` each, in order).
    pub fn spans(&self) -> &[(i64, i64)] {
        &self.spans
    }

    /// How far down music is at output sample `t`: 0 (not at all) to 1 (the full depth), linear
    /// over the attack and the release.
    pub fn amount(&self, t: i64) -> f32 {
        let next = self.spans.partition_point(|&(a, _)| a <= t);
        let mut d = 0.0f32;
        if let Some(&(_, end)) = next.checked_sub(1).and_then(|i| self.spans.get(i)) {
            if t < end {
                return 1.0;
            }
            if t < end + self.release {
                d = 1.0 - (t - end) as f32 / self.release as f32;
            }
        }
        if let Some(&(start, _)) = self.spans.get(next)
            && t >= start - self.attack
        {
            d = d.max(1.0 - (start - t) as f32 / self.attack as f32);
        }
        d
    }
}

/// A mix buffer covering `[0, len)` samples of the output.
#[derive(Debug, Clone)]
pub struct Mixer {
    buf: Vec<f32>,
    loudness: Option<f64>,
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
            loudness: None,
        }
    }

    /// Returns a mix holding exactly `pcm` (interleaved samples), to measure or slice it.
    pub fn from_samples(pcm: &[f32]) -> Self {
        Mixer {
            buf: pcm[..pcm.len() / CHANNELS * CHANNELS].to_vec(),
            loudness: None,
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
        self.add_with(src, p, |_| 1.0);
    }

    /// Adds `src` as [`Mixer::add`] does, lowered to `floor` (a gain, 0..1) where `ducking` says a
    /// voice plays.
    pub fn add_ducked(&mut self, src: &[f32], p: &Placement, ducking: &Ducking, floor: f32) {
        if ducking.is_empty() || floor >= 1.0 {
            return self.add(src, p);
        }
        self.add_with(src, p, |t| 1.0 - ducking.amount(t) * (1.0 - floor));
    }

    fn add_with(&mut self, src: &[f32], p: &Placement, duck: impl Fn(i64) -> f32) {
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
            let g = p.gain * ramp(i, p.len, p.fade_in, p.fade_out) * duck(p.at + i);
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

    /// Measures the mix's integrated loudness (EBU R128, LUFS) and, when `target` is given, gains the
    /// whole mix to it (never past [`PEAK_CEILING_DB`]); returns the loudness the mix now has, or
    /// None for silence (which has none). The figure is kept for the render's report.
    pub fn normalise(&mut self, target: Option<f64>) -> Option<f64> {
        let mut meter =
            EbuR128::new(CHANNELS as u32, SAMPLE_RATE, Mode::I | Mode::SAMPLE_PEAK).ok()?;
        meter.add_frames_f32(&self.buf).ok()?;
        let measured = meter.loudness_global().ok().filter(|l| l.is_finite())?;
        let Some(target) = target else {
            self.loudness = Some(measured);
            return self.loudness;
        };
        let peak = (0..CHANNELS as u32)
            .filter_map(|c| meter.sample_peak(c).ok())
            .fold(0.0f64, f64::max);
        let mut gain_db = target - measured;
        if peak > 0.0 {
            gain_db = gain_db.min(PEAK_CEILING_DB - 20.0 * peak.log10());
        }
        let g = 10f64.powf(gain_db / 20.0) as f32;
        self.buf.iter_mut().for_each(|s| *s *= g);
        // A gain moves integrated loudness by exactly its dB: the gates scale with the signal.
        self.loudness = Some(measured + gain_db);
        self.loudness
    }

    /// The loudness [`Mixer::normalise`] measured or gave the mix, LUFS.
    pub fn loudness(&self) -> Option<f64> {
        self.loudness
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
