//! Real MP4s made by GStreamer, measured and checked: one that conforms, then one breaking each
//! rule in turn.

use crate::R;
use crate::media::{Clip, dir, profile};
use reelforge_conform::{Rule, check, measure};

/// Returns the rules the clip breaks against the test profile (with `edit` applied to it).
fn broken(
    clip: &Clip,
    edit: impl FnOnce(&mut reelforge_kit::config::DeliveryProfile),
) -> Result<Vec<Rule>, Box<dyn std::error::Error>> {
    let d = dir()?;
    let path = clip.make(d.path(), "clip.mp4")?;
    let mut p = profile();
    edit(&mut p);
    let report = check(&p, &measure(&path)?);
    assert_eq!(report.conforms, report.violations.is_empty());
    Ok(report.violations.iter().map(|v| v.rule).collect())
}

#[test]
fn a_clip_made_to_the_profile_conforms_and_measures_right() -> R {
    let d = dir()?;
    let path = Clip::default().make(d.path(), "good.mp4")?;
    let m = measure(&path)?;
    let report = check(&profile(), &m);
    assert!(report.conforms, "{:#?}", report.violations);
    assert!(report.violations.is_empty());
    assert_eq!(m.container, "mp4");
    assert_eq!(m.video_codec.as_deref(), Some("h264"));
    assert_eq!(m.audio_codec.as_deref(), Some("aac"));
    assert_eq!((m.width, m.height), (180, 320));
    assert!((m.fps - 25.0).abs() < 0.01, "fps {}", m.fps);
    assert!((m.seconds - 2.0).abs() < 0.1, "seconds {}", m.seconds);
    let lufs = m.loudness_lufs.ok_or("no loudness")?;
    assert!((lufs + 16.0).abs() <= 0.5, "loudness {lufs}");
    let peak = m.true_peak_dbtp.ok_or("no true peak")?;
    assert!((peak + 16.0).abs() <= 1.0, "true peak {peak}");
    assert!(m.h264_level.is_some() && m.h264_profile.is_some());
    let on_disk = std::fs::metadata(&path)?.len();
    assert_eq!(m.file_bytes, on_disk);
    // The video stream's bytes over its duration: less than the whole file's rate, more than none.
    assert!(
        m.video_kbps > 0 && f64::from(m.video_kbps) < on_disk as f64 * 8.0 / 1000.0 / 2.0 + 1.0
    );
    // The report serialises as docs/ringtone.md writes it.
    let json = serde_json::to_value(&report)?;
    for key in ["conforms", "measured", "violations", "seam"] {
        assert!(json.get(key).is_some(), "{key} missing");
    }
    for key in [
        "videoCodec",
        "h264Profile",
        "h264Level",
        "videoKbps",
        "loudnessLufs",
        "truePeakDbtp",
        "fileBytes",
    ] {
        assert!(
            json["measured"].get(key).is_some(),
            "measured.{key} missing"
        );
    }
    assert!(json["measured"].get("seam").is_none());
    assert!(json["seam"]["pictureJump"].is_number() && json["seam"]["soundJumpDb"].is_number());
    Ok(())
}

#[test]
fn too_long_breaks_duration() -> R {
    let rules = broken(
        &Clip {
            seconds: 4.0,
            ..Clip::default()
        },
        |_| (),
    )?;
    assert_eq!(rules, [Rule::Duration]);
    Ok(())
}

#[test]
fn too_loud_breaks_loudness_and_true_peak() -> R {
    let rules = broken(
        &Clip {
            amplitude: Some(1.0),
            ..Clip::default()
        },
        |_| (),
    )?;
    assert_eq!(rules, [Rule::Loudness, Rule::TruePeak]);
    Ok(())
}

#[test]
fn a_level_above_the_profiles_breaks_h264_level() -> R {
    let clip = Clip {
        h264_caps: ",level=(string)5.1",
        ..Clip::default()
    };
    let d = dir()?;
    let m = measure(&clip.make(d.path(), "level.mp4")?)?;
    assert_eq!(m.h264_level.as_deref(), Some("5.1"));
    let report = check(&profile(), &m);
    let rules: Vec<_> = report.violations.iter().map(|v| v.rule).collect();
    assert_eq!(rules, [Rule::H264Level]);
    assert!(report.violations[0].fixable);
    assert_eq!(
        report.violations[0].message,
        "H.264 level 5.1, the limit is 4.0"
    );
    Ok(())
}

#[test]
fn a_big_file_breaks_file_size_and_bitrate() -> R {
    // Noise at a near-lossless quantizer: ~2 MB for two seconds of 180×320.
    let clip = Clip {
        pattern: "snow",
        x264: "pass=quant quantizer=1",
        ..Clip::default()
    };
    let rules = broken(&clip, |p| {
        p.max_file_mb = 1;
        p.h264_profiles.push("high-4:4:4".to_owned());
    })?;
    assert!(rules.contains(&Rule::FileSize), "{rules:?}");
    assert!(rules.contains(&Rule::Bitrate), "{rules:?}");
    assert!(
        rules
            .iter()
            .all(|r| matches!(r, Rule::FileSize | Rule::Bitrate | Rule::H264Profile)),
        "{rules:?}"
    );
    Ok(())
}

#[test]
fn landscape_breaks_size_and_orientation() -> R {
    let rules = broken(
        &Clip {
            width: 320,
            height: 180,
            ..Clip::default()
        },
        |_| (),
    )?;
    assert_eq!(rules, [Rule::Size, Rule::Orientation]);
    Ok(())
}

#[test]
fn a_silent_film_breaks_no_audio() -> R {
    let d = dir()?;
    let m = measure(
        &Clip {
            amplitude: None,
            ..Clip::default()
        }
        .make(d.path(), "mute.mp4")?,
    )?;
    assert_eq!(m.audio_codec, None);
    assert_eq!(m.loudness_lufs, None);
    assert_eq!(m.seam.sound_jump_db, None);
    // The video's bytes are counted without a sound pass to carry them: all but the headers.
    let file_kbps = m.file_bytes as f64 * 8.0 / 1000.0 / m.seconds;
    assert!(
        (f64::from(m.video_kbps) - file_kbps).abs() < 0.1 * file_kbps,
        "{} against {file_kbps}",
        m.video_kbps
    );
    let report = check(&profile(), &m);
    let rules: Vec<_> = report.violations.iter().map(|v| v.rule).collect();
    assert_eq!(rules, [Rule::NoAudio]);
    assert!(report.violations[0].fixable, "the fix adds a silent track");
    Ok(())
}

#[test]
fn a_frame_rate_outside_the_window_breaks_frame_rate() -> R {
    let rules = broken(
        &Clip {
            fps: 50,
            ..Clip::default()
        },
        |_| (),
    )?;
    assert_eq!(rules, [Rule::FrameRate]);
    Ok(())
}
