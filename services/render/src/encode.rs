//! Encoding composed frames and mixed audio into an MP4 file.
//!
//! Pipeline: `appsrc (I420 BT.709 WxH@F) → queue → x264enc (veryfast, pass=qual) →
//! mp4mux faststart=true → filesink`, and `appsrc (F32LE 48 kHz stereo) → audioconvert →
//! AAC 128 kb/s (avenc_aac, else voaacenc) → queue → mp4mux`. Frames come drawn in I420
//! (`engine::planar`) or in RGBA converted on the drawing thread (`yuv`), so no `videoconvert`
//! competes with x264 for the cores; a frame equal to the one before is pushed again as it is. The `queue`
//! in front of x264enc moves encoding off the drawing thread: without it x264 encodes on about
//! one core (shared/bench/README.md). The appsrcs block when their small queues fill, which
//! bounds memory and paces drawing to the encoder.

use crate::decode::{CHANNELS, SAMPLE_RATE};
use crate::error::MediaError;
use crate::gst_util::{PipelineGuard, bus_error, make, wait_eos};
use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;
use gstreamer_video as gst_video;
use std::path::Path;
use std::sync::{Arc, Mutex};

/// Frame allocations handed back by the pipeline once x264 is done with them, so a render
/// allocates (and page-faults) a handful of frames instead of one per frame.
type Pool = Arc<Mutex<Vec<Vec<u8>>>>;

/// Frames kept for reuse. The pool only holds frames that came back, so it never holds more
/// than were in flight at once (x264's lookahead and threads keep a score of them).
const POOL_MAX: usize = 32;

/// A frame's bytes lent to GStreamer; they go back to the pool when the buffer is freed.
struct Pooled {
    px: Vec<u8>,
    pool: Pool,
}

impl AsRef<[u8]> for Pooled {
    fn as_ref(&self) -> &[u8] {
        &self.px
    }
}

impl AsMut<[u8]> for Pooled {
    fn as_mut(&mut self) -> &mut [u8] {
        &mut self.px
    }
}

impl Drop for Pooled {
    fn drop(&mut self) {
        if let Ok(mut p) = self.pool.lock()
            && p.len() < POOL_MAX
        {
            p.push(std::mem::take(&mut self.px));
        }
    }
}

/// Seconds of video the encoder takes ahead of the sound. Pushing sound later than that
/// behind the pictures would stall the pushing thread until the sound comes.
pub const VIDEO_AHEAD_S: u64 = 3;

/// Encoder settings.
#[derive(Debug, Clone)]
pub struct EncodeSettings {
    /// Frame width in pixels (even).
    pub width: u32,
    /// Frame height in pixels (even).
    pub height: u32,
    /// Frame rate `num/den`.
    pub fps: (i32, i32),
    /// x264 constant-quality value (CRF-like; lower is better).
    pub crf: u32,
    /// AAC bit rate in bits per second.
    pub audio_bitrate: i32,
    /// Whether an audio track is written.
    pub audio: bool,
    /// Watchdog limit in seconds for finishing the file.
    pub watchdog_s: u64,
}

/// Returns the x264 quality for a rule's quality setting: LOW 99 → 28, MIDDLE 201 → 23,
/// HIGH 401 → 18; anything else (the stored default 30) reads as MIDDLE.
pub fn crf_for_quality(level: i64) -> u32 {
    match level {
        99 => 28,
        401 => 18,
        _ => 23,
    }
}

/// A running MP4 encoder fed frame by frame.
pub struct Encoder {
    video: gst_app::AppSrc,
    audio: Option<gst_app::AppSrc>,
    settings: EncodeSettings,
    frames: u64,
    samples: u64,
    pool: Pool,
    last: Option<gst::Buffer>,
    guard: PipelineGuard,
}

/// Returns the AAC encoder: FFmpeg's (`avenc_aac`) with its `fast` coder, else voaacenc.
///
/// `fast` is FFmpeg's rate loop without twoloop's perceptual adjustments; twoloop (libavcodec's
/// default here) costs 2.5× its CPU for 128 kb/s stereo, and FFmpeg's AAC maintainer found it
/// sounding worse than `fast` at such rates (FFmpeg commit fcb681ac). Measured against the mix
/// it encodes (docs/render.md, "AAC coder"): 44.4 dB SNR on tonal music against twoloop's 27.5,
/// 19.1 dB against 21.8 on the benchmark's tone-in-pink-noise.
fn aac_encoder(bitrate: i32) -> Result<gst::Element, MediaError> {
    let enc = match make("avenc_aac") {
        Ok(enc) => {
            enc.set_property_from_str("aac-coder", "fast");
            enc
        }
        Err(_) => make("voaacenc")?,
    };
    enc.set_property("bitrate", bitrate);
    Ok(enc)
}

impl Encoder {
    /// Starts an encoder writing to `out`.
    pub fn create(out: &Path, settings: EncodeSettings) -> Result<Self, MediaError> {
        crate::gst_init()?;
        let pipeline = gst::Pipeline::new();
        let guard = PipelineGuard(pipeline.clone());
        let (w, h) = (settings.width, settings.height);
        let frame_bytes = crate::yuv::i420_len(w, h) as u64;
        let caps = gst_video::VideoCapsBuilder::new()
            .format(gst_video::VideoFormat::I420)
            .width(w as i32)
            .height(h as i32)
            .framerate(gst::Fraction::new(settings.fps.0, settings.fps.1))
            .pixel_aspect_ratio(gst::Fraction::new(1, 1))
            .field("colorimetry", "bt709")
            .build();
        let video = gst_app::AppSrc::builder()
            .caps(&caps)
            .format(gst::Format::Time)
            .block(true)
            .max_bytes(frame_bytes * 2)
            .build();
        let queue = make("queue")?;
        // Bounded by frames, not the default 10 MB, so a 4K frame still fits.
        queue.set_property("max-size-buffers", 4u32);
        queue.set_property("max-size-bytes", 0u32);
        queue.set_property("max-size-time", 0u64);
        let x264 = make("x264enc")?;
        x264.set_property_from_str("speed-preset", "veryfast");
        x264.set_property_from_str("pass", "qual");
        x264.set_property("quantizer", settings.crf);
        // Plain CRF as x264 and ffmpeg mean it: x264enc otherwise caps quality mode with a
        // 2 Mbit/s VBV and a 300-frame GOP. x264enc always passes its `bitrate` as the VBV's
        // maximum rate in quality mode; a buffer of 0 makes x264 drop the VBV altogether
        // ("VBV maxrate specified, but no bufsize, ignored"), so the encoder's options are
        // exactly ffmpeg's `-preset veryfast -crf 23` and it skips the per-row VBV bookkeeping.
        x264.set_property("bitrate", 2_048_000u32);
        x264.set_property("vbv-buf-capacity", 0u32);
        x264.set_property("key-int-max", 250u32);
        let h264caps = gst::Caps::builder("video/x-h264")
            .field("profile", "high")
            .build();
        let capsf = make("capsfilter")?;
        capsf.set_property("caps", &h264caps);
        // Room for the video x264 has encoded while the sound lags it: the muxer waits for
        // both streams, and without it x264 would stall behind the muxer.
        let vqueue = make("queue")?;
        vqueue.set_property("max-size-buffers", 0u32);
        vqueue.set_property("max-size-bytes", 0u32);
        vqueue.set_property("max-size-time", VIDEO_AHEAD_S * gst::ClockTime::SECOND.nseconds());
        let mux = make("mp4mux")?;
        mux.set_property("faststart", true);
        let sink = make("filesink")?;
        sink.set_property("location", out.to_string_lossy().to_string());
        pipeline.add_many([video.upcast_ref(), &queue, &x264, &capsf, &vqueue, &mux, &sink])?;
        gst::Element::link_many([video.upcast_ref(), &queue, &x264, &capsf, &vqueue, &mux])?;
        mux.link(&sink)?;
        let audio = if settings.audio {
            let acaps = gstreamer_audio::AudioCapsBuilder::new_interleaved()
                .format(gstreamer_audio::AudioFormat::F32le)
                .rate(SAMPLE_RATE as i32)
                .channels(CHANNELS as i32)
                .build();
            let asrc = gst_app::AppSrc::builder()
                .caps(&acaps)
                .format(gst::Format::Time)
                .block(true)
                .max_bytes(u64::from(SAMPLE_RATE) * CHANNELS as u64 * 4)
                .build();
            let aconv = make("audioconvert")?;
            let aenc = aac_encoder(settings.audio_bitrate)?;
            let aqueue = make("queue")?;
            pipeline.add_many([asrc.upcast_ref(), &aconv, &aenc, &aqueue])?;
            gst::Element::link_many([asrc.upcast_ref(), &aconv, &aenc, &aqueue, &mux])?;
            Some(asrc)
        } else {
            None
        };
        // The sound's appsrc thread runs the AAC encoder: at the drawing's lower priority, so
        // it fills x264's idle time instead of taking cores from x264's threads; the video's
        // threads (x264's among them) keep the priority of the thread creating the encoder.
        let lowered: Vec<gst::Element> = audio.iter().map(|a| a.clone().upcast()).collect();
        crate::threads::own_streaming_threads(&pipeline, &lowered, crate::render::draw_nice());
        pipeline.set_state(gst::State::Playing)?;
        Ok(Encoder {
            video,
            audio,
            settings,
            frames: 0,
            samples: 0,
            pool: Pool::default(),
            last: None,
            guard,
        })
    }

    /// Returns how many audio samples (per channel) were pushed.
    pub fn samples(&self) -> u64 {
        self.samples
    }

    /// Returns how many frames were pushed.
    pub fn frames(&self) -> u64 {
        self.frames
    }

    fn ts(&self, frame: u64) -> gst::ClockTime {
        let (n, d) = (self.settings.fps.0 as u64, self.settings.fps.1 as u64);
        gst::ClockTime::from_nseconds(
            gst::ClockTime::SECOND
                .nseconds()
                .mul_div_floor(frame * d, n)
                .unwrap_or(0),
        )
    }

    /// Returns an allocation for one I420 frame (`yuv::i420_len` bytes), recycled from frames
    /// x264 is done with, for [`Encoder::push_planes`] or [`Encoder::give_back`].
    pub fn planes(&self) -> Vec<u8> {
        let expected = crate::yuv::i420_len(self.settings.width, self.settings.height);
        let recycled = self.pool.lock().ok().and_then(|mut p| p.pop());
        match recycled {
            Some(v) if v.len() == expected => v,
            _ => vec![0; expected],
        }
    }

    /// Returns an allocation from [`Encoder::planes`] that was not pushed to the pool.
    pub fn give_back(&self, planes: Vec<u8>) {
        drop(Pooled {
            px: planes,
            pool: self.pool.clone(),
        });
    }

    /// Pushes one tightly packed, opaque RGBA frame (width × height × 4 bytes), converted to
    /// I420 into a recycled allocation.
    pub fn push_frame(&mut self, rgba: &[u8]) -> Result<(), MediaError> {
        let (w, h) = (self.settings.width, self.settings.height);
        let expected = w as usize * h as usize * 4;
        if rgba.len() != expected {
            return Err(MediaError::Invalid(format!(
                "frame of {} bytes, expected {expected}",
                rgba.len()
            )));
        }
        let mut planes = self.planes();
        crate::yuv::rgba_to_i420(rgba, w, h, &mut planes);
        self.push_planes(planes)
    }

    /// Pushes one frame of tightly packed I420 planes (`yuv::i420_len` bytes).
    pub fn push_planes(&mut self, planes: Vec<u8>) -> Result<(), MediaError> {
        let (w, h) = (self.settings.width, self.settings.height);
        let expected = crate::yuv::i420_len(w, h);
        if planes.len() != expected {
            return Err(MediaError::Invalid(format!(
                "I420 frame of {} bytes, expected {expected}",
                planes.len()
            )));
        }
        let mut buffer = gst::Buffer::from_mut_slice(Pooled {
            px: planes,
            pool: self.pool.clone(),
        });
        {
            let b = buffer
                .get_mut()
                .ok_or_else(|| MediaError::Gst("buffer".to_owned()))?;
            // Tightly packed planes, whatever strides GStreamer would assume by default.
            let (cw, ch) = (w.div_ceil(2) as usize, h.div_ceil(2) as usize);
            let y = w as usize * h as usize;
            gst_video::VideoMeta::add_full(
                b,
                gst_video::VideoFrameFlags::empty(),
                gst_video::VideoFormat::I420,
                w,
                h,
                &[0, y, y + cw * ch],
                &[w as i32, cw as i32, cw as i32],
            )
            .map_err(|e| MediaError::Gst(e.to_string()))?;
        }
        self.push_video(buffer)
    }

    /// Pushes the previous frame again (the drawing did not change it); `false` when there is none.
    pub fn push_repeat(&mut self) -> Result<bool, MediaError> {
        let Some(last) = &self.last else {
            return Ok(false);
        };
        // A new buffer sharing the frame's memory, with its own timestamps.
        let buffer = last.copy();
        self.push_video(buffer)?;
        Ok(true)
    }

    fn push_video(&mut self, mut buffer: gst::Buffer) -> Result<(), MediaError> {
        {
            let b = buffer
                .get_mut()
                .ok_or_else(|| MediaError::Gst("buffer".to_owned()))?;
            let (pts, next) = (self.ts(self.frames), self.ts(self.frames + 1));
            b.set_pts(pts);
            b.set_duration(next - pts);
        }
        self.last = Some(buffer.clone());
        self.video
            .push_buffer(buffer)
            .map_err(|_| self.flow_error())?;
        self.frames += 1;
        Ok(())
    }

    /// Pushes interleaved stereo f32 samples that follow the ones already pushed.
    pub fn push_audio(&mut self, samples: &[f32]) -> Result<(), MediaError> {
        let Some(asrc) = &self.audio else {
            return Ok(());
        };
        if samples.is_empty() {
            return Ok(());
        }
        let frames = (samples.len() / CHANNELS) as u64;
        let mut bytes = Vec::with_capacity(samples.len() * 4);
        for s in samples {
            bytes.extend_from_slice(&s.to_le_bytes());
        }
        let rate = u64::from(SAMPLE_RATE);
        let at = |n: u64| {
            gst::ClockTime::from_nseconds(
                gst::ClockTime::SECOND
                    .nseconds()
                    .mul_div_floor(n, rate)
                    .unwrap_or(0),
            )
        };
        let mut buffer = gst::Buffer::from_mut_slice(bytes);
        if let Some(b) = buffer.get_mut() {
            b.set_pts(at(self.samples));
            b.set_duration(at(self.samples + frames) - at(self.samples));
        }
        asrc.push_buffer(buffer).map_err(|_| self.flow_error())?;
        self.samples += frames;
        Ok(())
    }

    fn flow_error(&self) -> MediaError {
        bus_error(&self.guard.0)
            .unwrap_or_else(|| MediaError::Pipeline("encoder stopped accepting data".to_owned()))
    }

    /// Ends both streams, waits for the file to be complete and stops the pipeline.
    pub fn finish(mut self) -> Result<(), MediaError> {
        self.last = None;
        self.video.end_of_stream().map_err(|_| self.flow_error())?;
        if let Some(a) = &self.audio {
            a.end_of_stream().map_err(|_| self.flow_error())?;
        }
        wait_eos(&self.guard.0, self.settings.watchdog_s)
    }
}

trait MulDiv {
    fn mul_div_floor(self, num: u64, den: u64) -> Option<u64>;
}

impl MulDiv for u64 {
    fn mul_div_floor(self, num: u64, den: u64) -> Option<u64> {
        if den == 0 {
            return None;
        }
        u64::try_from(u128::from(self) * u128::from(num) / u128::from(den)).ok()
    }
}
