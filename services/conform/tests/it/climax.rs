//! The climax finder on synthetic sound: quiet, a loud section, quiet again.

use reelforge_conform::climax;

/// Returns `seconds` of a 440 Hz sine at `amplitude`, stereo at `rate`, interleaved.
fn tone(rate: u32, seconds: f64, amplitude: f32) -> Vec<f32> {
    let frames = (f64::from(rate) * seconds) as usize;
    (0..frames)
        .flat_map(|i| {
            let s = amplitude * (2.0 * std::f32::consts::PI * 440.0 * i as f32 / rate as f32).sin();
            [s, s]
        })
        .collect()
}

#[test]
fn the_loud_section_is_found() {
    let rate = 8000;
    let mut song = tone(rate, 10.0, 0.05);
    song.extend(tone(rate, 8.0, 0.8));
    song.extend(tone(rate, 12.0, 0.05));
    let start = climax(&song, rate, 2, 8.0);
    assert!((start - 10.0).abs() <= 0.1, "start {start}");
    // A shorter cut lies inside the loud section.
    let start = climax(&song, rate, 2, 4.0);
    assert!((10.0 - 0.1..=14.0 + 0.1).contains(&start), "start {start}");
}

#[test]
fn an_onset_beats_a_plateau_of_the_same_energy() {
    // A steady loud start, then silence, then the same loudness entering again: both windows
    // hold the same energy, the second has the entry.
    let rate = 8000;
    let mut song = tone(rate, 5.0, 0.5);
    song.extend(tone(rate, 5.0, 0.0));
    song.extend(tone(rate, 5.0, 0.5));
    let start = climax(&song, rate, 2, 5.0);
    assert!((start - 10.0).abs() <= 0.1, "start {start}");
}

#[test]
fn short_or_silent_sound_starts_at_zero() {
    assert_eq!(climax(&[], 48_000, 2, 10.0), 0.0);
    assert_eq!(climax(&tone(8000, 5.0, 0.5), 8000, 2, 10.0), 0.0);
    assert_eq!(climax(&tone(8000, 20.0, 0.0), 8000, 2, 5.0), 0.0);
    assert_eq!(climax(&[0.1; 7], 0, 0, 1.0), 0.0);
}
