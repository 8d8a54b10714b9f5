//! GStreamer plumbing shared by the passes: start-up, element creation, a guard that returns a
//! pipeline to `Null` on every exit, bus errors, and a decodebin that leaves one kind of stream
//! encoded.

use crate::ConformError;
use gstreamer as gst;
use gstreamer::glib;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;
use std::path::Path;
use std::sync::Arc;
use std::sync::atomic::{AtomicBool, AtomicU64, Ordering};
use std::time::{Duration, Instant};

/// Initialises GStreamer (once per process; later calls are cheap).
pub fn init() -> Result<(), ConformError> {
    gst::init().map_err(|e| ConformError::Gst(e.to_string()))
}

/// Owns a pipeline and sets it to `Null` when dropped, whatever path the caller leaves by.
pub struct PipelineGuard(pub gst::Pipeline);

impl Drop for PipelineGuard {
    fn drop(&mut self) {
        let _ = self.0.set_state(gst::State::Null);
    }
}

/// Returns a new element of `factory`, or an error naming the missing plugin.
pub fn make(factory: &str) -> Result<gst::Element, ConformError> {
    gst::ElementFactory::make(factory)
        .build()
        .map_err(|_| ConformError::Gst(format!("element {factory} missing (install its plugin)")))
}

/// Returns the `file://` URI of a path, made absolute first.
pub fn file_uri(path: &Path) -> Result<String, ConformError> {
    let abs = std::path::absolute(path).map_err(|source| ConformError::Unreadable {
        path: path.display().to_string(),
        source,
    })?;
    glib::filename_to_uri(&abs, None)
        .map(|u| u.to_string())
        .map_err(|e| ConformError::Gst(e.to_string()))
}

/// Returns the first error waiting on the pipeline's bus, as a typed error: a file GStreamer
/// cannot type or demux is `NotMedia`, anything else a `Decode` failure.
pub fn bus_error(pipeline: &gst::Pipeline) -> Option<ConformError> {
    let bus = pipeline.bus()?;
    while let Some(msg) = bus.pop_filtered(&[gst::MessageType::Error]) {
        if let gst::MessageView::Error(e) = msg.view() {
            return Some(typed(e.error()));
        }
    }
    None
}

/// Maps a GStreamer error to `NotMedia` when the stream could not be typed or demuxed.
pub fn typed(err: glib::Error) -> ConformError {
    let not_media = err.matches(gst::StreamError::TypeNotFound)
        || err.matches(gst::StreamError::WrongType)
        || err.matches(gst::StreamError::Demux)
        || err.matches(gst::StreamError::CodecNotFound)
        || err.matches(gst::StreamError::Format);
    if not_media {
        ConformError::NotMedia(err.message().to_owned())
    } else {
        ConformError::Decode(err.message().to_owned())
    }
}

/// How often a wait looks at the bus: an error does not end a preroll or a pull by itself.
const POLL: gst::ClockTime = gst::ClockTime::from_mseconds(50);

/// Waits up to `timeout_s` for the pipeline to reach its pending state (preroll), failing as soon
/// as an error is on the bus (a demuxer that gives up leaves the preroll waiting forever).
/// Returns false when `absent` turns true first: the stream the pass measures is not in the file,
/// so its sink will never preroll. Gives up when `stop` is set (another pass found the file bad:
/// decodebin keeps some of its children's errors to itself, which would leave this one waiting).
pub fn wait_state(
    pipeline: &gst::Pipeline,
    timeout_s: u64,
    absent: &AtomicBool,
    stop: &AtomicBool,
) -> Result<bool, ConformError> {
    let deadline = Instant::now() + Duration::from_secs(timeout_s);
    loop {
        let (res, _, _) = pipeline.state(POLL);
        if let Some(e) = bus_error(pipeline) {
            return Err(e);
        }
        if stop.load(Ordering::SeqCst) {
            return Err(stopped());
        }
        match res {
            Ok(gst::StateChangeSuccess::Async) if absent.load(Ordering::SeqCst) => {
                return Ok(false);
            }
            Ok(gst::StateChangeSuccess::Async) if Instant::now() < deadline => {}
            Ok(gst::StateChangeSuccess::Async) => return Err(ConformError::Timeout(timeout_s)),
            Ok(_) => return Ok(true),
            Err(_) => {
                return Err(ConformError::NotMedia(
                    "the file could not be opened".to_owned(),
                ));
            }
        }
    }
}

/// Returns the appsink's next sample, `None` at end-of-stream; fails on a bus error, when `stop`
/// is set, or after `timeout_s` without a sample.
pub fn pull(
    pipeline: &gst::Pipeline,
    sink: &gst_app::AppSink,
    timeout_s: u64,
    stop: &AtomicBool,
) -> Result<Option<gst::Sample>, ConformError> {
    let deadline = Instant::now() + Duration::from_secs(timeout_s);
    loop {
        if let Some(sample) = sink.try_pull_sample(POLL) {
            return Ok(Some(sample));
        }
        if let Some(e) = bus_error(pipeline) {
            return Err(e);
        }
        if stop.load(Ordering::SeqCst) {
            return Err(stopped());
        }
        if sink.is_eos() {
            return Ok(None);
        }
        if Instant::now() >= deadline {
            return Err(ConformError::Timeout(timeout_s));
        }
    }
}

/// Waits for end-of-stream on the bus; fails on a bus error, when `stop` is set, or after
/// `timeout_s`.
pub fn wait_eos(
    pipeline: &gst::Pipeline,
    timeout_s: u64,
    stop: &AtomicBool,
) -> Result<(), ConformError> {
    let bus = pipeline
        .bus()
        .ok_or_else(|| ConformError::Gst("pipeline without a bus".to_owned()))?;
    let deadline = Instant::now() + Duration::from_secs(timeout_s);
    loop {
        let msg = bus.timed_pop_filtered(POLL, &[gst::MessageType::Eos, gst::MessageType::Error]);
        match msg.as_ref().map(|m| m.view()) {
            Some(gst::MessageView::Eos(_)) => return Ok(()),
            Some(gst::MessageView::Error(e)) => return Err(typed(e.error())),
            _ => {}
        }
        if stop.load(Ordering::SeqCst) {
            return Err(stopped());
        }
        if Instant::now() >= deadline {
            return Err(ConformError::Timeout(timeout_s));
        }
    }
}

/// Returns the error of a pass told to stop.
fn stopped() -> ConformError {
    ConformError::Decode("measurement stopped".to_owned())
}

/// The two kinds of stream a pass may leave undecoded.
#[derive(Debug, Clone, Copy)]
pub enum Kind {
    /// Sound.
    Audio,
    /// Pictures.
    Video,
}

/// Makes `decodebin` expose `kind`'s streams still encoded (after their parser) instead of
/// decoding them: the loudness pass needs the video's bytes but not its pictures, and the frame
/// pass needs neither the sound's bytes nor its samples. Without the enum type (it is registered
/// with decodebin), nothing is connected and both kinds decode: slower, still right.
pub fn leave_encoded(decodebin: &gst::Element, kind: Kind) {
    let Some(class) =
        glib::Type::from_name("GstAutoplugSelectResult").and_then(glib::EnumClass::with_type)
    else {
        return;
    };
    let (Some(try_), Some(expose)) = (
        class.value_by_nick("try").copied(),
        class.value_by_nick("expose").copied(),
    ) else {
        return;
    };
    let word = match kind {
        Kind::Audio => "Audio",
        Kind::Video => "Video",
    };
    decodebin.connect("autoplug-select", false, move |args| {
        let is_decoder = args
            .get(3)
            .and_then(|v| v.get::<gst::ElementFactory>().ok())
            .and_then(|f| f.metadata(gst::ELEMENT_METADATA_KLASS).map(str::to_owned))
            .is_some_and(|k| k.contains("Decoder") && k.contains(word));
        let pick = if is_decoder { &expose } else { &try_ };
        Some(pick.to_value(&class))
    });
}

/// Links `pad` to a new `fakesink` that takes what comes; with `bytes`, a probe adds every
/// buffer's size to it.
pub fn drain(
    pipeline: &gst::Pipeline,
    pad: &gst::Pad,
    bytes: Option<Arc<AtomicU64>>,
) -> Result<(), ConformError> {
    let fakesink = make("fakesink")?;
    // No clock and no preroll: a drained stream must neither pace nor hold the measured one.
    fakesink.set_property("sync", false);
    fakesink.set_property("async", false);
    pipeline.add(&fakesink)?;
    let sinkpad = fakesink
        .static_pad("sink")
        .ok_or_else(|| ConformError::Gst("fakesink without a sink pad".to_owned()))?;
    if let Some(bytes) = bytes {
        sinkpad.add_probe(
            gst::PadProbeType::BUFFER | gst::PadProbeType::BUFFER_LIST,
            move |_, info| {
                let n = match &info.data {
                    Some(gst::PadProbeData::Buffer(b)) => b.size(),
                    Some(gst::PadProbeData::BufferList(l)) => l.calculate_size(),
                    _ => 0,
                };
                bytes.fetch_add(n as u64, Ordering::Relaxed);
                gst::PadProbeReturn::Ok
            },
        );
    }
    fakesink.sync_state_with_parent()?;
    pad.link(&sinkpad)
        .map_err(|e| ConformError::Gst(format!("cannot drain a stream: {e:?}")))?;
    Ok(())
}
