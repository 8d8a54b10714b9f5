//! Probing media with the GStreamer Discoverer: duration, size, frame rate and streams.
//!
//! Pipeline (inside the Discoverer): `uridecodebin` prerolled to read caps and tags, then `Null`.

use crate::error::MediaError;
use crate::gst_init;
use gstreamer as gst;
use gstreamer_pbutils as pbutils;
use gstreamer_pbutils::prelude::DiscovererStreamInfoExt;
use std::path::Path;

/// What a media file holds.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct MediaInfo {
    /// Duration in seconds (0 for a still picture).
    pub duration: f64,
    /// Picture width in pixels as shown (after the file's turn), 0 without video.
    pub width: u32,
    /// Picture height in pixels as shown, 0 without video.
    pub height: u32,
    /// Frame rate in frames per second, 0 when unknown or still.
    pub fps: f64,
    /// Whether the file has a video (or picture) stream.
    pub has_video: bool,
    /// Whether the file has an audio stream.
    pub has_audio: bool,
    /// Audio sample rate, 0 without audio.
    pub sample_rate: u32,
}

/// Returns what `path` holds, giving up after `timeout_s` seconds.
pub fn probe(path: &Path, timeout_s: u64) -> Result<MediaInfo, MediaError> {
    gst_init()?;
    if !path.is_file() {
        return Err(MediaError::Missing(path.display().to_string()));
    }
    let uri = file_uri(path)?;
    let disc = pbutils::Discoverer::new(gst::ClockTime::from_seconds(timeout_s.max(1)))?;
    let info = disc.discover_uri(&uri).map_err(|e| {
        if e.to_string().to_lowercase().contains("timeout") {
            MediaError::Timeout(timeout_s)
        } else {
            MediaError::Pipeline(e.to_string())
        }
    })?;
    let mut out = MediaInfo {
        duration: info.duration().map_or(0.0, |d| d.nseconds() as f64 / 1e9),
        ..MediaInfo::default()
    };
    if let Some(v) = info.video_streams().first() {
        out.has_video = true;
        // As shown: a phone's portrait clip is stored on its side, and the decoder turns it
        // upright (`decode.rs`).
        let turn = v.tags().and_then(|t| t.get::<gst::tags::ImageOrientation>().map(|o| turn_of(o.get()))).unwrap_or(0);
        (out.width, out.height) = if turn % 180 == 90 { (v.height(), v.width()) } else { (v.width(), v.height()) };
        let r = v.framerate();
        if r.denom() != 0 {
            out.fps = f64::from(r.numer()) / f64::from(r.denom());
        }
    }
    if let Some(a) = info.audio_streams().first() {
        out.has_audio = true;
        out.sample_rate = a.sample_rate();
    }
    Ok(out)
}

/// Clockwise degrees an `image-orientation` tag (`rotate-90`, `flip-rotate-270`, …) turns the
/// pictures by to show them: 0, 90, 180 or 270; 0 for a value GStreamer's `videoflip` would not turn.
pub fn turn_of(tag: &str) -> u16 {
    let rest = tag.strip_prefix("flip-").unwrap_or(tag);
    rest.strip_prefix("rotate-")
        .and_then(|d| d.parse::<u16>().ok())
        .filter(|d| matches!(d, 90 | 180 | 270))
        .unwrap_or(0)
}

/// Returns the `file://` URI of a path, made absolute first.
pub fn file_uri(path: &Path) -> Result<String, MediaError> {
    let abs = std::path::absolute(path)?;
    gst::glib::filename_to_uri(&abs, None)
        .map(|u| u.to_string())
        .map_err(|e| MediaError::Gst(e.to_string()))
}
