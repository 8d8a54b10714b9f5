//! Running one GStreamer pipeline to its end: built from a description, its file elements pointed
//! at the paths (never spliced into the description), driven to end-of-stream while its position
//! is reported and the cancel flag is looked at, and returned to `Null` on every exit.

use std::path::Path;
use std::sync::atomic::{AtomicBool, Ordering};

use gstreamer as gst;
use gstreamer::glib;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;

use crate::error::ToolError;

/// The decoded pictures of the `decodebin` named `d`, turned upright as the file's orientation
/// says (a phone keeps a portrait clip on its side and a player turns it): each tool works on the
/// pictures a user saw, and takes its boxes on them (`orientation`). The conversion before it passes
/// the decoder's format through, except one videoflip lacks (A420, a VP8 clip with alpha).
pub const PICTURES: &str = "d. ! video/x-raw ! videoconvert ! videoflip video-direction=auto";

/// How often the bus, the position and the cancel flag are looked at.
const POLL: gst::ClockTime = gst::ClockTime::from_mseconds(100);

/// Owns a pipeline and sets it to `Null` when dropped, whatever path the caller leaves by.
pub struct Running(pub gst::Pipeline);

impl Drop for Running {
    fn drop(&mut self) {
        let _ = self.0.set_state(gst::State::Null);
    }
}

/// Returns the `file://` URI of a path, made absolute first.
pub fn file_uri(path: &Path) -> Result<String, ToolError> {
    let abs = std::path::absolute(path)?;
    Ok(glib::filename_to_uri(&abs, None)?.to_string())
}

/// Builds the pipeline of `description`; its `src` element reads `input` and its `sink` element
/// writes `output`, where given.
pub fn launch(description: &str, input: Option<&Path>, output: Option<&Path>) -> Result<Running, ToolError> {
    gst::init()?;
    let pipeline = gst::parse::launch(description)?
        .downcast::<gst::Pipeline>()
        .map_err(|_| ToolError::Gst("the description is not a pipeline".to_owned()))?;
    let running = Running(pipeline);
    if let Some(input) = input {
        element(&running.0, "src")?.set_property("location", input.to_string_lossy().to_string());
    }
    if let Some(out) = output {
        element(&running.0, "sink")?.set_property("location", out.to_string_lossy().to_string());
    }
    Ok(running)
}

/// The pipeline's element named `name`.
pub fn element(pipeline: &gst::Pipeline, name: &str) -> Result<gst::Element, ToolError> {
    pipeline.by_name(name).ok_or_else(|| ToolError::Gst(format!("the pipeline has no element {name}")))
}

/// The pipeline's appsink named `name`.
pub fn app_sink(pipeline: &gst::Pipeline, name: &str) -> Result<gst_app::AppSink, ToolError> {
    element(pipeline, name)?.downcast::<gst_app::AppSink>().map_err(|_| ToolError::Gst(format!("{name} is not an appsink")))
}

/// Maps an error message of the bus: a stream GStreamer cannot type or demux is not media.
pub fn bus_error(e: &gst::message::Error) -> ToolError {
    let err = e.error();
    let not_media = err.matches(gst::StreamError::TypeNotFound)
        || err.matches(gst::StreamError::WrongType)
        || err.matches(gst::StreamError::Demux)
        || err.matches(gst::StreamError::CodecNotFound);
    if not_media {
        ToolError::NotMedia(err.message().to_owned())
    } else {
        let from = e.src().map(|s| s.name().to_string()).unwrap_or_default();
        ToolError::Failed(format!("{from}: {}", err.message()))
    }
}

/// Plays the pipeline to end-of-stream, calling `position` with its position in milliseconds
/// every poll and once at the end; stops with [`ToolError::Cancelled`] once `cancel` is set.
pub fn play(running: &Running, cancel: &AtomicBool, position: &mut dyn FnMut(u64)) -> Result<(), ToolError> {
    let pipeline = &running.0;
    let bus = pipeline.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
    pipeline.set_state(gst::State::Playing)?;
    loop {
        // Looked at before the bus: a run shorter than one poll still honours a cancel.
        if cancel.load(Ordering::Relaxed) {
            return Err(ToolError::Cancelled);
        }
        match bus.timed_pop_filtered(POLL, &[gst::MessageType::Eos, gst::MessageType::Error]).as_ref().map(|m| m.view()) {
            Some(gst::MessageView::Eos(_)) => break,
            Some(gst::MessageView::Error(e)) => return Err(bus_error(e)),
            _ => {}
        }
        if let Some(at) = pipeline.query_position::<gst::ClockTime>() {
            position(at.mseconds());
        }
    }
    // A run shorter than one poll ends before any position was read: its end is still progress.
    if let Some(at) = pipeline.query_position::<gst::ClockTime>() {
        position(at.mseconds());
    }
    pipeline.set_state(gst::State::Null)?;
    Ok(())
}

/// The next sample of `sink` in a playing pipeline, or none at end-of-stream; stops with
/// [`ToolError::Cancelled`] once `cancel` is set and with the bus's error when the pipeline fails.
pub fn pull(bus: &gst::Bus, sink: &gst_app::AppSink, cancel: &AtomicBool) -> Result<Option<gst::Sample>, ToolError> {
    loop {
        if cancel.load(Ordering::Relaxed) {
            return Err(ToolError::Cancelled);
        }
        if let Some(msg) = bus.pop_filtered(&[gst::MessageType::Error])
            && let gst::MessageView::Error(e) = msg.view()
        {
            return Err(bus_error(e));
        }
        match sink.try_pull_sample(gst::ClockTime::from_mseconds(100)) {
            Some(sample) => return Ok(Some(sample)),
            None if sink.is_eos() => return Ok(None),
            None => {}
        }
    }
}

/// Rewrites the buffers and segments leaving `pad`: `map` gives a buffer's new start from its
/// stream time (the clip's own timeline: a file whose first picture is stamped later, behind an
/// edit list, still starts at 0), or `None` to drop it; durations are divided by `scale`. Segments
/// start at zero (the times `map` gives) and lose their stop, which the new times may pass.
pub fn retime(pad: &gst::Pad, scale: f64, map: impl Fn(gst::ClockTime) -> Option<gst::ClockTime> + Send + Sync + 'static) {
    let upstream = std::sync::Mutex::new(None::<gst::FormattedSegment<gst::ClockTime>>);
    pad.add_probe(gst::PadProbeType::BUFFER | gst::PadProbeType::EVENT_DOWNSTREAM, move |_, info| {
        match &mut info.data {
            Some(gst::PadProbeData::Buffer(buffer)) => {
                let Some(pts) = buffer.pts() else { return gst::PadProbeReturn::Ok };
                let at = upstream.lock().ok().and_then(|s| s.as_ref().and_then(|s| s.to_stream_time(pts))).unwrap_or(pts);
                let Some(new) = map(at) else { return gst::PadProbeReturn::Drop };
                let b = buffer.make_mut();
                b.set_pts(new);
                b.set_dts(gst::ClockTime::NONE);
                if let Some(d) = b.duration() {
                    b.set_duration(gst::ClockTime::from_nseconds((d.nseconds() as f64 / scale).round() as u64));
                }
            }
            Some(gst::PadProbeData::Event(event)) if event.type_() == gst::EventType::Segment => {
                let time = match event.view() {
                    gst::EventView::Segment(s) => s.segment().clone().downcast::<gst::ClockTime>().ok(),
                    _ => None,
                };
                if let Some(mut seg) = time {
                    if let Ok(mut kept) = upstream.lock() {
                        *kept = Some(seg.clone());
                    }
                    seg.set_start(gst::ClockTime::ZERO);
                    seg.set_time(gst::ClockTime::ZERO);
                    seg.set_position(gst::ClockTime::ZERO);
                    seg.set_stop(gst::ClockTime::NONE);
                    seg.set_duration(gst::ClockTime::NONE);
                    *event = gst::event::Segment::new(&seg);
                }
            }
            _ => {}
        }
        gst::PadProbeReturn::Ok
    });
}

/// Makes the `decodebin` named `decodebin` leave the pictures encoded (exposed after their parser,
/// left unlinked) for a tool that uses only the sound: decoding them would cost most of its time.
/// Without the enum type (it is registered with decodebin), the pictures are decoded: slower,
/// still right.
pub fn sound_only(pipeline: &gst::Pipeline, decodebin: &str) -> Result<(), ToolError> {
    let decodebin = element(pipeline, decodebin)?;
    let Some(class) = glib::Type::from_name("GstAutoplugSelectResult").and_then(glib::EnumClass::with_type) else {
        return Ok(());
    };
    let (Some(try_), Some(expose)) = (class.value_by_nick("try").copied(), class.value_by_nick("expose").copied()) else {
        return Ok(());
    };
    decodebin.connect("autoplug-select", false, move |args| {
        let video_decoder = args
            .get(3)
            .and_then(|v| v.get::<gst::ElementFactory>().ok())
            .and_then(|f| f.metadata(gst::ELEMENT_METADATA_KLASS).map(str::to_owned))
            .is_some_and(|k| k.contains("Decoder") && k.contains("Video"));
        let pick = if video_decoder { &expose } else { &try_ };
        Some(pick.to_value(&class))
    });
    Ok(())
}
