//! What the GStreamer Discoverer reads from the file's headers and caps: container, codecs,
//! H.264 profile and level, size, frame rate and duration.
//!
//! Pipeline (inside the Discoverer): `uridecodebin` prerolled to read caps and tags, then `Null`.

use crate::ConformError;
use crate::gst_util::{file_uri, typed};
use gstreamer as gst;
use gstreamer_pbutils as pbutils;
use gstreamer_pbutils::prelude::*;
use std::path::Path;

/// The facts read from the file's caps.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct Facts {
    /// The container: `mp4`, `mov`, `mkv`, … (the caps name where we know no short one).
    pub container: String,
    /// The file's duration, seconds.
    pub seconds: f64,
    /// The first video stream, if any.
    pub video: Option<VideoFacts>,
    /// The first audio stream's codec, if any.
    pub audio_codec: Option<String>,
}

/// The facts of a video stream.
#[derive(Debug, Clone, Default, PartialEq)]
pub struct VideoFacts {
    /// The codec: `h264`, `h265`, `vp9`, …
    pub codec: String,
    /// The H.264 profile as the caps name it (`constrained-baseline`, `main`, `high`, …).
    pub profile: Option<String>,
    /// The H.264 level as the caps name it (`3.1`, `4`, `5.1`, …).
    pub level: Option<String>,
    /// Picture width as shown, pixels (a clip stored on its side has it swapped with the height).
    pub width: u32,
    /// Picture height as shown, pixels.
    pub height: u32,
    /// Clockwise degrees the file's track header turns its pictures by to show them (0, 90, 180
    /// or 270): a phone stores a portrait clip on its side.
    pub turn: u16,
    /// Frames per second, 0 when the stream declares none (variable rate).
    pub fps: f64,
    /// The bitrate tag in bit/s (0 when absent): the fallback when the stream's bytes are unknown.
    pub tag_bitrate: u32,
}

/// Returns what the headers of `path` declare, giving up after `timeout_s` seconds.
pub fn probe(path: &Path, timeout_s: u64) -> Result<Facts, ConformError> {
    let uri = file_uri(path)?;
    let disc = pbutils::Discoverer::new(gst::ClockTime::from_seconds(timeout_s.max(1)))
        .map_err(|e| ConformError::Gst(e.to_string()))?;
    let info = disc.discover_uri(&uri).map_err(typed)?;
    if info.result() == pbutils::DiscovererResult::Timeout {
        return Err(ConformError::Timeout(timeout_s));
    }
    let video = info.video_streams().first().map(|v| {
        let caps = v.caps();
        let s = caps.as_ref().and_then(|c| c.structure(0));
        let field = |name: &str| s.and_then(|s| s.get::<String>(name).ok());
        let rate = v.framerate();
        let turn = v
            .tags()
            .and_then(|t| t.get::<gst::tags::ImageOrientation>().map(|o| o.get().to_owned()))
            .and_then(|o| o.rsplit('-').next().and_then(|d| d.parse::<u16>().ok()))
            .filter(|d| matches!(d, 90 | 180 | 270))
            .unwrap_or(0);
        let (width, height) = if turn % 180 == 90 { (v.height(), v.width()) } else { (v.width(), v.height()) };
        VideoFacts {
            codec: s.map_or_else(String::new, video_codec),
            profile: field("profile"),
            level: field("level"),
            width,
            height,
            turn,
            fps: if rate.denom() > 0 && rate.numer() > 0 {
                f64::from(rate.numer()) / f64::from(rate.denom())
            } else {
                0.0
            },
            tag_bitrate: v.bitrate(),
        }
    });
    let audio_codec = info
        .audio_streams()
        .first()
        .and_then(|a| a.caps())
        .and_then(|c| c.structure(0).map(audio_codec));
    if video.is_none() && audio_codec.is_none() {
        return Err(ConformError::NotMedia(
            "no audio or video stream".to_owned(),
        ));
    }
    let container = info
        .stream_info()
        .and_then(|s| s.caps())
        .and_then(|c| c.structure(0).map(container))
        .unwrap_or_default();
    Ok(Facts {
        container,
        seconds: info.duration().map_or(0.0, |d| d.nseconds() as f64 / 1e9),
        video,
        audio_codec,
    })
}

/// Returns the short name of a container's caps; ISO base media (`video/quicktime`,
/// `variant=iso`) is `mp4`, Apple's own flavour `mov`.
fn container(s: &gst::StructureRef) -> String {
    match s.name().as_str() {
        "video/quicktime" => match s.get::<String>("variant").ok().as_deref() {
            Some("iso") | Some("iso-fragmented") => "mp4".to_owned(),
            Some("3gpp") => "3gp".to_owned(),
            _ => "mov".to_owned(),
        },
        "video/x-matroska" => "mkv".to_owned(),
        "video/webm" => "webm".to_owned(),
        "video/mpegts" => "ts".to_owned(),
        "video/x-msvideo" => "avi".to_owned(),
        other => other.to_owned(),
    }
}

/// Returns the short name of a video codec's caps.
fn video_codec(s: &gst::StructureRef) -> String {
    match s.name().as_str() {
        "video/x-h264" => "h264".to_owned(),
        "video/x-h265" => "h265".to_owned(),
        "video/mpeg" => format!("mpeg{}", s.get::<i32>("mpegversion").unwrap_or(1)),
        other => other
            .trim_start_matches("video/")
            .trim_start_matches("x-")
            .to_owned(),
    }
}

/// Returns the short name of an audio codec's caps; MPEG-2 and MPEG-4 AAC are both `aac`.
fn audio_codec(s: &gst::StructureRef) -> String {
    match (s.name().as_str(), s.get::<i32>("mpegversion").ok()) {
        ("audio/mpeg", Some(2 | 4)) => "aac".to_owned(),
        ("audio/mpeg", _) => "mp3".to_owned(),
        (other, _) => other
            .trim_start_matches("audio/")
            .trim_start_matches("x-")
            .to_owned(),
    }
}
