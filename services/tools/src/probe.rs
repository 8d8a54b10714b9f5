//! What a tool needs to know of its input before it starts: length, size and streams, read by the
//! GStreamer Discoverer from the file's headers and caps.

use std::path::Path;

use gstreamer as gst;
use gstreamer_pbutils as pbutils;
use gstreamer_pbutils::prelude::*;

use crate::error::ToolError;
use crate::orientation::Orientation;

/// An input's length, size and streams.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct Facts {
    /// Length, milliseconds.
    pub duration_ms: u64,
    /// File size, bytes.
    pub bytes: u64,
    /// Whether it has sound.
    pub audio: bool,
    /// The picture's width, height (as it is shown: a clip stored on its side has them swapped)
    /// and frame rate (0 when variable), if it has one.
    pub video: Option<(u32, u32, f64)>,
    /// How the stored pictures are turned to be shown.
    pub orientation: Orientation,
    /// How the pictures are coded, where a tool can copy them as they are.
    pub coding: Coding,
}

/// The coding of a file's pictures, as far as a tool that copies them cares.
#[derive(Debug, Clone, Copy, PartialEq, Eq, Default)]
pub enum Coding {
    /// H.264 (`video/x-h264`).
    H264,
    /// H.265 (`video/x-h265`).
    H265,
    /// Anything else, or no pictures.
    #[default]
    Other,
}

/// Seconds the Discoverer may take on one file.
const PROBE_TIMEOUT_S: u64 = 30;

/// Reads the facts of the media file at `path`.
pub fn probe(path: &Path) -> Result<Facts, ToolError> {
    gst::init()?;
    let bytes = std::fs::metadata(path)?.len();
    let uri = crate::gst_run::file_uri(path)?;
    let disc = pbutils::Discoverer::new(gst::ClockTime::from_seconds(PROBE_TIMEOUT_S))?;
    let info = disc.discover_uri(&uri).map_err(|e| ToolError::NotMedia(e.message().to_owned()))?;
    if info.result() == pbutils::DiscovererResult::Timeout {
        return Err(ToolError::NotMedia(format!("the file could not be read within {PROBE_TIMEOUT_S} s")));
    }
    let stream = info.video_streams().into_iter().find(|v| !v.is_image());
    let orientation = stream
        .as_ref()
        .and_then(|v| v.tags())
        .and_then(|t| t.get::<gst::tags::ImageOrientation>().map(|o| Orientation::from_tag(o.get())))
        .unwrap_or_default();
    let coding = match stream.as_ref().and_then(|v| v.caps()).and_then(|c| c.structure(0).map(|s| s.name().to_string())).as_deref() {
        Some("video/x-h264") => Coding::H264,
        Some("video/x-h265") => Coding::H265,
        _ => Coding::Other,
    };
    let video = stream.map(|v| {
        let rate = v.framerate();
        let fps = if rate.denom() > 0 { f64::from(rate.numer()) / f64::from(rate.denom()) } else { 0.0 };
        if orientation.on_side() { (v.height(), v.width(), fps) } else { (v.width(), v.height(), fps) }
    });
    let audio = !info.audio_streams().is_empty();
    if video.is_none() && !audio {
        return Err(ToolError::NotMedia("no sound or picture in the file".to_owned()));
    }
    Ok(Facts {
        duration_ms: info.duration().map_or(0, gst::ClockTime::mseconds),
        bytes,
        audio,
        video,
        orientation,
        coding,
    })
}

/// The width and height of the still picture at `path`; why not, in words for the user, when it
/// is not one (a video, a sound, a file GStreamer cannot read).
pub fn picture_size(path: &Path) -> Result<(u32, u32), String> {
    let failed = |e: &dyn std::fmt::Display| format!("the material could not be read as a picture: {e}");
    gst::init().map_err(|e| failed(&e))?;
    let uri = crate::gst_run::file_uri(path).map_err(|e| failed(&e))?;
    let disc = pbutils::Discoverer::new(gst::ClockTime::from_seconds(PROBE_TIMEOUT_S)).map_err(|e| failed(&e))?;
    let info = disc.discover_uri(&uri).map_err(|e| failed(&e.message()))?;
    if !info.audio_streams().is_empty() || info.video_streams().iter().any(|v| !v.is_image()) {
        return Err("the material is not a still picture: choose a picture (PNG, JPEG, …)".to_owned());
    }
    match info.video_streams().first() {
        Some(v) if v.width() > 0 && v.height() > 0 => Ok((v.width(), v.height())),
        _ => Err("the material is not a picture the farm can read".to_owned()),
    }
}
