//! Music tracks made by a small additive synthesiser: a chord progression played as a pad, an
//! arpeggio and a bass line, with an optional kick and hi-hat, then normalised and written as
//! 16-bit mono WAV (a format uploads accept, probed like them).

use std::f32::consts::TAU;

use crate::paint::Dice;

/// Samples per second.
const RATE: u32 = 44_100;

/// A track: tempo, four chords (MIDI note numbers of a triad) played a bar each, round and round.
pub struct Tune {
    /// Beats per minute.
    pub bpm: f32,
    /// The progression, a bar each.
    pub chords: [[u8; 3]; 4],
    /// Kick and hi-hat under the harmony.
    pub drums: bool,
    /// Arpeggio notes a beat (2 eighths, 4 sixteenths).
    pub arp_per_beat: u32,
    /// Length in seconds.
    pub seconds: f32,
}

fn hz(midi: f32) -> f32 {
    440.0 * 2f32.powf((midi - 69.0) / 12.0)
}

/// How an instrument sounds: the amplitudes of its 1st, 2nd, … partials under an attack (s), a
/// hold and an exponential release of `decay` (s).
struct Voice {
    gain: f32,
    harmonics: &'static [f32],
    attack: f32,
    decay: f32,
}

const PAD: Voice = Voice {
    gain: 0.08,
    harmonics: &[1.0, 0.4, 0.2],
    attack: 0.25,
    decay: 0.4,
};
const BASS: Voice = Voice {
    gain: 0.22,
    harmonics: &[1.0, 0.35],
    attack: 0.01,
    decay: 0.2,
};
const PLUCK: Voice = Voice {
    gain: 0.1,
    harmonics: &[1.0, 0.5, 0.25, 0.12],
    attack: 0.004,
    decay: 0.15,
};

/// Adds a note of `voice` at `freq` to `buf`, from `start` (s) held for `len` (s).
fn note(buf: &mut [f32], voice: &Voice, start: f32, len: f32, freq: f32) {
    let Voice {
        gain,
        harmonics,
        attack,
        decay,
    } = *voice;
    let rate = RATE as f32;
    let from = (start * rate) as usize;
    let to = (((start + len + decay * 4.0) * rate) as usize).min(buf.len());
    let step = TAU * freq / rate;
    // The release falls by the same factor every sample.
    let fall = (-1.0 / (decay * rate)).exp();
    let mut tail = 1.0f32;
    for (n, s) in buf[from.min(to)..to].iter_mut().enumerate() {
        let t = n as f32 / rate;
        let env = if t < attack {
            t / attack
        } else if t < len {
            1.0
        } else {
            tail *= fall;
            tail
        };
        // sin(kx) for k = 1, 2, … by the recurrence sin((k+1)x) = 2cos(x)sin(kx) − sin((k−1)x):
        // two trigonometric calls a sample whatever the number of partials.
        let x = step * n as f32;
        let (s1, two_cos) = (x.sin(), 2.0 * x.cos());
        let (mut prev, mut cur, mut wave) = (0.0f32, s1, 0.0f32);
        for a in harmonics {
            wave += a * cur;
            (prev, cur) = (cur, two_cos * cur - prev);
        }
        *s += gain * env * wave;
    }
}

fn kick(buf: &mut [f32], start: f32) {
    let rate = RATE as f32;
    let from = (start * rate) as usize;
    let mut phase = 0.0f32;
    for (i, s) in buf
        .iter_mut()
        .enumerate()
        .skip(from)
        .take((0.3 * rate) as usize)
    {
        let t = (i - from) as f32 / rate;
        // The pitch falls from 120 Hz to 45 Hz, the thump of a bass drum.
        phase += TAU * (45.0 + 75.0 * (-t / 0.04).exp()) / rate;
        *s += 0.7 * (-t / 0.12).exp() * phase.sin();
    }
}

fn hat(buf: &mut [f32], start: f32, dice: &mut Dice) {
    let rate = RATE as f32;
    let from = (start * rate) as usize;
    let mut last = 0.0f32;
    for (i, s) in buf
        .iter_mut()
        .enumerate()
        .skip(from)
        .take((0.08 * rate) as usize)
    {
        let t = (i - from) as f32 / rate;
        let noise = dice.range(-1.0, 1.0);
        // A first difference lets the hiss through and keeps the rumble out.
        *s += 0.12 * (-t / 0.025).exp() * (noise - last);
        last = noise;
    }
}

/// Plays `tune` into samples in `-1..1`, peaking at −1 dBFS, faded in and out.
pub fn render(tune: &Tune, seed: u64) -> Vec<f32> {
    let total = (tune.seconds * RATE as f32) as usize;
    let mut buf = vec![0f32; total];
    let beat = 60.0 / tune.bpm;
    let bar = beat * 4.0;
    let mut dice = Dice::new(seed);
    let bars = (tune.seconds / bar).ceil() as usize;
    for b in 0..bars {
        let chord = tune.chords[b % 4];
        let at = b as f32 * bar;
        for n in chord {
            note(&mut buf, &PAD, at, bar, hz(f32::from(n)));
        }
        let root = f32::from(chord[0]) - 12.0;
        for q in 0..2 {
            note(
                &mut buf,
                &BASS,
                at + q as f32 * beat * 2.0,
                beat * 1.6,
                hz(root),
            );
        }
        let step = beat / tune.arp_per_beat as f32;
        let cycle = [
            chord[0],
            chord[1],
            chord[2],
            chord[0] + 12,
            chord[2],
            chord[1],
        ];
        for k in 0..(4 * tune.arp_per_beat) as usize {
            let n = f32::from(cycle[k % cycle.len()]) + 12.0;
            note(&mut buf, &PLUCK, at + k as f32 * step, step * 0.5, hz(n));
        }
        if tune.drums {
            for q in 0..4 {
                if q % 2 == 0 {
                    kick(&mut buf, at + q as f32 * beat);
                }
                hat(&mut buf, at + q as f32 * beat + beat / 2.0, &mut dice);
            }
        }
    }
    let peak = buf.iter().fold(0f32, |m, v| m.max(v.abs())).max(1e-6);
    let gain = 10f32.powf(-1.0 / 20.0) / peak;
    let (fade_in, fade_out) = ((0.05 * RATE as f32) as usize, (1.5 * RATE as f32) as usize);
    for (i, s) in buf.iter_mut().enumerate() {
        let edge = (i as f32 / fade_in as f32)
            .min((total - i) as f32 / fade_out as f32)
            .min(1.0);
        *s *= gain * edge;
    }
    buf
}

/// 16-bit PCM mono WAV bytes of `samples` at the synthesiser's rate.
pub fn wav(samples: &[f32]) -> Vec<u8> {
    let data = (samples.len() * 2) as u32;
    let mut out = Vec::with_capacity(44 + data as usize);
    out.extend_from_slice(b"RIFF");
    out.extend_from_slice(&(36 + data).to_le_bytes());
    out.extend_from_slice(b"WAVEfmt ");
    out.extend_from_slice(&16u32.to_le_bytes());
    out.extend_from_slice(&1u16.to_le_bytes()); // PCM
    out.extend_from_slice(&1u16.to_le_bytes()); // mono
    out.extend_from_slice(&RATE.to_le_bytes());
    out.extend_from_slice(&(RATE * 2).to_le_bytes());
    out.extend_from_slice(&2u16.to_le_bytes());
    out.extend_from_slice(&16u16.to_le_bytes());
    out.extend_from_slice(b"data");
    out.extend_from_slice(&data.to_le_bytes());
    for s in samples {
        out.extend_from_slice(&((s.clamp(-1.0, 1.0) * 32767.0) as i16).to_le_bytes());
    }
    out
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_track_peaks_at_minus_one_db_and_fades_out() {
        let tune = Tune {
            bpm: 120.0,
            chords: [[60, 64, 67]; 4],
            drums: true,
            arp_per_beat: 2,
            seconds: 3.0,
        };
        let s = render(&tune, 1);
        assert_eq!(s.len(), 3 * RATE as usize);
        let peak = s.iter().fold(0f32, |m, v| m.max(v.abs()));
        assert!((peak - 0.891).abs() < 0.01, "{peak}");
        assert!(s[s.len() - 1].abs() < 1e-4, "the last sample is faded out");
        let bytes = wav(&s);
        assert_eq!(
            (&bytes[0..4], &bytes[8..12], bytes.len()),
            (&b"RIFF"[..], &b"WAVE"[..], 44 + s.len() * 2)
        );
    }
}
