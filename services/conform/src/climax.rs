//! The music's climax: where the strongest section of a given length starts, by short-term energy
//! and onset strength, so a ringtone cut of a long song keeps its chorus rather than its intro.

/// The analysis hop, seconds: fine enough to place a cut, coarse enough to be cheap.
const HOP_S: f64 = 0.05;
/// How much onsets (sudden rises in energy) weigh beside steady energy: a chorus that enters
/// beats a long plateau of the same loudness.
const ONSET_WEIGHT: f64 = 0.5;
/// The largest rise an onset counts, as a natural log of energy (30 dB): an entry out of digital
/// silence would otherwise outweigh any amount of music.
const MAX_RISE: f64 = 6.9;

/// Returns the start, in seconds, of the strongest `seconds`-long section of interleaved
/// `samples` (`rate` Hz, `channels` channels); 0 when the sound is no longer than the section.
pub fn climax(samples: &[f32], rate: u32, channels: u32, seconds: f64) -> f64 {
    let energy = block_energy(samples, rate, channels);
    let window = (seconds / HOP_S).round().max(1.0) as usize;
    if energy.len() <= window {
        return 0.0;
    }
    let mean = energy.iter().sum::<f64>() / energy.len() as f64;
    if mean <= 0.0 {
        return 0.0;
    }
    // Onset strength: the rise of the log energy from one block to the next, in units of the
    // track's mean energy so it adds to energy on the same scale.
    let score: Vec<f64> = energy
        .iter()
        .enumerate()
        .map(|(i, &e)| {
            let prev = if i == 0 { e } else { energy[i - 1] };
            let rise = ((e + 1e-12).ln() - (prev + 1e-12).ln()).clamp(0.0, MAX_RISE);
            e + ONSET_WEIGHT * mean * rise
        })
        .collect();
    let mut sum: f64 = score[..window].iter().sum();
    let (mut best, mut best_sum) = (0usize, sum);
    for start in 1..=score.len() - window {
        sum += score[start + window - 1] - score[start - 1];
        if sum > best_sum {
            (best, best_sum) = (start, sum);
        }
    }
    best as f64 * HOP_S
}

/// Returns the mean square of each hop of the channels' mix.
fn block_energy(samples: &[f32], rate: u32, channels: u32) -> Vec<f64> {
    let channels = channels.max(1) as usize;
    let hop = ((f64::from(rate) * HOP_S).round() as usize).max(1) * channels;
    samples
        .chunks(hop)
        .map(|block| {
            let frames = block.chunks_exact(channels);
            let n = frames.len().max(1) as f64;
            frames
                .map(|f| {
                    let mix = f.iter().map(|&s| f64::from(s)).sum::<f64>() / channels as f64;
                    mix * mix
                })
                .sum::<f64>()
                / n
        })
        .collect()
}
