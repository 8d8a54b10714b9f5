//! `mix`: placing, looping, fading and ducking; loudness normalisation.

use reelforge_render::decode::{CHANNELS, SAMPLE_RATE};
use reelforge_render::mix::{Ducking, Mixer, PEAK_CEILING_DB, Placement};

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
fn ducking_ramps_down_before_a_voice_and_back_after() {
    let d = Ducking::new([(100, 200), (40_000, 40_010)], 10, 20);
    assert_eq!(d.amount(0), 0.0);
    assert_eq!(d.amount(90), 0.0);
    assert!(
        (d.amount(95) - 0.5).abs() < 1e-6,
        "half-way down the attack"
    );
    assert_eq!(d.amount(100), 1.0);
    assert_eq!(d.amount(199), 1.0);
    assert!(
        (d.amount(210) - 0.5).abs() < 1e-6,
        "half-way up the release"
    );
    assert_eq!(d.amount(220), 0.0);
    assert_eq!(d.amount(40_005), 1.0);
    // Voices closer than attack + release are one span: the music stays down between them.
    let d = Ducking::new([(300, 400), (100, 200), (220, 250)], 10, 20);
    assert_eq!(d.amount(210), 1.0);
    assert_eq!(
        d.amount(260),
        0.5,
        "a gap longer than both ramps lets the music up"
    );
    assert_eq!(d.spans(), vec![(100, 250), (300, 400)]);
}

#[test]
fn ducked_music_is_lowered_only_where_the_voice_plays() {
    let mut m = Mixer::new(1000);
    let music = vec![0.5f32; 1000 * CHANNELS];
    let p = Placement {
        at: 0,
        len: 1000,
        looped: false,
        gain: 1.0,
        fade_in: 0,
        fade_out: 0,
    };
    m.add_ducked(&music, &p, &Ducking::new([(400, 600)], 0, 0), 0.25);
    let s = m.slice(0, 1000);
    assert_eq!(s[100 * CHANNELS], 0.5);
    assert_eq!(s[500 * CHANNELS], 0.125);
    assert_eq!(s[700 * CHANNELS], 0.5);
}

fn sine(seconds: f64, amplitude: f32) -> Vec<f32> {
    let n = (seconds * f64::from(SAMPLE_RATE)) as usize;
    (0..n)
        .flat_map(|i| {
            let v = amplitude
                * (2.0 * std::f32::consts::PI * 1000.0 * i as f32 / SAMPLE_RATE as f32).sin();
            [v; CHANNELS]
        })
        .collect()
}

#[test]
fn normalise_brings_the_mix_to_its_target() -> Result<(), &'static str> {
    // EBU Tech 3341 case 1: a stereo 1 kHz sine at −23 dBFS measures −23.0 LUFS.
    let mut m = Mixer::from_samples(&sine(20.0, 10f32.powf(-23.0 / 20.0)));
    let before = m.clone().normalise(None).ok_or("not measured")?;
    assert!((before - (-23.0)).abs() < 0.1, "{before}");
    let after = m.normalise(Some(-16.0)).ok_or("not measured")?;
    assert!((after - (-16.0)).abs() < 1e-9, "{after}");
    let remeasured = Mixer::from_samples(&m.slice(0, m.len()))
        .normalise(None)
        .ok_or("not measured")?;
    assert!(
        (remeasured - (-16.0)).abs() < 0.1,
        "the gained mix measures the target: {remeasured}"
    );
    Ok(())
}

#[test]
fn normalise_never_lifts_peaks_past_the_ceiling_and_leaves_silence() -> Result<(), &'static str>
{
    // A loud click in quiet: reaching −16 LUFS would clip it, so the gain stops at −1 dBFS.
    let mut pcm = sine(5.0, 0.01);
    pcm[1000 * CHANNELS] = 0.9;
    let mut m = Mixer::from_samples(&pcm);
    let after = m.normalise(Some(-16.0)).ok_or("not measured")?;
    assert!(after < -16.0, "{after}");
    let peak = m
        .slice(0, m.len())
        .iter()
        .fold(0.0f32, |a, s| a.max(s.abs()));
    assert!(
        (f64::from(peak) - 10f64.powf(PEAK_CEILING_DB / 20.0)).abs() < 1e-3,
        "{peak}"
    );
    assert_eq!(Mixer::new(48_000).normalise(Some(-16.0)), None);
    Ok(())
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
