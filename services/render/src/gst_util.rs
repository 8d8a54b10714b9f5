//! Small GStreamer helpers shared by the decoders and the encoder: element creation, bus checks
//! and a pipeline guard that returns the pipeline to `Null` on every exit.

use crate::error::MediaError;
use gstreamer as gst;
use gstreamer::prelude::*;

/// Owns a pipeline and sets it to `Null` when dropped, whatever path the caller leaves by.
pub struct PipelineGuard(pub gst::Pipeline);

impl Drop for PipelineGuard {
    fn drop(&mut self) {
        let _ = self.0.set_state(gst::State::Null);
    }
}

/// Returns a new element of `factory`, or an error naming the missing plugin.
pub fn make(factory: &str) -> Result<gst::Element, MediaError> {
    gst::ElementFactory::make(factory)
        .build()
        .map_err(|_| MediaError::Gst(format!("element {factory} missing (install its plugin)")))
}

/// Returns the first error message waiting on the pipeline's bus, as a `MediaError`.
pub fn bus_error(pipeline: &gst::Pipeline) -> Option<MediaError> {
    let bus = pipeline.bus()?;
    while let Some(msg) = bus.pop_filtered(&[gst::MessageType::Error]) {
        if let gst::MessageView::Error(e) = msg.view() {
            return Some(MediaError::Pipeline(describe(e)));
        }
    }
    None
}

/// Returns a readable line for a bus error: the message, then the debug detail's last part.
pub fn describe(e: &gst::message::Error) -> String {
    let err = e.error();
    let msg = err.message();
    if err.matches(gst::StreamError::CodecNotFound) || err.matches(gst::StreamError::TypeNotFound) {
        return format!("unsupported format: {msg}");
    }
    if err.matches(gst::ResourceError::NotFound) {
        return format!("not found: {msg}");
    }
    msg.to_string()
}

/// Waits up to `timeout_s` for the pipeline to reach its pending state (preroll), failing on a bus error.
pub fn wait_state(pipeline: &gst::Pipeline, timeout_s: u64) -> Result<(), MediaError> {
    let (res, _, _) = pipeline.state(gst::ClockTime::from_seconds(timeout_s));
    if let Some(e) = bus_error(pipeline) {
        return Err(e);
    }
    match res {
        Ok(gst::StateChangeSuccess::Async) => Err(MediaError::Timeout(timeout_s)),
        Ok(_) => Ok(()),
        Err(_) => Err(MediaError::Pipeline(
            "could not start the pipeline".to_owned(),
        )),
    }
}

/// Waits for end-of-stream on the bus, failing on an error or after `timeout_s` without a message.
pub fn wait_eos(pipeline: &gst::Pipeline, timeout_s: u64) -> Result<(), MediaError> {
    let bus = pipeline
        .bus()
        .ok_or_else(|| MediaError::Gst("pipeline without a bus".to_owned()))?;
    loop {
        let msg = bus
            .timed_pop_filtered(
                gst::ClockTime::from_seconds(timeout_s),
                &[gst::MessageType::Eos, gst::MessageType::Error],
            )
            .ok_or(MediaError::Timeout(timeout_s))?;
        match msg.view() {
            gst::MessageView::Eos(_) => return Ok(()),
            gst::MessageView::Error(e) => return Err(MediaError::Pipeline(describe(e))),
            _ => {}
        }
    }
}
