//! Measuring a finished file: the Discoverer's facts, the sound pass and the frame pass, run side
//! by side (each is mostly one decoder's work) and joined into one `Measurement`.

use crate::ConformError;
use crate::frames::picture_jump;
use crate::gst_util::init;
use crate::index::index_present;
use crate::loudness::{SoundPass, sound_pass};
use crate::probe::{Facts, probe};
use serde::{Deserialize, Serialize};
use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

/// A pass that makes no progress for this long has stalled (a damaged file), seconds. A healthy
/// 1080×1920 file prerolls in well under a second; decodebin can swallow a demuxer's error when
/// it comes while the demuxer is still being plugged (the Discoverer shares that race), and then
/// only this limit ends the wait.
const TIMEOUT_S: u64 = 10;

/// What a file measures; the `measured` object of docs/ringtone.md.
#[derive(Debug, Clone, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Measurement {
    /// The container: `mp4`, `mov`, `mkv`, …
    pub container: String,
    /// The first video stream's codec (`h264`, …); `None` without video.
    pub video_codec: Option<String>,
    /// The H.264 profile as the stream's caps name it (`constrained-baseline`, `main`, `high`, …).
    pub h264_profile: Option<String>,
    /// The H.264 level as the stream's caps name it (`3.1`, `4`, …).
    pub h264_level: Option<String>,
    /// Picture width, pixels (0 without video).
    pub width: u32,
    /// Picture height, pixels (0 without video).
    pub height: u32,
    /// Clockwise degrees the track header turns the pictures by (0: stored upright). Width and
    /// height are the pictures as shown.
    #[serde(default)]
    pub turn: u16,
    /// Frames per second (0 when the stream declares none).
    pub fps: f64,
    /// The video stream's average bitrate, kbit/s.
    pub video_kbps: u32,
    /// Duration, seconds.
    pub seconds: f64,
    /// The first audio stream's codec (`aac`, …); `None` without audio.
    pub audio_codec: Option<String>,
    /// Integrated loudness (EBU R128), LUFS; silence reads −70, the absolute gate.
    pub loudness_lufs: Option<f64>,
    /// True peak over all channels, dBTP.
    pub true_peak_dbtp: Option<f64>,
    /// The file's size, bytes.
    pub file_bytes: u64,
    /// The loop seam; reported beside `measured`, not inside it.
    #[serde(skip)]
    pub seam: Seam,
}

/// How smoothly the end loops back to the start (the ringtone repeats while the phone rings).
#[derive(Debug, Clone, Copy, Default, PartialEq, Serialize, Deserialize)]
#[serde(rename_all = "camelCase")]
pub struct Seam {
    /// Mean absolute luma difference between the last and the first frame, 0..1.
    pub picture_jump: Option<f64>,
    /// RMS level difference between the last and the first 50 ms of sound, dB.
    pub sound_jump_db: Option<f64>,
}

/// Returns the measurement of the media file at `path`. Blocking (a few hundred ms to a few
/// seconds): async callers run it under `spawn_blocking`.
pub fn measure(path: &Path) -> Result<Measurement, ConformError> {
    let meta = std::fs::metadata(path).map_err(|source| ConformError::Unreadable {
        path: path.display().to_string(),
        source,
    })?;
    if !meta.is_file() {
        return Err(ConformError::NotMedia(format!(
            "{} is not a file",
            path.display()
        )));
    }
    if meta.len() == 0 {
        return Err(ConformError::NotMedia("the file is empty".to_owned()));
    }
    let unreadable = |source| ConformError::Unreadable {
        path: path.display().to_string(),
        source,
    };
    if !index_present(path).map_err(unreadable)? {
        return Err(ConformError::NotMedia(
            "an MP4 cut before its index (no whole moov box)".to_owned(),
        ));
    }
    init()?;
    // The Discoverer's error stops the other passes at once: decodebin may keep a demuxer's
    // error to itself, which would leave them waiting for their time limit.
    let stop = AtomicBool::new(false);
    let (facts, sound, jump) = std::thread::scope(|s| {
        let sound = s.spawn(|| sound_pass(path, TIMEOUT_S, &stop));
        let jump = s.spawn(|| picture_jump(path, TIMEOUT_S, &stop));
        let facts = probe(path, TIMEOUT_S);
        if facts.is_err() {
            stop.store(true, Ordering::SeqCst);
        }
        let panicked = || ConformError::Decode("a measuring thread stopped".to_owned());
        (
            facts,
            sound.join().unwrap_or_else(|_| Err(panicked())),
            jump.join().unwrap_or_else(|_| Err(panicked())),
        )
    });
    // The Discoverer's verdict comes first: for a file that is not media, it says so best.
    let facts = facts?;
    Ok(assemble(facts, sound?, jump?, meta.len()))
}

/// Joins the passes' results into one measurement.
fn assemble(
    facts: Facts,
    sound: SoundPass,
    picture_jump: Option<f64>,
    file_bytes: u64,
) -> Measurement {
    let video = facts.video.unwrap_or_default();
    let has_video = !video.codec.is_empty();
    let is_h264 = video.codec == "h264";
    // The bitrate is the video stream's own bytes (its demuxed access units, counted in the sound
    // pass) over the duration: what the carrier's cap is about. The bitrate tag is only the
    // fallback, as it is whatever the muxer or the encoder chose to write.
    let bits_per_s = match sound.video_bytes {
        Some(bytes) if facts.seconds > 0.0 => bytes as f64 * 8.0 / facts.seconds,
        _ => f64::from(video.tag_bitrate),
    };
    Measurement {
        container: facts.container,
        video_codec: has_video.then(|| video.codec.clone()),
        h264_profile: if is_h264 { video.profile } else { None },
        h264_level: if is_h264 { video.level } else { None },
        width: video.width,
        height: video.height,
        turn: video.turn,
        fps: video.fps,
        video_kbps: (bits_per_s / 1000.0).round() as u32,
        seconds: facts.seconds,
        audio_codec: facts.audio_codec,
        loudness_lufs: sound.sound.map(|s| s.loudness_lufs),
        true_peak_dbtp: sound.sound.map(|s| s.true_peak_dbtp),
        file_bytes,
        seam: Seam {
            picture_jump,
            sound_jump_db: sound.sound.map(|s| s.jump_db),
        },
    }
}
