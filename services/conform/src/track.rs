//! The climax of a music file: its sound decoded once, mixed to one channel at a low rate (energy
//! and onsets need no treble), then handed to [`crate::climax`].
//!
//! Pipeline: `filesrc ! decodebin ! audioconvert ! audioresample !
//! audio/x-raw,format=F32LE,channels=1,rate=8000 ! appsink`; a video stream, if any, is drained.

use crate::ConformError;
use crate::gst_util::{PipelineGuard, bus_error, drain, init, make, pull, wait_state};
use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// The analysis rate, Hz: the 50 ms blocks of the energy curve need no more.
const RATE: u32 = 8000;

/// Where the strongest section of a track lies.
#[derive(Debug, Clone, Copy, PartialEq)]
pub struct ClimaxCut {
    /// The section's start in the track, seconds.
    pub start_s: f64,
    /// The track's decoded length, seconds.
    pub track_s: f64,
}

/// Decodes the sound of the file at `path` and returns where its strongest `seconds`-long
/// section starts; a file without sound is `NotMedia`. Gives up after `timeout_s` without progress.
pub fn climax_of_file(path: &Path, seconds: f64, timeout_s: u64) -> Result<ClimaxCut, ConformError> {
    init()?;
    let samples = decode_mono(path, timeout_s)?;
    let track_s = samples.len() as f64 / f64::from(RATE);
    Ok(ClimaxCut { start_s: crate::climax(&samples, RATE, 1, seconds), track_s })
}

/// Returns the file's sound as mono samples at [`RATE`].
fn decode_mono(path: &Path, timeout_s: u64) -> Result<Vec<f32>, ConformError> {
    let meta = std::fs::metadata(path)
        .map_err(|source| ConformError::Unreadable { path: path.display().to_string(), source })?;
    if meta.len() == 0 {
        return Err(ConformError::NotMedia("the file is empty".to_owned()));
    }
    let pipeline = gst::Pipeline::new();
    let guard = PipelineGuard(pipeline.clone());
    let src = make("filesrc")?;
    src.set_property("location", path.to_string_lossy().to_string());
    let decode = make("decodebin")?;
    let convert = make("audioconvert")?;
    let resample = make("audioresample")?;
    let caps = gst::Caps::builder("audio/x-raw")
        .field("format", "F32LE")
        .field("layout", "interleaved")
        .field("channels", 1i32)
        .field("rate", RATE as i32)
        .build();
    let sink = gst_app::AppSink::builder().caps(&caps).sync(false).build();
    pipeline.add_many([&src, &decode, &convert, &resample, sink.upcast_ref()])?;
    src.link(&decode)?;
    gst::Element::link_many([&convert, &resample, sink.upcast_ref()])?;

    let linked = Arc::new(AtomicBool::new(false));
    {
        let (pipeline, convert, linked) = (pipeline.downgrade(), convert.clone(), linked.clone());
        decode.connect_pad_added(move |_, pad| {
            let Some(pipeline) = pipeline.upgrade() else {
                return;
            };
            let caps = pad.current_caps().unwrap_or_else(|| pad.query_caps(None));
            let audio = caps.structure(0).is_some_and(|s| s.name().starts_with("audio/x-raw"));
            if audio && !linked.swap(true, Ordering::SeqCst) {
                if let Some(sinkpad) = convert.static_pad("sink") {
                    let _ = pad.link(&sinkpad);
                }
                return;
            }
            let _ = drain(&pipeline, pad, None);
        });
    }
    let absent = Arc::new(AtomicBool::new(false));
    {
        let (absent, linked) = (absent.clone(), linked.clone());
        decode.connect_no_more_pads(move |_| absent.store(!linked.load(Ordering::SeqCst), Ordering::SeqCst));
    }
    let stop = AtomicBool::new(false);
    pipeline.set_state(gst::State::Paused).map_err(|_| {
        bus_error(&pipeline).unwrap_or_else(|| ConformError::NotMedia("the file could not be opened".to_owned()))
    })?;
    if !wait_state(&pipeline, timeout_s, &absent, &stop)? {
        return Err(ConformError::NotMedia("the file has no sound".to_owned()));
    }
    pipeline.set_state(gst::State::Playing).map_err(|_| {
        bus_error(&pipeline).unwrap_or_else(|| ConformError::Decode("could not play".to_owned()))
    })?;
    let mut samples = Vec::new();
    while let Some(sample) = pull(&pipeline, &sink, timeout_s, &stop)? {
        let Some(buffer) = sample.buffer() else {
            continue;
        };
        let Ok(map) = buffer.map_readable() else {
            continue;
        };
        samples.extend(map.as_slice().chunks_exact(4).map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])));
    }
    drop(guard);
    Ok(samples)
}
