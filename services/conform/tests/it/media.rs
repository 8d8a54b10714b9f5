//! Making test MP4s with GStreamer, and the test profile they are checked against.

use gstreamer as gst;
use gstreamer::prelude::*;
use reelforge_kit::config::DeliveryProfile;
use std::path::{Path, PathBuf};

/// A test clip's recipe: everything defaults to a clip the test profile accepts.
#[derive(Debug, Clone)]
pub struct Clip {
    pub width: u32,
    pub height: u32,
    pub fps: u32,
    pub seconds: f64,
    /// videotestsrc's pattern and any extra properties, e.g. `smpte horizontal-speed=5`.
    pub pattern: &'static str,
    /// Extra x264enc properties.
    pub x264: &'static str,
    /// Extra fields of the caps after x264enc, e.g. `,level=(string)5.1`.
    pub h264_caps: &'static str,
    /// The sine's amplitude (1.0 is full scale); `None` makes a clip without sound.
    pub amplitude: Option<f64>,
    /// Whether the moov box goes first (mp4mux faststart).
    pub faststart: bool,
}

impl Default for Clip {
    fn default() -> Self {
        Self {
            width: 180,
            height: 320,
            fps: 25,
            seconds: 2.0,
            pattern: "smpte",
            x264: "",
            h264_caps: "",
            // −16 LUFS: a 997 Hz sine in both channels reads 20·log10(A) LUFS (BS.1770).
            amplitude: Some(10f64.powf(-16.0 / 20.0)),
            faststart: true,
        }
    }
}

impl Clip {
    /// Encodes the clip into `dir/name` and returns its path.
    pub fn make(&self, dir: &Path, name: &str) -> Result<PathBuf, Box<dyn std::error::Error>> {
        gst::init()?;
        let path = dir.join(name);
        let frames = (self.seconds * f64::from(self.fps)).round() as u32;
        let video = format!(
            "videotestsrc num-buffers={frames} pattern={} ! video/x-raw,format=I420,width={},height={},framerate={}/1 \
             ! x264enc speed-preset=ultrafast {} ! video/x-h264{} ! queue ! mp4mux name=mux faststart={} ! filesink location={}",
            self.pattern,
            self.width,
            self.height,
            self.fps,
            self.x264,
            self.h264_caps,
            self.faststart,
            path.display()
        );
        let audio = match self.amplitude {
            // 10 ms buffers, so the sound lasts exactly as long as the pictures.
            Some(a) => format!(
                " audiotestsrc num-buffers={} samplesperbuffer=480 wave=sine freq=997 volume={a} \
                 ! audio/x-raw,rate=48000,channels=2 ! audioconvert ! {} ! queue ! mux.",
                (self.seconds * 100.0).round() as u32,
                aac_encoder()
            ),
            None => String::new(),
        };
        let pipeline = gst::parse::launch(&format!("{video}{audio}"))?;
        pipeline.set_state(gst::State::Playing)?;
        let bus = pipeline.bus().ok_or("no bus")?;
        let msg = bus
            .timed_pop_filtered(
                gst::ClockTime::from_seconds(60),
                &[gst::MessageType::Eos, gst::MessageType::Error],
            )
            .ok_or("encode timed out")?;
        pipeline.set_state(gst::State::Null)?;
        if let gst::MessageView::Error(e) = msg.view() {
            return Err(format!("encode failed: {}", e.error()).into());
        }
        Ok(path)
    }
}

/// Returns the AAC encoder this machine has (voaacenc, else libav's).
fn aac_encoder() -> &'static str {
    if gst::ElementFactory::find("voaacenc").is_some() {
        "voaacenc"
    } else {
        "avenc_aac"
    }
}

/// Returns the test profile: cc's rules with a 180×320 portrait size and a 1–3 s window.
pub fn profile() -> DeliveryProfile {
    DeliveryProfile {
        sizes: vec!["180x320".to_owned()],
        orientations: vec!["portrait".to_owned()],
        min_seconds: 1.0,
        max_seconds: 3.0,
        ..DeliveryProfile::for_variant("cc")
    }
}

/// Returns a fresh temporary folder.
pub fn dir() -> Result<tempfile::TempDir, std::io::Error> {
    tempfile::tempdir()
}
