//! VIDEO_BEAUTY and INCREASE_RESOLUTION: every picture rewritten in Rust (`reelforge_pixels::looks`,
//! built optimised) as it leaves a queue on the way to x264 (quantizer 18), the sound re-encoded as
//! AAC beside it. No model is used by either.
//!
//! - VIDEO_BEAUTY: `decodebin → videoconvert → I420 → queue (skin smoothed and toned) → x264 → mp4mux`.
//!   A sample is skin by its chroma (Cb 77–127, Cr 133–173, a soft edge of 8 levels inside); the luma of
//!   skin moves towards its self-guided filtering (an edge-preserving smoothing: noise and pores
//!   flatten, features' edges stay) by the strength, and the tone (brightness, warmth) is added by
//!   the same weight. What is not skin is not touched.
//! - INCREASE_RESOLUTION: `decodebin → videoconvert → videoscale method=lanczos → the new size
//!   (I420) → queue (unsharp mask of the luma) → x264 → mp4mux`: a classical upscale with
//!   sharpening.

use std::sync::{Arc, Mutex};

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_video as gst_video;
use gstreamer_video::prelude::*;
use reelforge_pixels::erase::Plane;
use reelforge_pixels::looks::{self, Beauty};

use super::{Job, Output, OutputKind, aac, x264_quality};
use crate::error::ToolError;
use crate::gst_run::{PICTURES, element, launch};
use crate::look_params::{Beautify, Upscale};

/// What is done to each I420 frame's planes (luma, then the two chroma planes).
type Rewrite = dyn Fn(&mut [Plane<'_>]) + Send + Sync;

/// Rewrites an I420 frame's planes in place.
fn rewrite_frame(buffer: &mut gst::BufferRef, info: &gst_video::VideoInfo, rewrite: &Rewrite) -> Result<(), String> {
    let mut frame = gst_video::VideoFrameRef::from_buffer_ref_writable(buffer, info).map_err(|e| e.to_string())?;
    let strides: Vec<usize> = frame.plane_stride().iter().map(|s| usize::try_from(*s).unwrap_or(0)).collect();
    let (w, h) = (info.width() as usize, info.height() as usize);
    // The three planes borrowed at once: split the frame's writable data by plane.
    let mut planes = Vec::with_capacity(3);
    let [y, u, v, _] = frame.planes_data_mut();
    for (i, data) in [y, u, v].into_iter().enumerate() {
        let sub = if i == 0 { 1 } else { 2 };
        planes.push(Plane { data, width: w.div_ceil(sub), height: h.div_ceil(sub), stride: strides.get(i).copied().unwrap_or(0) });
    }
    rewrite(&mut planes);
    Ok(())
}

impl Job<'_> {
    pub(super) fn beauty(&mut self, b: &Beautify) -> Result<Vec<Output>, ToolError> {
        let look = Beauty { strength: b.strength as f32 / 100.0, brightness: b.brightness as f32 / 100.0, warmth: b.warmth as f32 / 100.0 };
        let rewrite: Arc<Rewrite> = Arc::new(move |planes: &mut [Plane<'_>]| {
            if let [y, u, v] = planes {
                looks::beautify(y, u, v, look);
            }
        });
        self.rewrite("videoconvert ! video/x-raw,format=I420", rewrite, "beauty.mp4")
    }

    pub(super) fn upscale(&mut self, up: &Upscale) -> Result<Vec<Output>, ToolError> {
        let (w, h, _) = self.facts.video.unwrap_or_default();
        let (ow, oh) = up.size(w, h)?;
        let amount = up.sharpen as f32 / 100.0;
        let rewrite: Arc<Rewrite> = Arc::new(move |planes: &mut [Plane<'_>]| {
            if let Some(y) = planes.first_mut() {
                looks::sharpen(y, amount);
            }
        });
        let scale = format!("videoconvert ! videoscale method=lanczos ! video/x-raw,format=I420,width={ow},height={oh}");
        self.rewrite(&scale, rewrite, "upscaled.mp4")
    }

    /// Decodes the pictures through `convert` (ending in I420 caps), rewrites each frame with
    /// `rewrite` and encodes them with the sound beside them.
    fn rewrite(&mut self, convert: &str, rewrite: Arc<Rewrite>, name: &str) -> Result<Vec<Output>, ToolError> {
        self.rewrite_frames(convert, move |buffer, info| rewrite_frame(buffer, info, rewrite.as_ref()), name, (0.0, 1.0), "rewriting")
    }

    /// Decodes the pictures through `convert` (ending in I420 caps), changes each frame in place with
    /// `frame` in a pad probe and encodes them with the sound beside them; `doing` words a failure.
    pub(super) fn rewrite_frames<F>(&mut self, convert: &str, frame: F, name: &str, share: (f64, f64), doing: &str) -> Result<Vec<Output>, ToolError>
    where
        F: Fn(&mut gst::BufferRef, &gst_video::VideoInfo) -> Result<(), String> + Send + Sync + 'static,
    {
        let audio = if self.facts.audio {
            format!(" d. ! audio/x-raw ! queue ! audioconvert ! audioresample ! {} bitrate=128000 ! queue ! mux.", aac())
        } else {
            String::new()
        };
        let description = format!(
            "filesrc name=src ! decodebin name=d {PICTURES} ! queue ! {convert} ! queue name=look \
             ! {} ! queue ! mp4mux name=mux faststart=true ! filesink name=sink{audio}",
            x264_quality(18)
        );
        let out = self.partial(name);
        let running = launch(&description, Some(self.input), Some(&out))?;
        let pad = element(&running.0, "look")?.static_pad("src").ok_or_else(|| ToolError::Gst("queue without a src pad".to_owned()))?;
        let failure: Arc<Mutex<Option<String>>> = Arc::default();
        let failed = Arc::clone(&failure);
        pad.add_probe(gst::PadProbeType::BUFFER, move |pad, info| {
            let Some(gst::PadProbeData::Buffer(buffer)) = &mut info.data else { return gst::PadProbeReturn::Ok };
            let done = pad
                .current_caps()
                .ok_or_else(|| "a frame before its caps".to_owned())
                .and_then(|c| gst_video::VideoInfo::from_caps(&c).map_err(|e| e.to_string()))
                .and_then(|info| frame(buffer.make_mut(), &info));
            match done {
                Ok(()) => gst::PadProbeReturn::Ok,
                Err(e) => {
                    // The run fails after the pipeline stops; a frame left unchanged is never kept.
                    if let Ok(mut f) = failed.lock() {
                        f.get_or_insert(e);
                    }
                    gst::PadProbeReturn::Drop
                }
            }
        });
        self.play(&running, self.facts.duration_ms, share)?;
        drop(running);
        if let Some(e) = failure.lock().ok().and_then(|mut f| f.take()) {
            return Err(ToolError::Failed(format!("{doing} a frame: {e}")));
        }
        Ok(vec![self.output(out, OutputKind::Video, name)?])
    }
}
