//! The delivery profile's rules applied to a measurement: one `Violation` per rule broken, each
//! with a sentence naming the measured value and the limit, and whether re-encoding fixes it.

use crate::measure::{Measurement, Seam};
use reelforge_kit::config::DeliveryProfile;
use serde::{Deserialize, Serialize};

/// A frame rate this close to the window's edge is inside it (29.97 counts as 30).
const FPS_SLACK: f64 = 0.05;
/// A duration this close to the window's edge is inside it: AAC priming and padding make a
/// stream end up to a frame (~21–43 ms) past the pictures.
const SECONDS_SLACK: f64 = 0.05;
/// Integrated loudness at or below this is silence (the absolute gate reads −70).
const SILENT_LUFS: f64 = -69.0;
/// Bytes in a MiB (the profile's file size unit).
const MIB: u64 = 1024 * 1024;

/// A profile rule, named as docs/ringtone.md names it.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Hash, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub enum Rule {
    /// The container format.
    Container,
    /// The video codec.
    VideoCodec,
    /// The H.264 profile.
    H264Profile,
    /// The highest H.264 level.
    H264Level,
    /// The frame size.
    Size,
    /// Portrait or landscape.
    Orientation,
    /// The frame rate window.
    FrameRate,
    /// The video bitrate cap.
    Bitrate,
    /// The duration window.
    Duration,
    /// The audio codec.
    AudioCodec,
    /// Integrated loudness.
    Loudness,
    /// True peak ceiling.
    TruePeak,
    /// The file size cap.
    FileSize,
    /// The cover picture's format and size.
    Cover,
    /// A ringtone needs a sound track.
    NoAudio,
    /// The pictures are stored turned (a phone's portrait clip): a player that ignores the track
    /// header's turn shows them on their side, so a delivered video is stored upright.
    Turned,
}

/// One broken rule.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Violation {
    /// Which rule.
    pub rule: Rule,
    /// The measured value, with its unit.
    pub measured: String,
    /// The limit it broke, with its unit, or the values allowed.
    pub limit: Limit,
    /// One English sentence naming both.
    pub message: String,
    /// Whether the one-click fix (a re-encode to the profile, RING_FIX) mends it; false for a
    /// video too short and for every rule of a document's precheck (the user changes the work).
    pub fixable: bool,
}

/// A rule's limit: one value with its unit, or the values allowed (frame sizes, orientations),
/// sent as a list so that a client words the list in its own language.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(untagged)]
pub enum Limit {
    /// One value, with its unit.
    One(String),
    /// Any of these.
    AnyOf(Vec<String>),
}

impl From<String> for Limit {
    fn from(value: String) -> Self {
        Self::One(value)
    }
}

impl std::fmt::Display for Limit {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            Self::One(value) => f.write_str(value),
            Self::AnyOf(values) => write!(f, "one of {}", values.join(", ")),
        }
    }
}

impl Violation {
    /// Returns a violation whose message is `what measured, the limit is limit[ (window)]`.
    pub(crate) fn new(
        rule: Rule,
        what: &str,
        measured: String,
        limit: impl Into<Limit>,
        window: Option<String>,
    ) -> Self {
        let limit = limit.into();
        let message = match window {
            Some(w) => format!(
                "{what} {}, the limit is {} ({})",
                prose(&measured),
                prose(&limit.to_string()),
                prose(&w)
            ),
            None => format!(
                "{what} {}, the limit is {}",
                prose(&measured),
                prose(&limit.to_string())
            ),
        };
        Self {
            rule,
            measured,
            limit,
            message,
            fixable: rule != Rule::Cover,
        }
    }
}

/// The answer of `/ring/check`.
#[derive(Debug, Clone, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Report {
    /// True when no rule is broken.
    pub conforms: bool,
    /// What the file measured.
    pub measured: Measurement,
    /// The rules broken, in the order of docs/ringtone.md.
    pub violations: Vec<Violation>,
    /// How smoothly the end loops back to the start (advice, never a violation).
    pub seam: Seam,
}

/// Returns the report of a measurement against a profile.
pub fn check(profile: &DeliveryProfile, m: &Measurement) -> Report {
    let mut v = Vec::new();
    if !m.container.eq_ignore_ascii_case(&profile.container) {
        v.push(Violation::new(
            Rule::Container,
            "container",
            m.container.clone(),
            profile.container.clone(),
            None,
        ));
    }
    match m.video_codec.as_deref() {
        Some(codec) => {
            if !codec.eq_ignore_ascii_case(&profile.video_codec) {
                v.push(Violation::new(
                    Rule::VideoCodec,
                    "video codec",
                    codec.to_owned(),
                    profile.video_codec.clone(),
                    None,
                ));
            }
            h264(profile, m, &mut v);
            if m.turn != 0 {
                v.push(Violation::new(Rule::Turned, "turn", format!("{}°", m.turn), "0°".to_owned(), None));
            }
            // Scaling and padding into an accepted size fixes a finished video.
            v.extend(precheck(profile, m.width, m.height, 0.0).into_iter().map(|x| Violation { fixable: true, ..x }));
            fps(profile, m.fps, &mut v);
        }
        None => v.push(Violation::new(
            Rule::VideoCodec,
            "video codec",
            "none".to_owned(),
            profile.video_codec.clone(),
            None,
        )),
    }
    if m.video_kbps > profile.max_video_kbps {
        v.push(Violation::new(
            Rule::Bitrate,
            "video bitrate",
            format!("{} kbit/s", m.video_kbps),
            format!("{} kbit/s", profile.max_video_kbps),
            None,
        ));
    }
    // A video too long is cut to the window; one too short the user must lengthen.
    v.extend(duration(profile, m.seconds).map(|x| Violation { fixable: m.seconds > profile.max_seconds, ..x }));
    audio(profile, m, &mut v);
    if m.file_bytes > u64::from(profile.max_file_mb) * MIB {
        v.push(Violation::new(
            Rule::FileSize,
            "file size",
            format!("{:.1} MiB", m.file_bytes as f64 / MIB as f64),
            format!("{} MiB", profile.max_file_mb),
            None,
        ));
    }
    v.sort_by_key(|x| x.rule as u8);
    Report {
        conforms: v.is_empty(),
        measured: m.clone(),
        violations: v,
        seam: m.seam,
    }
}

/// Returns the violations a document decides before it is rendered: size, orientation, duration.
pub fn precheck(
    profile: &DeliveryProfile,
    width: u32,
    height: u32,
    seconds: f64,
) -> Vec<Violation> {
    let mut v = Vec::new();
    let size = format!("{width}x{height}");
    if !profile.sizes.iter().any(|s| s.eq_ignore_ascii_case(&size)) {
        v.push(Violation::new(
            Rule::Size,
            "size",
            size,
            Limit::AnyOf(profile.sizes.clone()),
            None,
        ));
    }
    let orientation = orientation(width, height);
    if !profile.orientations.iter().any(|o| o == orientation) {
        v.push(Violation::new(
            Rule::Orientation,
            "orientation",
            orientation.to_owned(),
            Limit::AnyOf(profile.orientations.clone()),
            None,
        ));
    }
    if seconds > 0.0 {
        v.extend(duration(profile, seconds));
    }
    // A document's rules are the user's to change in the editor.
    v.into_iter().map(|x| Violation { fixable: false, ..x }).collect()
}

/// Returns `portrait`, `landscape` or `square`.
fn orientation(width: u32, height: u32) -> &'static str {
    match width.cmp(&height) {
        std::cmp::Ordering::Less => "portrait",
        std::cmp::Ordering::Greater => "landscape",
        std::cmp::Ordering::Equal => "square",
    }
}

/// Returns the duration violation, if any.
fn duration(profile: &DeliveryProfile, seconds: f64) -> Option<Violation> {
    let window = Some(format!("{}–{} s", profile.min_seconds, profile.max_seconds));
    let limit = if seconds > profile.max_seconds + SECONDS_SLACK {
        profile.max_seconds
    } else if seconds < profile.min_seconds - SECONDS_SLACK {
        profile.min_seconds
    } else {
        return None;
    };
    Some(Violation::new(
        Rule::Duration,
        "duration",
        format!("{seconds:.1} s"),
        format!("{limit:.1} s"),
        window,
    ))
}

/// Adds the frame rate violation, if any.
fn fps(profile: &DeliveryProfile, fps: f64, v: &mut Vec<Violation>) {
    let limit = if fps > profile.max_fps + FPS_SLACK {
        profile.max_fps
    } else if fps < profile.min_fps - FPS_SLACK {
        profile.min_fps
    } else {
        return;
    };
    v.push(Violation::new(
        Rule::FrameRate,
        "frame rate",
        format!("{fps:.2} fps"),
        format!("{limit} fps"),
        Some(format!("{}–{} fps", profile.min_fps, profile.max_fps)),
    ));
}

/// Adds the H.264 profile and level violations, if any.
fn h264(profile: &DeliveryProfile, m: &Measurement, v: &mut Vec<Violation>) {
    if !m
        .video_codec
        .as_deref()
        .is_some_and(|c| c.eq_ignore_ascii_case("h264"))
    {
        return;
    }
    let measured = m.h264_profile.as_deref().unwrap_or("unknown");
    if !profile.h264_profiles.iter().any(|p| p == family(measured)) {
        v.push(Violation::new(
            Rule::H264Profile,
            "H.264 profile",
            measured.to_owned(),
            profile.h264_profiles.join(" or "),
            None,
        ));
    }
    let level = m.h264_level.as_deref().unwrap_or("unknown");
    let within = match (level_rank(level), level_rank(&profile.h264_max_level)) {
        (Some(l), Some(max)) => l <= max,
        _ => false,
    };
    if !within {
        v.push(Violation::new(
            Rule::H264Level,
            "H.264 level",
            level.to_owned(),
            profile.h264_max_level.clone(),
            None,
        ));
    }
}

/// Returns the profile family a caps profile name belongs to: the constrained and progressive
/// subsets decode wherever their family does.
fn family(caps_profile: &str) -> &str {
    match caps_profile {
        "constrained-baseline" => "baseline",
        "progressive-high" | "constrained-high" => "high",
        other => other,
    }
}

/// Returns an H.264 level's place in the order of levels (`4.1` → 82, `4` → 80); `1b` sits
/// between 1 and 1.1.
fn level_rank(level: &str) -> Option<u32> {
    if level == "1b" {
        return Some(21);
    }
    let (major, minor) = level.split_once('.').unwrap_or((level, "0"));
    let (major, minor) = (major.parse::<u32>().ok()?, minor.parse::<u32>().ok()?);
    (major < 100 && minor < 10).then_some((major * 10 + minor) * 2)
}

/// Adds the sound's violations: no sound, codec, loudness, true peak.
fn audio(profile: &DeliveryProfile, m: &Measurement, v: &mut Vec<Violation>) {
    let Some(codec) = m.audio_codec.as_deref() else {
        v.push(Violation::new(
            Rule::NoAudio,
            "audio",
            "none".to_owned(),
            format!("one {} sound track", profile.audio_codec),
            None,
        ));
        return;
    };
    if !codec.eq_ignore_ascii_case(&profile.audio_codec) {
        v.push(Violation::new(
            Rule::AudioCodec,
            "audio codec",
            codec.to_owned(),
            profile.audio_codec.clone(),
            None,
        ));
    }
    // A silent track (the R128 absolute gate) has no programme loudness to hold to the window:
    // it passes, as the silence the fix adds to a video without sound.
    if let Some(lufs) = m.loudness_lufs.filter(|&l| l > SILENT_LUFS) {
        let (target, tol) = (profile.loudness_lufs, profile.loudness_tolerance_lu);
        let limit = if lufs > target + tol {
            Some(target + tol)
        } else if lufs < target - tol {
            Some(target - tol)
        } else {
            None
        };
        if let Some(limit) = limit {
            v.push(Violation::new(
                Rule::Loudness,
                "loudness",
                format!("{lufs:.1} LUFS"),
                format!("{limit:.1} LUFS"),
                Some(format!("{target} ± {tol}")),
            ));
        }
    }
    if let Some(peak) = m.true_peak_dbtp.filter(|&p| p > profile.true_peak_dbtp) {
        v.push(Violation::new(
            Rule::TruePeak,
            "true peak",
            format!("{peak:.1} dBTP"),
            format!("{:.1} dBTP", profile.true_peak_dbtp),
            None,
        ));
    }
}

/// Returns a value for a sentence: a minus sign before a number is typographic, as in
/// "−9.8 LUFS"; hyphens inside names (`constrained-baseline`) stay.
fn prose(value: &str) -> String {
    let mut out = String::with_capacity(value.len() + 4);
    let mut prev: Option<char> = None;
    let mut chars = value.chars().peekable();
    while let Some(c) = chars.next() {
        let minus = c == '-'
            && chars.peek().is_some_and(char::is_ascii_digit)
            && !prev.is_some_and(char::is_alphanumeric);
        out.push(if minus { '\u{2212}' } else { c });
        prev = Some(c);
    }
    out
}
