//! Real MP4s for the checks, made once per test run by GStreamer: small (180×320 at 25 fps), with a
//! −16 LUFS sine (a 997 Hz sine in both channels reads 20·log10(A) LUFS), so they encode in a
//! fraction of a second; [`profile`] is what they are checked against.

use std::sync::OnceLock;

use gstreamer as gst;
use gstreamer::prelude::*;
use reelforge_kit::config::DeliveryProfile;

/// The test profile: cc's rules with a 180×320 portrait size and a 1–3 s window.
pub fn profile() -> DeliveryProfile {
    DeliveryProfile {
        sizes: vec!["180x320".to_owned()],
        orientations: vec!["portrait".to_owned()],
        min_seconds: 1.0,
        max_seconds: 3.0,
        ..DeliveryProfile::for_variant("cc")
    }
}

/// A clip the test profile accepts (two seconds).
pub fn conforming() -> Result<&'static [u8], String> {
    static CLIP: OnceLock<Result<Vec<u8>, String>> = OnceLock::new();
    CLIP.get_or_init(|| make(2.0)).as_deref().map_err(Clone::clone)
}

/// A clip too long for the test profile (four seconds).
pub fn too_long() -> Result<&'static [u8], String> {
    static CLIP: OnceLock<Result<Vec<u8>, String>> = OnceLock::new();
    CLIP.get_or_init(|| make(4.0)).as_deref().map_err(Clone::clone)
}

fn make(seconds: f64) -> Result<Vec<u8>, String> {
    encode(seconds).map_err(|e| format!("making a {seconds} s clip: {e}"))
}

fn encode(seconds: f64) -> Result<Vec<u8>, Box<dyn std::error::Error>> {
    gst::init()?;
    let dir = tempfile::tempdir()?;
    let path = dir.path().join("clip.mp4");
    let frames = (seconds * 25.0).round() as u32;
    let buffers = (seconds * 100.0).round() as u32;
    let aac = if gst::ElementFactory::find("voaacenc").is_some() { "voaacenc" } else { "avenc_aac" };
    let amplitude = 10f64.powf(-16.0 / 20.0);
    let launch = format!(
        "videotestsrc num-buffers={frames} pattern=smpte ! video/x-raw,format=I420,width=180,height=320,framerate=25/1 \
         ! x264enc speed-preset=ultrafast ! video/x-h264 ! queue ! mp4mux name=mux faststart=true ! filesink location={} \
         audiotestsrc num-buffers={buffers} samplesperbuffer=480 wave=sine freq=997 volume={amplitude} \
         ! audio/x-raw,rate=48000,channels=2 ! audioconvert ! {aac} ! queue ! mux.",
        path.display()
    );
    let pipeline = gst::parse::launch(&launch)?;
    pipeline.set_state(gst::State::Playing)?;
    let bus = pipeline.bus().ok_or("no bus")?;
    let msg = bus
        .timed_pop_filtered(gst::ClockTime::from_seconds(60), &[gst::MessageType::Eos, gst::MessageType::Error])
        .ok_or("encode timed out")?;
    pipeline.set_state(gst::State::Null)?;
    if let gst::MessageView::Error(e) = msg.view() {
        return Err(format!("encode failed: {}", e.error()).into());
    }
    Ok(std::fs::read(&path)?)
}
