//! The picture half of the loop seam: how far the last frame is from the first, as the mean
//! absolute luma difference (0 the same picture, 1 black against white).
//!
//! Pipeline: `filesrc ! decodebin ! videoconvert ! video/x-raw,format=GRAY8 ! appsink`, with
//! decodebin leaving the sound encoded (its pad drained by a `fakesink`). The preroll gives the
//! first frame; an accurate seek to just before the end, played to end-of-stream, gives the last.
//! Only the group of pictures around the end is decoded (from its keyframe), never the whole video.

use crate::ConformError;
use crate::gst_util::{
    Kind, PipelineGuard, bus_error, drain, leave_encoded, make, pull, wait_state,
};
use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;
use gstreamer_video as gst_video;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, Ordering};

/// How far before the end the seek lands, seconds: the last frame is the last one decoded after it.
const END_MARGIN_S: f64 = 0.5;

/// A frame's luma plane, packed without stride padding.
struct Luma {
    width: usize,
    height: usize,
    pixels: Vec<u8>,
}

/// Returns the picture jump of `path`; `None` without a video stream. Gives up after `timeout_s`
/// seconds without progress or when `stop` is set.
pub fn picture_jump(
    path: &Path,
    timeout_s: u64,
    stop: &AtomicBool,
) -> Result<Option<f64>, ConformError> {
    let pipeline = gst::Pipeline::new();
    let _guard = PipelineGuard(pipeline.clone());
    let src = make("filesrc")?;
    src.set_property("location", path.to_string_lossy().to_string());
    let decode = make("decodebin")?;
    leave_encoded(&decode, Kind::Audio);
    let convert = make("videoconvert")?;
    let caps = gst::Caps::builder("video/x-raw")
        .field("format", "GRAY8")
        .build();
    // Two buffers: the frames after the seek are dropped but the last, so nothing needs a queue.
    let sink = gst_app::AppSink::builder()
        .caps(&caps)
        .sync(false)
        .max_buffers(2)
        .build();
    pipeline.add_many([&src, &decode, &convert, sink.upcast_ref()])?;
    src.link(&decode)?;
    convert.link(&sink)?;

    let video_linked = Arc::new(AtomicBool::new(false));
    {
        let (pipeline, convert, video_linked) =
            (pipeline.downgrade(), convert.clone(), video_linked.clone());
        decode.connect_pad_added(move |_, pad| {
            let Some(pipeline) = pipeline.upgrade() else {
                return;
            };
            let caps = pad.current_caps().unwrap_or_else(|| pad.query_caps(None));
            let raw_video = caps
                .structure(0)
                .is_some_and(|s| s.name().starts_with("video/x-raw"));
            if raw_video && !video_linked.swap(true, Ordering::SeqCst) {
                if let Some(sinkpad) = convert.static_pad("sink") {
                    let _ = pad.link(&sinkpad);
                }
            } else {
                let _ = drain(&pipeline, pad, None);
            }
        });
    }
    let absent = Arc::new(AtomicBool::new(false));
    {
        let (absent, video_linked) = (absent.clone(), video_linked.clone());
        decode.connect_no_more_pads(move |_| {
            absent.store(!video_linked.load(Ordering::SeqCst), Ordering::SeqCst)
        });
    }

    pipeline.set_state(gst::State::Paused).map_err(|_| {
        bus_error(&pipeline)
            .unwrap_or_else(|| ConformError::NotMedia("the file could not be opened".to_owned()))
    })?;
    if !wait_state(&pipeline, timeout_s, &absent, stop)? {
        return Ok(None);
    }
    let Some(first) = sink.try_pull_preroll(gst::ClockTime::from_seconds(timeout_s)) else {
        return bus_error(&pipeline).map_or(Ok(None), Err);
    };
    let first = luma(&first)?;

    let duration = sink
        .query_duration::<gst::ClockTime>()
        .unwrap_or(gst::ClockTime::ZERO);
    let margin = gst::ClockTime::from_nseconds((END_MARGIN_S * 1e9) as u64);
    let mut last = play_from(
        &pipeline,
        &sink,
        duration.saturating_sub(margin),
        timeout_s,
        stop,
    )?;
    if last.is_none() {
        // The seek landed past the video's end (a sound track longer than the pictures): decode all.
        last = play_from(&pipeline, &sink, gst::ClockTime::ZERO, timeout_s, stop)?;
    }
    let Some(last) = last else { return Ok(None) };
    Ok(Some(difference(&first, &luma(&last)?)))
}

/// Seeks to `from` (accurately, from the keyframe before it) and plays to the end, returning the
/// last frame that came.
fn play_from(
    pipeline: &gst::Pipeline,
    sink: &gst_app::AppSink,
    from: gst::ClockTime,
    timeout_s: u64,
    stop: &AtomicBool,
) -> Result<Option<gst::Sample>, ConformError> {
    pipeline
        .set_state(gst::State::Paused)
        .map_err(|_| ConformError::Decode("could not pause".to_owned()))?;
    pipeline
        .seek_simple(gst::SeekFlags::FLUSH | gst::SeekFlags::ACCURATE, from)
        .map_err(|_| ConformError::Decode("the file cannot seek".to_owned()))?;
    wait_state(pipeline, timeout_s, &AtomicBool::new(false), stop)?;
    pipeline
        .set_state(gst::State::Playing)
        .map_err(|_| ConformError::Decode("could not play".to_owned()))?;
    let mut last = None;
    while let Some(sample) = pull(pipeline, sink, timeout_s, stop)? {
        last = Some(sample);
    }
    Ok(last)
}

/// Returns the sample's luma plane, honouring its stride.
fn luma(sample: &gst::Sample) -> Result<Luma, ConformError> {
    let bad = || ConformError::Decode("a frame without its picture".to_owned());
    let caps = sample.caps().ok_or_else(bad)?;
    let info = gst_video::VideoInfo::from_caps(caps).map_err(|_| bad())?;
    let buffer = sample.buffer().ok_or_else(bad)?;
    let map = buffer.map_readable().map_err(|_| bad())?;
    let (width, height) = (info.width() as usize, info.height() as usize);
    let stride = usize::try_from(info.stride()[0]).map_err(|_| bad())?;
    let offset = info.offset()[0];
    let data = map.as_slice();
    let mut pixels = Vec::with_capacity(width * height);
    for row in 0..height {
        let start = offset + row * stride;
        let line = data.get(start..start + width).ok_or_else(bad)?;
        pixels.extend_from_slice(line);
    }
    Ok(Luma {
        width,
        height,
        pixels,
    })
}

/// Returns the mean absolute luma difference of two frames, 0..1 (1 when their sizes differ).
fn difference(a: &Luma, b: &Luma) -> f64 {
    if a.width != b.width || a.height != b.height || a.pixels.is_empty() {
        return 1.0;
    }
    let sum: u64 = a
        .pixels
        .iter()
        .zip(&b.pixels)
        .map(|(&x, &y)| u64::from(x.abs_diff(y)))
        .sum();
    sum as f64 / (a.pixels.len() as f64 * 255.0)
}
