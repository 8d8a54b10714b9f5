//! VIDEO_REMOVE_WATERMARK and VIDEO_REMOVE_SUBTITLE: a box of every picture erased, the rest of
//! the picture left as decoded. The pictures are decoded to I420 and each frame's box is rewritten
//! in place on the way to the encoder (`reelforge_pixels::erase`, per plane: the chroma planes'
//! box is the luma box halved, rounded outward): a strong blur feathered into the box's edge, or
//! a fill interpolated from the pixels around the box. x264 quantizer 18, the sound as AAC.
//!
//! `decodebin → videoconvert → I420 → queue (the box rewritten as frames leave it) → x264 → mp4mux`
//!
//! A caption band to detect is found first: the pictures at 2 fps as luma, each row of the lower
//! third scored by its share of sharp horizontal steps that stand still from one sample to the
//! next (the strokes of burnt-in text, not moving or flickering texture); the rows dense in at
//! least half of the samples make the band (`reelforge_pixels::erase`).

use std::path::Path;
use std::sync::atomic::AtomicBool;

use gstreamer as gst;
use gstreamer::prelude::*;
use gstreamer_video as gst_video;
use gstreamer_video::prelude::*;
use reelforge_pixels::erase::{self, Area, Plane};

use super::{Job, Output};
use crate::error::{ParamError, ToolError};
use crate::gst_run::{PICTURES, app_sink, launch, pull};
use crate::params::{Band, Captions, Erase, Watermark};

/// Pictures a second sampled to find a caption band.
const DETECT_FPS: u32 = 2;

/// The box to erase in luma pixels, and how.
#[derive(Debug, Clone, Copy)]
struct Eraser {
    area: Area,
    method: Erase,
}

impl Eraser {
    /// Rewrites the box of one plane whose samples are `1 / sub` of the luma's each way.
    fn plane(&self, plane: &mut Plane<'_>, sub: usize) {
        let a = self.area;
        let (x0, y0) = (a.x / sub, a.y / sub);
        let (x1, y1) = ((a.x + a.width).div_ceil(sub), (a.y + a.height).div_ceil(sub));
        let area = Area { x: x0, y: y0, width: x1 - x0, height: y1 - y0 };
        match self.method {
            Erase::Blur => {
                let side = area.width.min(area.height);
                erase::blur(plane, area, (side / 4).clamp(2, 32), (side / 8).clamp(1, 12));
            }
            Erase::Inpaint => erase::fill(plane, area),
        }
    }

    /// Rewrites the box of an I420 frame in place.
    fn frame(&self, buffer: &mut gst::BufferRef, info: &gst_video::VideoInfo) -> Result<(), String> {
        let mut frame = gst_video::VideoFrameRef::from_buffer_ref_writable(buffer, info).map_err(|e| e.to_string())?;
        let strides: Vec<i32> = frame.plane_stride().to_vec();
        let (w, h) = (info.width() as usize, info.height() as usize);
        for (i, stride) in strides.iter().enumerate().take(3) {
            let sub = if i == 0 { 1 } else { 2 };
            let data = frame.plane_data_mut(i as u32).map_err(|e| e.to_string())?;
            let stride = usize::try_from(*stride).map_err(|_| "a negative stride".to_owned())?;
            let mut plane = Plane { data, width: w.div_ceil(sub), height: h.div_ceil(sub), stride };
            self.plane(&mut plane, sub);
        }
        Ok(())
    }
}

/// Finds the burnt-in caption band of the video at `path`, `(y, height)` in its pixels, or `None`
/// when no rows of its lower third hold text through most of it.
pub fn detect_caption_band(path: &Path, cancel: &AtomicBool) -> Result<Option<(u32, u32)>, ToolError> {
    detect(path, cancel, &mut |_| {})
}

fn detect(path: &Path, cancel: &AtomicBool, position: &mut dyn FnMut(u64)) -> Result<Option<(u32, u32)>, ToolError> {
    let description = format!(
        "filesrc name=src ! decodebin name=d {PICTURES} ! queue ! videorate ! video/x-raw,framerate={DETECT_FPS}/1 \
         ! videoconvert ! video/x-raw,format=GRAY8 ! appsink name=sink sync=false max-buffers=4"
    );
    let running = launch(&description, Some(path), None)?;
    let sink = app_sink(&running.0, "sink")?;
    let bus = running.0.bus().ok_or_else(|| ToolError::Gst("pipeline without a bus".to_owned()))?;
    running.0.set_state(gst::State::Playing)?;
    let mut frames = Vec::new();
    let mut size = (0usize, 0usize);
    // The picture sampled before, packed (rows `width` apart).
    let mut before: Option<Vec<u8>> = None;
    while let Some(sample) = pull(&bus, &sink, cancel)? {
        let info = sample.caps().map(gst_video::VideoInfo::from_caps).transpose().map_err(|e| ToolError::Gst(e.to_string()))?;
        let (Some(info), Some(buffer)) = (info, sample.buffer()) else { continue };
        let frame = gst_video::VideoFrameRef::from_buffer_ref_readable(buffer, &info).map_err(|e| ToolError::Failed(e.to_string()))?;
        let stride = usize::try_from(frame.plane_stride()[0]).unwrap_or(0);
        size = (info.width() as usize, info.height() as usize);
        let luma = frame.plane_data(0).map_err(|e| ToolError::Failed(e.to_string()))?;
        let packed: Vec<u8> = (0..size.1).flat_map(|y| luma.get(y * stride..y * stride + size.0).unwrap_or_default().iter().copied()).collect();
        if let Some(before) = before.as_ref().filter(|b| b.len() == packed.len()) {
            frames.push(erase::still_edges(&packed, before, size.0, size.1, size.0, lower_third(size.1)));
        }
        before = Some(packed);
        if let Some(pts) = buffer.pts() {
            position(pts.mseconds());
        }
    }
    drop(running);
    let band = erase::caption_band(&frames, lower_third(size.1), size.1);
    Ok(band.map(|(y, h)| (u32::try_from(y).unwrap_or(0), u32::try_from(h).unwrap_or(0))))
}

/// The first row of a picture's lower third, where captions are burnt in.
fn lower_third(height: usize) -> usize {
    height - height / 3
}

impl Job<'_> {
    pub(super) fn remove_watermark(&mut self, mark: &Watermark) -> Result<Vec<Output>, ToolError> {
        let area = Area { x: mark.x as usize, y: mark.y as usize, width: mark.width as usize, height: mark.height as usize };
        self.erase(Eraser { area, method: mark.method }, "watermark-removed.mp4", (0.0, 1.0))
    }

    pub(super) fn remove_captions(&mut self, captions: &Captions) -> Result<Vec<Output>, ToolError> {
        let (w, _, _) = self.facts.video.unwrap_or_default();
        let (band, share) = match captions.band {
            Band::Given { y, height } => ((y, height), (0.0, 1.0)),
            Band::Detect => {
                let whole = self.facts.duration_ms.max(1);
                let progress = &mut *self.progress;
                let found = detect(self.input, self.cancel, &mut |at| {
                    let done = 0.25 * at.min(whole) as f64;
                    progress(super::Progress { done_ms: done as u64, total_ms: whole });
                })?;
                let band = found.ok_or_else(|| {
                    ParamError::new("params.mode", "no caption band was found in the lower third of the video: give the band's y and height instead")
                })?;
                (band, (0.25, 0.75))
            }
        };
        let area = Area { x: 0, y: band.0 as usize, width: w as usize, height: band.1 as usize };
        self.erase(Eraser { area, method: captions.method }, "captions-removed.mp4", share)
    }

    fn erase(&mut self, eraser: Eraser, name: &str, share: (f64, f64)) -> Result<Vec<Output>, ToolError> {
        self.rewrite_frames("videoconvert ! video/x-raw,format=I420", move |buffer, info| eraser.frame(buffer, info), name, share, "erasing")
    }
}
