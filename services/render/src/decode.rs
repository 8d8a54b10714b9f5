//! Decoding clips, GIFs and audio through GStreamer into frames and samples the engine can use.
//!
//! Video pipeline: `uridecodebin (video pad) → videoconvert → videoflip (upright) → videoscale → videorate →
//! capsfilter video/x-raw,format=I420,width=W,height=H,framerate=F → appsink` (RGBA for clips
//! with alpha), prerolled in `Paused`, seeked to the cut start, then run in `Playing` with
//! `sync=false`. The appsink keeps at most a few frames, so decoding runs ahead of drawing on
//! GStreamer's own thread and memory stays bounded.
//!
//! Audio pipeline: `uridecodebin (audio pad) → audioconvert → audioresample → capsfilter
//! audio/x-raw,format=F32LE,rate=48000,channels=2 → appsink`, pulled to the end of the cut.
//!
//! Every wait (preroll, each pulled sample) is bounded by a watchdog limit, and each pipeline
//! is owned by a [`PipelineGuard`] so it returns to `Null` on every exit.

use crate::error::MediaError;
use crate::gst_util::{PipelineGuard, bus_error, make, wait_state};
use crate::probe::file_uri;
use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_app as gst_app;
use gstreamer_video as gst_video;
use gstreamer_video::prelude::*;
use std::path::Path;

/// Output sample rate of decoded audio.
pub const SAMPLE_RATE: u32 = 48_000;
/// Output channel count of decoded audio (interleaved).
pub const CHANNELS: usize = 2;
/// Default watchdog limit: seconds a pipeline may go without producing anything.
pub const WATCHDOG_S: u64 = 20;

/// One decoded frame: I420 for ordinary video, RGBA (straight alpha) for clips with an alpha
/// channel or RGB sources; [`Frame::copy_packed_into`] gives RGBA either way.
pub struct Frame {
    inner: gst_video::VideoFrame<gst_video::video_frame::Readable>,
}

impl Frame {
    /// Returns the width in pixels.
    pub fn width(&self) -> u32 {
        self.inner.width()
    }
    /// Returns the height in pixels.
    pub fn height(&self) -> u32 {
        self.inner.height()
    }

    /// Copies the frame into a tightly packed RGBA buffer.
    pub fn to_packed(&self) -> Vec<u8> {
        let mut out = Vec::new();
        self.copy_packed_into(&mut out);
        out
    }

    /// Writes the frame into `out` as tightly packed RGBA, reusing its allocation (a new
    /// allocation per frame costs a page fault per 4 KiB).
    pub fn copy_packed_into(&self, out: &mut Vec<u8>) {
        let whole = (0, 0, self.width(), self.height());
        self.copy_region_into(whole, out);
    }

    /// Writes the part `(x, y, w, h)` of the frame into `out` as tightly packed RGBA, reusing
    /// its allocation: only the pixels that will show are converted (a clip covering a portrait
    /// frame shows a third of its width). The region is clamped to the frame, and its left and
    /// top edges are taken down to even pixels (I420's chroma is shared by pixel pairs), so
    /// callers plan even regions. Returns the size written.
    pub fn copy_region_into(&self, region: (u32, u32, u32, u32), out: &mut Vec<u8>) -> (u32, u32) {
        let f = &self.inner;
        let (fw, fh) = (f.width(), f.height());
        let (x, y) = (region.0.min(fw) & !1, region.1.min(fh) & !1);
        let (w, h) = (region.2.min(fw - x), region.3.min(fh - y));
        let (xs, ys, w, h) = (x as usize, y as usize, w as usize, h as usize);
        let stride = |i: usize| {
            f.plane_stride()
                .get(i)
                .map_or(0, |s| s.unsigned_abs() as usize)
        };
        let plane = |i: u32, at: usize| {
            f.plane_data(i)
                .ok()
                .and_then(|p| p.get(at..))
                .unwrap_or(&[])
        };
        if f.format() == gst_video::VideoFormat::I420 {
            let (s0, s1, s2) = (stride(0), stride(1), stride(2));
            let src = crate::yuv::I420 {
                w,
                h,
                planes: [
                    plane(0, ys * s0 + xs),
                    plane(1, ys / 2 * s1 + xs / 2),
                    plane(2, ys / 2 * s2 + xs / 2),
                ],
                strides: [s0, s1, s2],
            };
            crate::yuv::i420_to_rgba(src, &yuv_matrix(f.info()), out);
            return (w as u32, h as u32);
        }
        out.clear();
        out.reserve(w * 4 * h);
        let s0 = stride(0).max(1);
        for row in plane(0, ys * s0).chunks(s0).take(h) {
            out.extend_from_slice(row.get(xs * 4..(xs + w) * 4).unwrap_or(&[]));
        }
        (w as u32, h as u32)
    }

    /// Copies the part `(x, y, w, h)` (x and y even) of the frame, or of the frame scaled
    /// plane by plane to `scale` (using `scratch`), into the rectangle at even `at` of `frame`,
    /// tightly packed I420 of `frame_size`, when its picture is the encoder's own: I420 in
    /// BT.709 limited range. Returns false otherwise (not I420, other colours, a part not
    /// inside the picture or a rectangle not inside the frame).
    pub fn put_i420(
        &self,
        scale: Option<(u32, u32)>,
        scratch: &mut Vec<u8>,
        (frame, frame_size): (&mut [u8], (u32, u32)),
        part: (u32, u32, u32, u32),
        at: (u32, u32),
    ) -> bool {
        let f = &self.inner;
        if f.format() != gst_video::VideoFormat::I420
            || yuv_matrix(f.info()) != crate::yuv::YuvToRgb::encoder()
        {
            return false;
        }
        let whole = (0, 0, f.width(), f.height());
        let src = match scale.filter(|&s| s != (f.width(), f.height())) {
            Some(size) => {
                if !self.scale_planes(whole, size, scratch) {
                    return false;
                }
                let (w, h) = (size.0 as usize, size.1 as usize);
                let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
                let (y, uv) = scratch.split_at(w * h);
                let (u, v) = uv.split_at(cw * ch);
                crate::yuv::I420 {
                    w,
                    h,
                    planes: [y, u, v],
                    strides: [w, cw, cw],
                }
            }
            None => {
                let stride = |i: usize| {
                    f.plane_stride()
                        .get(i)
                        .map_or(0, |s| s.unsigned_abs() as usize)
                };
                let plane = |i: u32| f.plane_data(i).unwrap_or(&[]);
                crate::yuv::I420 {
                    w: f.width() as usize,
                    h: f.height() as usize,
                    planes: [plane(0), plane(1), plane(2)],
                    strides: [stride(0), stride(1), stride(2)],
                }
            }
        };
        let (x, y, w, h) = part;
        src.part((x as usize, y as usize, w as usize, h as usize))
            .is_some_and(|src| crate::yuv::put_i420(src, frame, frame_size, at))
    }

    /// Writes the part `(x, y, w, h)` of the frame (clamped, left and top taken down to even
    /// pixels as in [`Frame::copy_region_into`]) scaled to `size` into `out` as tightly packed
    /// RGBA. An I420 frame is scaled plane by plane into `planes` (reused) and converted at the
    /// smaller size, so a clip decoded larger than it shows (its decoder is shared with a
    /// larger use of the same clip), or a crop blurred so strongly that a smaller picture gives
    /// the same result, converts only the pixels it needs. Returns the size written, which is
    /// the region's own when it could not be scaled.
    pub fn scaled_region_into(
        &self,
        region: (u32, u32, u32, u32),
        size: (u32, u32),
        planes: &mut Vec<u8>,
        out: &mut Vec<u8>,
    ) -> (u32, u32) {
        let f = &self.inner;
        let (fw, fh) = (f.width(), f.height());
        let (rx, ry) = (region.0.min(fw) & !1, region.1.min(fh) & !1);
        let (rw, rh) = (region.2.min(fw - rx), region.3.min(fh - ry));
        let (w, h) = (size.0.max(1), size.1.max(1));
        if (w, h) == (rw, rh) || !self.scale_planes(region, (w, h), planes) {
            return self.copy_region_into(region, out);
        }
        let (cw, ch) = (w.div_ceil(2) as usize, h.div_ceil(2) as usize);
        let (yp, uv) = planes.split_at(w as usize * h as usize);
        let (up, vp) = uv.split_at(cw * ch);
        let src = crate::yuv::I420 {
            w: w as usize,
            h: h as usize,
            planes: [yp, up, vp],
            strides: [w as usize, cw, cw],
        };
        crate::yuv::i420_to_rgba(src, &yuv_matrix(f.info()), out);
        (w, h)
    }

    /// Scales the part `(x, y, w, h)` of an I420 frame (clamped, left and top taken down to
    /// even pixels) plane by plane to `size` into `planes`, tightly packed I420. Returns false
    /// when it could not (not I420, an empty region, a plane out of bounds).
    fn scale_planes(
        &self,
        region: (u32, u32, u32, u32),
        size: (u32, u32),
        planes: &mut Vec<u8>,
    ) -> bool {
        let f = &self.inner;
        let (fw, fh) = (f.width(), f.height());
        let (rx, ry) = (region.0.min(fw) & !1, region.1.min(fh) & !1);
        let (rw, rh) = (region.2.min(fw - rx), region.3.min(fh - ry));
        let (w, h) = (size.0.max(1), size.1.max(1));
        if rw == 0 || rh == 0 || f.format() != gst_video::VideoFormat::I420 {
            return false;
        }
        let (cw, ch) = (w.div_ceil(2), h.div_ceil(2));
        let (luma, chroma) = (w as usize * h as usize, cw as usize * ch as usize);
        planes.resize(luma + 2 * chroma, 0);
        let (yp, uv) = planes.split_at_mut(luma);
        let (up, vp) = uv.split_at_mut(chroma);
        let stride = |i: usize| {
            f.plane_stride()
                .get(i)
                .map_or(0, |s| s.unsigned_abs() as usize)
        };
        let luma_crop = (f64::from(rx), f64::from(ry), f64::from(rw), f64::from(rh));
        // The chroma crop is exactly half the luma crop (fractions included), so both planes
        // are scaled by the same factor and stay aligned.
        let chroma_crop = (
            f64::from(rx / 2),
            f64::from(ry / 2),
            f64::from(rw) / 2.0,
            f64::from(rh) / 2.0,
        );
        let chroma_rows = fh.div_ceil(2) as usize;
        [
            (0, yp, (fh as usize, luma_crop, (w, h))),
            (1, up, (chroma_rows, chroma_crop, (cw, ch))),
            (2, vp, (chroma_rows, chroma_crop, (cw, ch))),
        ]
        .into_iter()
        .all(|(i, dst, (rows, crop, to))| {
            f.plane_data(i as u32).is_ok_and(|src| {
                crate::compose::resize_plane(src, (stride(i), rows), crop, dst, to)
            })
        })
    }
}

/// Returns how a decoded frame's Y′CbCr maps to RGB, from its colorimetry; an unknown matrix
/// is read as GStreamer guesses it (BT.709 from 720 lines up, BT.601 below).
fn yuv_matrix(info: &gst_video::VideoInfo) -> crate::yuv::YuvToRgb {
    use gst_video::VideoColorMatrix as M;
    let c = info.colorimetry();
    let (kr, kb) = match c.matrix() {
        M::Bt601 => (0.299, 0.114),
        M::Bt709 => (0.2126, 0.0722),
        M::Bt2020 => (0.2627, 0.0593),
        M::Smpte240m => (0.212, 0.087),
        M::Fcc => (0.30, 0.11),
        _ if info.height() >= 720 => (0.2126, 0.0722),
        _ => (0.299, 0.114),
    };
    let full = c.range() == gst_video::VideoColorRange::Range0_255;
    crate::yuv::YuvToRgb::new(kr, kb, full)
}

/// What to decode from a clip.
#[derive(Debug, Clone)]
pub struct VideoRequest {
    /// Output width in pixels.
    pub width: u32,
    /// Output height in pixels.
    pub height: u32,
    /// Output frame rate `num/den`.
    pub fps: (i32, i32),
    /// Where to start in the source, seconds.
    pub start: f64,
    /// Watchdog limit in seconds.
    pub watchdog_s: u64,
    /// Whether the clip's alpha channel is kept (RGBA frames); otherwise frames come as I420,
    /// the decoder's own format.
    pub alpha: bool,
}

/// A running clip decoder; frames come out at the requested size and rate.
pub struct VideoDecoder {
    sink: gst_app::AppSink,
    info: Option<gst_video::VideoInfo>,
    watchdog_s: u64,
    guard: PipelineGuard,
}

fn decodebin_for(
    path: &Path,
    pipeline: &gst::Pipeline,
    want: &'static str,
    head: &gst::Element,
) -> Result<(), MediaError> {
    if !path.is_file() {
        return Err(MediaError::Missing(path.display().to_string()));
    }
    let src = gst::ElementFactory::make("uridecodebin")
        .property("uri", file_uri(path)?)
        .build()
        .map_err(|_| MediaError::Gst("element uridecodebin missing".to_owned()))?;
    pipeline.add(&src)?;
    // One decoding thread: a render keeps both cores busy with x264 and drawing, and a
    // frame-threaded decoder spends 15–20 % more CPU on the same frames (measured on the bench
    // clip: 0.85 s against 1.04 s), while one thread still decodes far ahead of the encoder.
    pipeline.connect_deep_element_added(|_, _, element| {
        let is_libav = element
            .factory()
            .is_some_and(|f| f.name().starts_with("avdec_"));
        if is_libav && element.find_property("max-threads").is_some() {
            element.set_property("max-threads", 1i32);
        }
    });
    let head = head.downgrade();
    // Only the first pad of the wanted kind is linked; the others stay unlinked on purpose.
    src.connect_pad_added(move |_, pad| {
        let Some(head) = head.upgrade() else { return };
        let Some(sinkpad) = head.static_pad("sink") else {
            return;
        };
        if sinkpad.is_linked() {
            return;
        }
        let caps = pad.current_caps().unwrap_or_else(|| pad.query_caps(None));
        let is_wanted = caps
            .structure(0)
            .is_some_and(|s| s.name().as_str().starts_with(want));
        if is_wanted {
            let _ = pad.link(&sinkpad);
        }
    });
    Ok(())
}

impl VideoDecoder {
    /// Opens `path` and prerolls it at `req.start`.
    pub fn open(path: &Path, req: &VideoRequest) -> Result<Self, MediaError> {
        crate::gst_init()?;
        let pipeline = gst::Pipeline::new();
        let guard = PipelineGuard(pipeline.clone());
        // Decoding at the opening thread's priority: a render's drawing yields to x264.
        crate::threads::own_streaming_threads(&pipeline, &[], 0);
        // Upright as the file's orientation tag says (a no-op without one): the layer's box and
        // the probe's size are those of the pictures as shown.
        let flip = make("videoflip")?;
        flip.set_property_from_str("video-direction", "auto");
        let convert = make("videoconvert")?;
        let scale = make("videoscale")?;
        scale.set_property("add-borders", false);
        let rate = make("videorate")?;
        // I420 for ordinary video (the decoder's own format: videoconvert passes it through and
        // `Frame` converts it once, into the engine's frame); RGBA keeps a clip's alpha.
        let format = if req.alpha {
            gst_video::VideoFormat::Rgba
        } else {
            gst_video::VideoFormat::I420
        };
        let caps = gst_video::VideoCapsBuilder::new()
            .format(format)
            .width(req.width.max(1) as i32)
            .height(req.height.max(1) as i32)
            .pixel_aspect_ratio(gst::Fraction::new(1, 1))
            .framerate(gst::Fraction::new(req.fps.0, req.fps.1.max(1)))
            .build();
        let sink = gst_app::AppSink::builder()
            .caps(&caps)
            .sync(false)
            .max_buffers(3)
            .drop(false)
            .build();
        // After the conversion: a VP8 effect with alpha decodes to A420, which videoflip lacks.
        pipeline.add_many([&convert, &flip, &scale, &rate, sink.upcast_ref()])?;
        gst::Element::link_many([&convert, &flip, &scale, &rate, sink.upcast_ref()])?;
        decodebin_for(path, &pipeline, "video/", &convert)?;
        pipeline.set_state(gst::State::Paused)?;
        let prerolled = wait_state(&pipeline, req.watchdog_s);
        if !convert.static_pad("sink").is_some_and(|p| p.is_linked()) {
            return Err(prerolled.err().unwrap_or(MediaError::NoStream("video")));
        }
        prerolled?;
        if req.start > 0.0 {
            let pos = gst::ClockTime::from_nseconds((req.start * 1e9) as u64);
            pipeline.seek_simple(gst::SeekFlags::FLUSH | gst::SeekFlags::ACCURATE, pos)?;
            wait_state(&pipeline, req.watchdog_s)?;
        }
        pipeline.set_state(gst::State::Playing)?;
        Ok(VideoDecoder {
            sink,
            info: None,
            watchdog_s: req.watchdog_s,
            guard,
        })
    }

    /// Returns the next frame, `None` at the end of the clip; fails on a bus error or when the
    /// watchdog limit passes without a frame.
    pub fn next_frame(&mut self) -> Result<Option<Frame>, MediaError> {
        let limit = gst::ClockTime::from_seconds(self.watchdog_s);
        let Some(sample) = self.sink.try_pull_sample(limit) else {
            if let Some(e) = bus_error(&self.guard.0) {
                return Err(e);
            }
            if self.sink.is_eos() {
                return Ok(None);
            }
            return Err(MediaError::Timeout(self.watchdog_s));
        };
        if self.info.is_none() {
            let caps = sample
                .caps()
                .ok_or_else(|| MediaError::Pipeline("sample without caps".to_owned()))?;
            self.info = Some(gst_video::VideoInfo::from_caps(caps)?);
        }
        let info = self
            .info
            .as_ref()
            .ok_or_else(|| MediaError::Pipeline("no video info".to_owned()))?;
        let buffer = sample
            .buffer_owned()
            .ok_or_else(|| MediaError::Pipeline("sample without buffer".to_owned()))?;
        let inner = gst_video::VideoFrame::from_buffer_readable(buffer, info)
            .map_err(|_| MediaError::Pipeline("unreadable frame".to_owned()))?;
        Ok(Some(Frame { inner }))
    }
}

/// Decodes the audio of `path` from `start` for `duration` seconds (to the end when `None`)
/// into interleaved stereo f32 at 48 kHz.
pub fn decode_audio(
    path: &Path,
    start: f64,
    duration: Option<f64>,
    watchdog_s: u64,
) -> Result<Vec<f32>, MediaError> {
    crate::gst_init()?;
    let pipeline = gst::Pipeline::new();
    let guard = PipelineGuard(pipeline.clone());
    crate::threads::own_streaming_threads(&pipeline, &[], 0);
    let convert = make("audioconvert")?;
    let resample = make("audioresample")?;
    let caps = gstreamer_audio::AudioCapsBuilder::new_interleaved()
        .format(gstreamer_audio::AudioFormat::F32le)
        .rate(SAMPLE_RATE as i32)
        .channels(CHANNELS as i32)
        .build();
    let sink = gst_app::AppSink::builder()
        .caps(&caps)
        .sync(false)
        .max_buffers(16)
        .build();
    pipeline.add_many([&convert, &resample, sink.upcast_ref()])?;
    gst::Element::link_many([&convert, &resample, sink.upcast_ref()])?;
    decodebin_for(path, &pipeline, "audio/", &convert)?;
    pipeline.set_state(gst::State::Paused)?;
    let prerolled = wait_state(&pipeline, watchdog_s);
    // A file without the wanted stream fails preroll with 'not linked'; say what is missing.
    if !convert.static_pad("sink").is_some_and(|p| p.is_linked()) {
        return Err(MediaError::NoStream("audio"));
    }
    prerolled?;
    if start > 0.0 {
        let pos = gst::ClockTime::from_nseconds((start * 1e9) as u64);
        pipeline.seek_simple(gst::SeekFlags::FLUSH | gst::SeekFlags::ACCURATE, pos)?;
        wait_state(&pipeline, watchdog_s)?;
    }
    pipeline.set_state(gst::State::Playing)?;
    let want = duration.map(|d| (d.max(0.0) * f64::from(SAMPLE_RATE)).round() as usize * CHANNELS);
    let mut out: Vec<f32> = Vec::new();
    let limit = gst::ClockTime::from_seconds(watchdog_s);
    while want.is_none_or(|w| out.len() < w) {
        let Some(sample) = sink.try_pull_sample(limit) else {
            if let Some(e) = bus_error(&guard.0) {
                return Err(e);
            }
            if sink.is_eos() {
                break;
            }
            return Err(MediaError::Timeout(watchdog_s));
        };
        let Some(buffer) = sample.buffer() else {
            continue;
        };
        let map = buffer
            .map_readable()
            .map_err(|_| MediaError::Pipeline("unreadable audio buffer".to_owned()))?;
        out.extend(
            map.as_slice()
                .chunks_exact(4)
                .map(|b| f32::from_le_bytes([b[0], b[1], b[2], b[3]])),
        );
    }
    if let Some(w) = want {
        out.truncate(w);
    }
    drop(guard);
    Ok(out)
}
