//! RING_FIX on MP4s GStreamer makes to break the profile's rules: each input fails the check on
//! the rules it was made to break, and its fixed output passes the same check.

use std::collections::HashSet;
use std::path::{Path, PathBuf};
use std::sync::atomic::AtomicBool;

use gstreamer as gst;
use gstreamer::prelude::*;
use reelforge_conform::{Rule, check, measure};
use reelforge_kit::config::DeliveryProfile;
use reelforge_tools::ring_fix::{FixParams, run};

type Result<T = ()> = std::result::Result<T, Box<dyn std::error::Error>>;

/// A small profile, so the encodes are quick: 360×640 portrait, 25–30 fps, 2–4 s, ≤ 1 MiB.
fn profile() -> DeliveryProfile {
    DeliveryProfile {
        sizes: vec!["360x640".to_owned()],
        orientations: vec!["portrait".to_owned()],
        h264_profiles: vec!["baseline".to_owned(), "main".to_owned()],
        h264_max_level: "3.1".to_owned(),
        min_fps: 25.0,
        max_fps: 30.0,
        max_video_kbps: 1500,
        min_seconds: 2.0,
        max_seconds: 4.0,
        max_file_mb: 1,
        ..DeliveryProfile::for_variant("cu")
    }
}

/// An input's recipe.
struct Input {
    width: u32,
    height: u32,
    fps: u32,
    seconds: u32,
    /// videotestsrc's pattern.
    pattern: &'static str,
    /// x264's settings and the H.264 caps after it.
    x264: &'static str,
    /// The sine's amplitude and the sound's encoder; `None`: no sound.
    sound: Option<(f64, &'static str)>,
}

fn aac() -> &'static str {
    let _ = gst::init();
    if gst::ElementFactory::find("voaacenc").is_some() { "voaacenc" } else { "avenc_aac" }
}

impl Input {
    fn make(&self, dir: &Path, name: &str) -> Result<PathBuf> {
        gst::init()?;
        let path = dir.join(name);
        let sound = match self.sound {
            Some((volume, encoder)) => format!(
                " audiotestsrc num-buffers={} samplesperbuffer=480 wave=sine freq=997 volume={volume} \
                 ! audio/x-raw,rate=44100,channels=1 ! audioconvert ! {encoder} ! queue ! mux.",
                self.seconds * 100
            ),
            None => String::new(),
        };
        let description = format!(
            "videotestsrc num-buffers={} pattern={} ! video/x-raw,format=I420,width={},height={},framerate={}/1 ! {} \
             ! queue ! mp4mux name=mux ! filesink location={}{sound}",
            self.seconds * self.fps,
            self.pattern,
            self.width,
            self.height,
            self.fps,
            self.x264,
            path.display()
        );
        let pipeline = gst::parse::launch(&description)?.downcast::<gst::Pipeline>().map_err(|_| "not a pipeline")?;
        pipeline.set_state(gst::State::Playing)?;
        let bus = pipeline.bus().ok_or("no bus")?;
        let msg = bus.timed_pop_filtered(gst::ClockTime::from_seconds(120), &[gst::MessageType::Eos, gst::MessageType::Error]);
        pipeline.set_state(gst::State::Null)?;
        match msg.as_ref().map(|m| m.view()) {
            Some(gst::MessageView::Eos(_)) => Ok(path),
            other => Err(format!("making {name}: {other:?}").into()),
        }
    }
}

const PLAIN: &str = "x264enc speed-preset=ultrafast key-int-max=25";

/// Fixes `input` (its track header turning it `turn` degrees) and returns the rules it broke; its
/// output must pass.
fn fix(dir: &Path, name: &str, input: &Input, turn: u16) -> Result<HashSet<Rule>> {
    let profile = profile();
    let source = input.make(dir, name)?;
    if turn != 0 {
        reelforge_tools::orientation::set_turn(&source, turn)?;
    }
    let before = check(&profile, &measure(&source)?);
    let broken: HashSet<Rule> = before.violations.iter().map(|v| v.rule).collect();
    assert!(before.violations.iter().all(|v| v.fixable), "{name}: {:?}", before.violations);
    let mut seen = 0;
    let params = FixParams { profile: profile.clone() };
    let out = run(&params, &source, &dir.join(format!("{name}-out")), &mut |p| seen = seen.max(p.done_ms), &AtomicBool::new(false))?;
    assert_eq!(out.len(), 1);
    assert_eq!((out[0].width, out[0].height, out[0].name.as_str()), (360, 640, "ringtone.mp4"));
    assert!(seen > 0, "{name}: no progress reported");
    let after = check(&profile, &measure(&out[0].path)?);
    assert!(after.conforms, "{name}: broke {broken:?}, the fix still breaks {:?} ({:?})", after.violations, after.measured);
    assert!(!dir.join(format!("{name}-out/partial-ringtone.mp4")).exists());
    Ok(broken)
}

#[test]
fn a_fixed_video_passes_the_check_its_source_failed() -> Result {
    let dir = tempfile::tempdir()?;
    let mut broken = HashSet::new();
    // Landscape, 50 fps, 6 s, High profile, too loud with peaks over the ceiling.
    broken.extend(fix(dir.path(), "wide", &Input {
        width: 640,
        height: 360,
        fps: 50,
        seconds: 6,
        pattern: "smpte horizontal-speed=4",
        x264: "x264enc speed-preset=veryfast key-int-max=50 ! video/x-h264,profile=high",
        sound: Some((0.95, aac())),
    }, 0)?);
    // Noise at a fine quantizer: over the bitrate cap and the file size; no sound at all.
    broken.extend(fix(dir.path(), "noisy", &Input {
        width: 360,
        height: 640,
        fps: 25,
        seconds: 3,
        pattern: "snow",
        x264: "x264enc speed-preset=ultrafast pass=quant quantizer=4",
        sound: None,
    }, 0)?);
    // A quiet MP3.
    broken.extend(fix(dir.path(), "quiet", &Input {
        width: 360,
        height: 640,
        fps: 25,
        seconds: 3,
        pattern: "ball",
        x264: PLAIN,
        sound: Some((0.01, "lamemp3enc ! mpegaudioparse")),
    }, 0)?);
    // A phone's portrait clip: stored 640×360 on its side, turned 90° by its track header. The fix
    // stores it upright, 360×640.
    broken.extend(fix(dir.path(), "turned", &Input {
        width: 640,
        height: 360,
        fps: 25,
        seconds: 3,
        pattern: "ball",
        x264: PLAIN,
        sound: Some((0.15, aac())),
    }, 90)?);
    let fixable = [
        Rule::H264Profile,
        Rule::Size,
        Rule::Orientation,
        Rule::FrameRate,
        Rule::Bitrate,
        Rule::Duration,
        Rule::AudioCodec,
        Rule::Loudness,
        Rule::TruePeak,
        Rule::FileSize,
        Rule::NoAudio,
        Rule::Turned,
    ];
    let missing: Vec<&Rule> = fixable.iter().filter(|r| !broken.contains(r)).collect();
    assert!(missing.is_empty(), "no input broke {missing:?}");
    Ok(())
}

#[test]
fn a_video_too_short_is_refused_naming_the_duration() -> Result {
    let dir = tempfile::tempdir()?;
    let source = Input { width: 360, height: 640, fps: 25, seconds: 1, pattern: "ball", x264: PLAIN, sound: Some((0.15, aac())) }
        .make(dir.path(), "short.mp4")?;
    let report = check(&profile(), &measure(&source)?);
    assert!(report.violations.iter().any(|v| v.rule == Rule::Duration && !v.fixable), "{:?}", report.violations);
    let out = dir.path().join("out");
    let err = run(&FixParams { profile: profile() }, &source, &out, &mut |_| {}, &AtomicBool::new(false)).err().map(|e| e.to_string());
    assert!(err.as_deref().is_some_and(|e| e.starts_with("duration:")), "{err:?}");
    assert!(!out.join("ringtone.mp4").exists());
    Ok(())
}

#[test]
fn the_parameters_are_the_profile() -> Result {
    let value = serde_json::json!({"profile": profile(), "sourceTaskId": 7});
    assert_eq!(FixParams::parse(&value)?.profile, profile());
    let bad = serde_json::json!({"profile": {"sizes": ["big"]}});
    assert_eq!(FixParams::parse(&bad).err().map(|e| e.field), Some("params.profile.sizes".to_owned()));
    assert_eq!(FixParams::parse(&serde_json::json!({})).err().map(|e| e.field), Some("params.profile".to_owned()));
    Ok(())
}
