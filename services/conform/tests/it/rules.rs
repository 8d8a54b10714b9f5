//! The rules on measurements made by hand: precheck, levels and profiles, messages, the cover,
//! and the names the rules serialise to.

use crate::R;
use crate::media::profile;
use reelforge_conform::{Limit, Measurement, Rule, check, check_cover, precheck};
use reelforge_kit::config::DeliveryProfile;

/// Returns a measurement the test profile accepts.
fn good() -> Measurement {
    Measurement {
        container: "mp4".to_owned(),
        video_codec: Some("h264".to_owned()),
        h264_profile: Some("high".to_owned()),
        h264_level: Some("3.1".to_owned()),
        width: 180,
        height: 320,
        fps: 25.0,
        video_kbps: 1200,
        seconds: 2.0,
        audio_codec: Some("aac".to_owned()),
        loudness_lufs: Some(-16.2),
        true_peak_dbtp: Some(-3.0),
        file_bytes: 400_000,
        ..Measurement::default()
    }
}

/// Returns the rules `m` breaks against the test profile.
fn rules(m: &Measurement) -> Vec<Rule> {
    check(&profile(), m)
        .violations
        .iter()
        .map(|v| v.rule)
        .collect()
}

#[test]
fn precheck_decides_size_orientation_and_duration() {
    let cc = DeliveryProfile::for_variant("cc");
    assert!(precheck(&cc, 1080, 1920, 30.0).is_empty());
    assert!(precheck(&cc, 720, 1280, 5.0).is_empty());
    let rules = |w, h, s| {
        precheck(&cc, w, h, s)
            .iter()
            .map(|v| v.rule)
            .collect::<Vec<_>>()
    };
    assert_eq!(rules(1920, 1080, 30.0), [Rule::Size, Rule::Orientation]);
    assert_eq!(rules(1000, 1920, 30.0), [Rule::Size]);
    assert_eq!(rules(1080, 1080, 30.0), [Rule::Size, Rule::Orientation]);
    assert_eq!(rules(1080, 1920, 60.0), [Rule::Duration]);
    assert_eq!(rules(1080, 1920, 2.0), [Rule::Duration]);
    // A hair over the limit is the AAC padding, not a longer work.
    assert!(rules(1080, 1920, 48.02).is_empty());
    let v = precheck(&cc, 1920, 1080, 60.0);
    assert!(
        v.iter().all(|v| !v.fixable),
        "the user must change the work"
    );
    assert_eq!(
        v[2].message,
        "duration 60.0 s, the limit is 48.0 s (5–48 s)"
    );
    // Sizes and orientations allowed go out as lists, for a client to word in its language.
    let wire = serde_json::to_value(&v[..2]).map_err(|e| e.to_string());
    assert_eq!(
        wire.map(|w| (w[0]["limit"].clone(), w[1]["limit"].clone())),
        Ok((
            serde_json::json!(cc.sizes),
            serde_json::json!(cc.orientations)
        ))
    );
    assert!(v[0].message.contains("the limit is one of "), "{}", v[0].message);
    // qs takes landscape.
    assert!(precheck(&DeliveryProfile::for_variant("qs"), 1920, 1080, 30.0).is_empty());
}

#[test]
fn levels_compare_in_order() {
    for (level, ok) in [
        ("1", true),
        ("1b", true),
        ("3.1", true),
        ("4", true),
        ("4.1", false),
        ("5.1", false),
        ("x", false),
    ] {
        let m = Measurement {
            h264_level: Some(level.to_owned()),
            ..good()
        };
        assert_eq!(rules(&m).is_empty(), ok, "level {level}");
    }
    let m = Measurement {
        h264_level: None,
        ..good()
    };
    assert_eq!(rules(&m), [Rule::H264Level]);
}

#[test]
fn profiles_count_their_constrained_subsets() {
    let cu = DeliveryProfile {
        sizes: vec!["180x320".to_owned()],
        min_seconds: 1.0,
        ..DeliveryProfile::for_variant("cu")
    };
    let with = |p: &str| Measurement {
        h264_profile: Some(p.to_owned()),
        ..good()
    };
    let broken = |m: &Measurement| {
        check(&cu, m)
            .violations
            .iter()
            .map(|v| v.rule)
            .collect::<Vec<_>>()
    };
    assert!(broken(&with("constrained-baseline")).is_empty());
    assert!(broken(&with("main")).is_empty());
    assert_eq!(broken(&with("high")), [Rule::H264Profile]);
    assert_eq!(broken(&with("progressive-high")), [Rule::H264Profile]);
    assert_eq!(
        check(&cu, &with("high")).violations[0].message,
        "H.264 profile high, the limit is baseline or main"
    );
}

#[test]
fn every_rule_has_its_violation() {
    let cases: [(Measurement, Rule, bool); 11] = [
        (
            Measurement {
                container: "mov".to_owned(),
                ..good()
            },
            Rule::Container,
            true,
        ),
        (
            Measurement {
                video_codec: Some("h265".to_owned()),
                h264_profile: None,
                h264_level: None,
                ..good()
            },
            Rule::VideoCodec,
            true,
        ),
        (
            Measurement {
                fps: 60.0,
                ..good()
            },
            Rule::FrameRate,
            true,
        ),
        (
            Measurement {
                video_kbps: 9000,
                ..good()
            },
            Rule::Bitrate,
            true,
        ),
        (
            Measurement {
                seconds: 10.0,
                ..good()
            },
            // Too long: the fix cuts it (too short is not fixable, below).
            Rule::Duration,
            true,
        ),
        (
            Measurement {
                audio_codec: Some("mp3".to_owned()),
                ..good()
            },
            Rule::AudioCodec,
            true,
        ),
        (
            Measurement {
                loudness_lufs: Some(-9.8),
                ..good()
            },
            Rule::Loudness,
            true,
        ),
        (
            Measurement {
                true_peak_dbtp: Some(-0.5),
                ..good()
            },
            Rule::TruePeak,
            true,
        ),
        (
            Measurement {
                file_bytes: 21 * 1024 * 1024,
                ..good()
            },
            Rule::FileSize,
            true,
        ),
        (
            Measurement {
                audio_codec: None,
                loudness_lufs: None,
                true_peak_dbtp: None,
                ..good()
            },
            Rule::NoAudio,
            true,
        ),
        (
            Measurement {
                turn: 90,
                ..good()
            },
            Rule::Turned,
            true,
        ),
    ];
    assert!(rules(&good()).is_empty());
    for (m, rule, fixable) in cases {
        let report = check(&profile(), &m);
        assert!(!report.conforms);
        assert_eq!(
            report.violations.len(),
            1,
            "{rule:?}: {:?}",
            report.violations
        );
        assert_eq!(report.violations[0].rule, rule);
        assert_eq!(report.violations[0].fixable, fixable, "{rule:?}");
    }
    let short = check(&profile(), &Measurement { seconds: 0.5, ..good() });
    assert_eq!(short.violations.iter().map(|v| (v.rule, v.fixable)).collect::<Vec<_>>(), [(Rule::Duration, false)]);
}

#[test]
fn messages_name_the_measured_value_and_the_limit() {
    let loud = check(
        &profile(),
        &Measurement {
            loudness_lufs: Some(-9.8),
            ..good()
        },
    );
    let v = &loud.violations[0];
    assert_eq!(
        v.message,
        "loudness \u{2212}9.8 LUFS, the limit is \u{2212}14.0 LUFS (\u{2212}16 ± 2)"
    );
    assert_eq!(
        (v.measured.as_str(), &v.limit),
        ("-9.8 LUFS", &Limit::One("-14.0 LUFS".to_owned()))
    );
    let quiet = check(
        &profile(),
        &Measurement {
            loudness_lufs: Some(-23.0),
            ..good()
        },
    );
    assert!(
        quiet.violations[0]
            .message
            .contains("the limit is \u{2212}18.0")
    );
    let big = check(
        &profile(),
        &Measurement {
            file_bytes: 21 * 1024 * 1024,
            ..good()
        },
    );
    assert_eq!(
        big.violations[0].message,
        "file size 21.0 MiB, the limit is 20 MiB"
    );
}

#[test]
fn violations_serialise_in_camel_case() -> R {
    let m = Measurement {
        h264_level: Some("5.1".to_owned()),
        audio_codec: None,
        ..good()
    };
    let json = serde_json::to_value(check(&profile(), &m))?;
    let names: Vec<_> = json["violations"]
        .as_array()
        .ok_or("no list")?
        .iter()
        .map(|v| v["rule"].clone())
        .collect();
    assert_eq!(
        names,
        [serde_json::json!("h264Level"), serde_json::json!("noAudio")]
    );
    for key in ["rule", "measured", "limit", "message", "fixable"] {
        assert!(json["violations"][0].get(key).is_some(), "{key}");
    }
    assert_eq!(json["conforms"], serde_json::json!(false));
    Ok(())
}

#[test]
fn the_cover_is_judged_by_its_bytes() {
    let p = profile();
    let png = [0x89, b'P', b'N', b'G', 0x0D, 0x0A, 0x1A, 0x0A, 0, 0];
    assert_eq!(check_cover(&p, &png), None);
    assert_eq!(check_cover(&p, &[0xFF, 0xD8, 0xFF, 0xE0]), None);
    let gif = check_cover(&p, b"GIF89a....");
    assert_eq!(
        gif.as_ref().map(|v| (v.rule, v.measured.as_str())),
        Some((Rule::Cover, "gif"))
    );
    assert!(check_cover(&p, b"").is_some());
    let mut big = vec![0u8; 600 * 1024];
    big[..3].copy_from_slice(&[0xFF, 0xD8, 0xFF]);
    let v = check_cover(&p, &big);
    assert_eq!(
        v.map(|v| v.message),
        Some("cover size 600 KiB, the limit is 512 KiB".to_owned())
    );
}
