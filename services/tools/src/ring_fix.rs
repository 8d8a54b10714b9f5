//! RING_FIX, the ringtone's one-click fix (docs/ringtone.md): a finished work re-encoded to its
//! variant's delivery profile. It is a tool run of the farm like the toolbox's, but hidden from the
//! toolbox (it is not a [`crate::ToolType`]): the ring service asks for it, and its parameters are
//! the profile as the server reads it. The input is measured with `reelforge-conform` first and
//! only what breaks the profile is changed:
//!
//! - size / orientation: scaled into an accepted size, aspect kept, the rest padded black
//!   (`videoscale add-borders`); frame rate: `videorate` to the nearest end of the window;
//! - bitrate / file size / H.264 profile and level / codecs: always re-encoded, H.264 Main (every
//!   profile accepts it; x264 picks the lowest level that holds the size and rate) at constant
//!   quality under a VBV cap below the bitrate cap and the file size's share, AAC at 48 kHz (the
//!   channels kept: an up-mix would change the loudness);
//! - duration: a video longer than the window is cut at its end (too short is not fixable);
//! - loudness / true peak: one gain that brings the loudness to the target and the peak under the
//!   ceiling; where no gain does both, the peaks are clipped at the ceiling (`audiodynamic`);
//! - no sound: a silent track is added.
//!
//! `filesrc ! decodebin name=d`
//! `d. ! video/x-raw ! queue name=vq ! videoconvert ! videoscale ! videorate ! video/x-raw,I420,W×H,PAR 1/1[,fps]
//!  ! x264enc pass=qual bitrate=cap ! video/x-h264,profile=main ! mp4mux ! filesink`
//! `d. ! audio/x-raw ! queue ! audioconvert ! audiobuffersplit name=aq ! audioresample ! 48 kHz ! volume
//!  [! audiodynamic] ! audioconvert ! aac ! mux.` (or `audiotestsrc wave=silence ! … ! mux.`)

use std::path::Path;
use std::sync::atomic::AtomicBool;

use gstreamer as gst;
use gstreamer::prelude::*;
use reelforge_conform::Measurement;
use reelforge_kit::config::DeliveryProfile;
use serde_json::Value;

use crate::error::{ParamError, ToolError};
use crate::gst_run::{PICTURES, element, launch, play, retime};
use crate::pipeline::{Output, OutputKind, Progress};

/// The run's wire type; not in the toolbox's catalogue.
pub const RING_FIX: &str = "RING_FIX";

/// The name of the fixed video.
pub const OUTPUT_NAME: &str = "ringtone.mp4";

/// The share of the bitrate cap and of the file size's budget the encoder aims under.
const HEADROOM: f64 = 0.85;
/// The sound's bitrate, bit/s.
const AUDIO_BPS: u32 = 128_000;
/// How far under the true-peak ceiling a gain leaves the peaks (AAC's own overshoot), dB.
const PEAK_MARGIN_DB: f64 = 1.5;
/// How far inside the loudness window a gain may land, LU.
const LOUDNESS_MARGIN_LU: f64 = 0.5;
/// Loudness at or below this is silence (the R128 absolute gate): no gain makes it the target.
const SILENCE_LUFS: f64 = -69.0;
/// Bytes in a MiB.
const MIB: f64 = 1024.0 * 1024.0;

/// What a RING_FIX run is given: the profile to fix to.
#[derive(Debug, Clone, PartialEq)]
pub struct FixParams {
    /// The variant's delivery profile, as the server read it.
    pub profile: DeliveryProfile,
}

impl FixParams {
    /// Reads the run's parameters (`{profile, …}`; other keys belong to the task service).
    pub fn parse(value: &Value) -> Result<Self, ParamError> {
        let profile = value.get("profile").ok_or_else(|| ParamError::new("params.profile", "is required"))?;
        let profile: DeliveryProfile =
            serde_json::from_value(profile.clone()).map_err(|e| ParamError::new("params.profile", e.to_string()))?;
        if profile.sizes.iter().all(|s| parse_size(s).is_none()) {
            return Err(ParamError::new("params.profile.sizes", "names no WIDTHxHEIGHT size"));
        }
        Ok(Self { profile })
    }
}

/// What the fix changes, decided from the input's measurement against the profile.
#[derive(Debug, Clone, PartialEq)]
pub struct Plan {
    /// The output's size.
    pub width: u32,
    /// The output's size.
    pub height: u32,
    /// A new frame rate, when the input's is outside the window.
    pub fps: Option<u32>,
    /// The encoder's cap, kbit/s.
    pub video_kbps: u32,
    /// Where the output ends, when the input is too long, milliseconds.
    pub cut_ms: Option<u64>,
    /// The sound's gain, dB.
    pub gain_db: f64,
    /// A clip level for the peaks, linear, when the gain alone cannot keep them under the ceiling.
    pub clip: Option<f64>,
    /// Whether a silent track is added (the input has no sound).
    pub add_silence: bool,
}

/// Whether a broken duration is fixable: a video too long is cut, one too short is not.
pub fn duration_fixable(profile: &DeliveryProfile, seconds: f64) -> bool {
    seconds > profile.max_seconds
}

/// Returns the plan that brings a video measured `m` within `profile`.
pub fn plan(profile: &DeliveryProfile, m: &Measurement) -> Plan {
    let (width, height) = target_size(profile, m.width, m.height);
    let fps = (m.fps > profile.max_fps + 0.05 || m.fps < profile.min_fps - 0.05 || m.fps <= 0.0)
        .then(|| (if m.fps > profile.max_fps { profile.max_fps.floor() } else { profile.min_fps.ceil() }) as u32);
    let cut_ms = duration_fixable(profile, m.seconds).then_some((profile.max_seconds * 1000.0) as u64);
    let seconds = cut_ms.map_or(m.seconds, |ms| ms as f64 / 1000.0).max(1.0);
    // The file's budget less the sound, and 3 % for the container.
    let budget = (f64::from(profile.max_file_mb) * MIB * 8.0 * 0.97 / seconds - f64::from(AUDIO_BPS)) / 1000.0;
    let video_kbps = (f64::from(profile.max_video_kbps).min(budget) * HEADROOM).max(100.0) as u32;
    let (gain_db, clip) = match (m.loudness_lufs, m.true_peak_dbtp) {
        (Some(lufs), Some(peak)) if lufs > SILENCE_LUFS => gain(profile, lufs, peak),
        _ => (0.0, None),
    };
    Plan { width, height, fps, video_kbps, cut_ms, gain_db, clip, add_silence: m.audio_codec.is_none() }
}

/// The gain that brings the loudness into the window (to the target when it is outside) and the
/// true peak under the ceiling; where none does both, the window's lowest gain and a clip.
fn gain(profile: &DeliveryProfile, lufs: f64, peak: f64) -> (f64, Option<f64>) {
    let (target, tol) = (profile.loudness_lufs, profile.loudness_tolerance_lu);
    let inside = (lufs - target).abs() <= tol;
    let wanted = if inside { 0.0 } else { target - lufs };
    let peak_room = profile.true_peak_dbtp - PEAK_MARGIN_DB - peak;
    if wanted <= peak_room {
        return (wanted, None);
    }
    let lowest = target - tol + LOUDNESS_MARGIN_LU - lufs;
    if peak_room >= lowest {
        return (peak_room, None);
    }
    (lowest, Some(10f64.powf((profile.true_peak_dbtp - PEAK_MARGIN_DB) / 20.0)))
}

fn parse_size(s: &str) -> Option<(u32, u32)> {
    let (w, h) = s.split_once(['x', 'X'])?;
    Some((w.trim().parse().ok()?, h.trim().parse().ok()?))
}

/// The accepted size for a `w`×`h` picture: its own when accepted; else one of its orientation
/// (when that is accepted) whose area is nearest its own.
fn target_size(profile: &DeliveryProfile, w: u32, h: u32) -> (u32, u32) {
    let sizes: Vec<(u32, u32)> = profile.sizes.iter().filter_map(|s| parse_size(s)).collect();
    if sizes.contains(&(w, h)) {
        return (w, h);
    }
    let portrait = |(a, b): (u32, u32)| a < b;
    let accepted = |s: &(u32, u32)| {
        let o = if portrait(*s) { "portrait" } else { "landscape" };
        profile.orientations.is_empty() || profile.orientations.iter().any(|x| x == o)
    };
    let usable: Vec<(u32, u32)> = sizes.iter().copied().filter(accepted).collect();
    let pool = if usable.is_empty() { sizes } else { usable };
    let same: Vec<(u32, u32)> = pool.iter().copied().filter(|s| portrait(*s) == portrait((w, h))).collect();
    let pool = if same.is_empty() { pool } else { same };
    let area = f64::from(w) * f64::from(h);
    pool.into_iter()
        .min_by(|a, b| {
            let d = |s: &(u32, u32)| (f64::from(s.0) * f64::from(s.1) - area).abs();
            d(a).total_cmp(&d(b))
        })
        .unwrap_or((w.max(2), h.max(2)))
}

/// The AAC encoder this machine has.
fn aac() -> &'static str {
    if gst::ElementFactory::find("voaacenc").is_some() { "voaacenc" } else { "avenc_aac" }
}

/// Fixes the video `input` to `params.profile`, writing `dir/ringtone.mp4` (under a partial name
/// until it is complete). Returns the one output.
pub fn run(
    params: &FixParams,
    input: &Path,
    dir: &Path,
    progress: &mut dyn FnMut(Progress),
    cancel: &AtomicBool,
) -> Result<Vec<Output>, ToolError> {
    let m = reelforge_conform::measure(input).map_err(|e| ToolError::NotMedia(e.to_string()))?;
    if m.video_codec.is_none() {
        return Err(ToolError::Param(ParamError::new("materialIds", "the video has no picture")));
    }
    if m.seconds < params.profile.min_seconds - 0.05 {
        return Err(ToolError::Param(ParamError::new(
            "duration",
            format!("{:.1} s is shorter than the profile's {} s: make the work longer", m.seconds, params.profile.min_seconds),
        )));
    }
    let plan = plan(&params.profile, &m);
    std::fs::create_dir_all(dir)?;
    let partial = dir.join(format!("partial-{OUTPUT_NAME}"));
    let done = encode(&plan, &m, input, &partial, progress, cancel).and_then(|()| {
        let path = dir.join(OUTPUT_NAME);
        std::fs::rename(&partial, &path)?;
        let facts = crate::probe(&path)?;
        let (width, height) = facts.video.map_or((0, 0), |(w, h, _)| (w, h));
        Ok(vec![Output {
            path,
            kind: OutputKind::Video,
            name: OUTPUT_NAME.to_owned(),
            size: facts.bytes,
            duration_ms: facts.duration_ms,
            width,
            height,
            ranges: Vec::new(),
        }])
    });
    if done.is_err() {
        let _ = std::fs::remove_file(&partial);
    }
    done
}

fn encode(
    plan: &Plan,
    m: &Measurement,
    input: &Path,
    out: &Path,
    progress: &mut dyn FnMut(Progress),
    cancel: &AtomicBool,
) -> Result<(), ToolError> {
    let rate = plan.fps.map_or(String::new(), |f| format!(",framerate={f}/1"));
    let total_ms = plan.cut_ms.unwrap_or((m.seconds * 1000.0) as u64);
    let sound_caps = "audio/x-raw,format=F32LE,rate=48000,channels=2";
    let audio = if plan.add_silence {
        format!(
            " audiotestsrc wave=silence num-buffers={} samplesperbuffer=480 ! {sound_caps} ! audioconvert ! {} bitrate={AUDIO_BPS} ! queue ! mux.",
            total_ms.div_ceil(10),
            aac()
        )
    } else {
        let clip = plan.clip.map_or(String::new(), |c| {
            format!(" ! audiodynamic characteristics=hard-knee mode=compressor ratio=0 threshold={c:.4}")
        });
        // `volume` goes to 10× (20 dB): the gain is split over two.
        let g = 10f64.powf(plan.gain_db.clamp(-60.0, 40.0) / 40.0);
        format!(
            " d. ! audio/x-raw ! queue ! audioconvert ! audio/x-raw,format=F32LE ! audiobuffersplit name=aq output-buffer-duration=1/1000 \
             ! audioresample ! audio/x-raw,rate=48000 ! volume volume={g:.6} ! volume volume={g:.6}{clip} ! audioconvert ! {} bitrate={AUDIO_BPS} ! queue ! mux.",
            aac()
        )
    };
    let description = format!(
        "filesrc name=src ! decodebin name=d {PICTURES} ! queue name=vq ! videoconvert ! videoscale ! videorate \
         ! video/x-raw,format=I420,width={},height={},pixel-aspect-ratio=1/1{rate} \
         ! x264enc speed-preset=veryfast pass=qual quantizer=21 bitrate={} vbv-buf-capacity=1000 key-int-max=250 \
         ! video/x-h264,profile=main ! queue ! mp4mux name=mux faststart=true ! filesink name=sink{audio}",
        plan.width, plan.height, plan.video_kbps
    );
    let running = launch(&description, Some(input), Some(out))?;
    if let Some(cut) = plan.cut_ms {
        let end = gst::ClockTime::from_mseconds(cut);
        let keep = move |pts: gst::ClockTime| (pts < end).then_some(pts);
        let mut cutters = vec!["vq"];
        if !plan.add_silence {
            cutters.push("aq");
        }
        for name in cutters {
            let pad = element(&running.0, name)?.static_pad("src").ok_or_else(|| ToolError::Gst(format!("{name} without a src pad")))?;
            retime(&pad, 1.0, keep);
        }
    }
    let whole = total_ms.max(1);
    play(&running, cancel, &mut |at| progress(Progress { done_ms: at.min(whole), total_ms: whole }))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn measured(width: u32, height: u32, fps: f64, seconds: f64, lufs: f64, peak: f64) -> Measurement {
        Measurement {
            container: "mp4".into(),
            video_codec: Some("h264".into()),
            h264_profile: Some("high".into()),
            h264_level: Some("4".into()),
            width,
            height,
            turn: 0,
            fps,
            video_kbps: 1000,
            seconds,
            audio_codec: Some("aac".into()),
            loudness_lufs: Some(lufs),
            true_peak_dbtp: Some(peak),
            file_bytes: 1000,
            seam: Default::default(),
        }
    }

    #[test]
    fn the_plan_changes_only_what_is_broken() {
        let cu = DeliveryProfile::for_variant("cu");
        let fine = plan(&cu, &measured(720, 1280, 25.0, 20.0, -16.0, -3.0));
        assert_eq!((fine.width, fine.height, fine.fps, fine.cut_ms, fine.gain_db, fine.clip), (720, 1280, None, None, 0.0, None));
        let landscape = plan(&cu, &measured(1920, 1080, 60.0, 40.0, -8.0, -0.5));
        assert_eq!((landscape.width, landscape.height, landscape.fps, landscape.cut_ms), (720, 1280, Some(30), Some(30_000)));
        assert!((landscape.gain_db + 8.0).abs() < 1e-9, "{}", landscape.gain_db);
        let qs = DeliveryProfile::for_variant("qs");
        assert_eq!((plan(&qs, &measured(1280, 720, 25.0, 9.0, -16.0, -3.0)).width, 1280), (1280, 1280));
        assert_eq!(plan(&qs, &measured(640, 360, 25.0, 9.0, -16.0, -3.0)).height, 720);
    }

    #[test]
    fn a_peaky_sound_is_turned_down_or_clipped() {
        let qs = DeliveryProfile::for_variant("qs");
        // In the window but over the ceiling: turned down while it stays in the window.
        assert_eq!(gain(&qs, -15.0, 0.0), (-2.5, None));
        // Too quiet with loud peaks: no gain does both, so the peaks are clipped.
        let (g, clip) = gain(&qs, -30.0, -6.0);
        assert!((g - 12.5).abs() < 1e-9 && clip.is_some_and(|c| c < 1.0));
    }
}
